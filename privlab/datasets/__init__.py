"""Corpora: loaders for real data and generators of the offline default corpora."""
