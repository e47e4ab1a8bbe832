"""Accuracy metrics and the tone classifier; numpy only, importable on the device."""
