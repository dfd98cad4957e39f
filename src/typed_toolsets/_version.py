"""The package version, kept in one place (read by hatch and by the mypy plugin's cache key)."""

__version__ = "0.1.0"
