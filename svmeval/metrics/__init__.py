"""Metrics: pure numpy, no LIBSVM. Work on any y_true / y_pred (or scores)."""
