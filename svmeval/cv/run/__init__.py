"""Running a plan: the evaluation core, its executors (threads, Dask), shared kernels,
preprocessing inside the folds, the results store asked first, the light mode and LIBLINEAR's
runners."""
