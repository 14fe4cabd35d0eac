"""One module per notebook: a Config dataclass and run(config) -> result."""
