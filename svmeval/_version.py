"""The version of svmeval, in one place (packaging reads it from here)."""

__version__ = "0.1.0"
