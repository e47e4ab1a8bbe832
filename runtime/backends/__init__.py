"""Inference backends for the exported graphs: each loads one graph file and runs it on numpy arrays."""
