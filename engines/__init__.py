"""Engine builders and manifests for ONNX Runtime, TensorRT and RKNN (engines issue)."""
