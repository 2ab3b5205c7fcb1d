"""Files in and out: LIBSVM-format data (the C reader), predictions files, safe output."""

from .data import Dataset, read_dataset

__all__ = ["Dataset", "read_dataset"]
