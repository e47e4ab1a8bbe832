"""Inference backends: a loader and a runner per backend (onnxruntime, TensorRT, RKNN), one small interface."""
