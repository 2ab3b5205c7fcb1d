"""The plan of a cross-validation: the data and arguments checked at the door, the folds
(LIBSVM's own, given by the user, or groups kept whole), and one run's folds as tasks."""
