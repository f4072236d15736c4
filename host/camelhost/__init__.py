"""camelhost: the table program for the smart pyramid (CLI ``pyramid``)."""

__version__ = "0.1.0"
