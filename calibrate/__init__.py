"""INT8 calibration: entropy ranges, Q/DQ graphs and TensorRT caches (calibration issue)."""
