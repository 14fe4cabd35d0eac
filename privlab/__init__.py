"""privlab: measure how private AI-based sanitization really is."""
__version__ = "0.1.0"
