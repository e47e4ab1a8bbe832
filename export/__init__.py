"""Model export to ONNX (PyTorch side): filled by the models and export issues."""
