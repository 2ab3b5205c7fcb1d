"""svmeval: LIBSVM cross-validation with precision, recall, F1 and more."""

__version__ = "0.1.0"
