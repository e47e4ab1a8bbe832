"""Corpus building (build side): HKCanCor, espeak-ng rendering, features, manifests."""
