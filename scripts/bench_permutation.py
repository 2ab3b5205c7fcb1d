"""The permutation test: svmeval against scikit-learn's ``permutation_test_score``, same run.

    python scripts/bench_permutation.py DATA N [JOBS] [--svmeval-only] [--sklearn-n M]

svmeval: ``permutation_test(DATA, folds=5, permutations=N, jobs=JOBS)`` (one kernel for every
permutation). scikit-learn: ``permutation_test_score(SVC(C=1, gamma=1/features,
cache_size=100), X, y, cv=FOLDS, n_permutations=N, n_jobs=JOBS)`` on the same data read by
``load_svmlight_file``, FOLDS being LIBSVM's folds of the data's own labels after ``srand(1)``
(the folds svmeval's observed run uses; scikit-learn keeps them for every permutation, where
svmeval draws each permutation's folds from its permuted labels, as svm-train would). Both
run N + 1 cross-validations (the data's own and N permuted); the script prints each one's
seconds (the call alone, after a warm-up), the seconds per cross-validation, the ratio of
those (scikit-learn / svmeval: per permutation, so runs of different N compare), both
p-values (they differ: other permutations), the load average (``os.getloadavg``) before and
after each, and svmeval's peak memory (``ru_maxrss`` of this process, measured before
scikit-learn is imported) beside the size of one shared kernel matrix.
``--svmeval-only``: svmeval's figures alone (scikit-learn not run); ``--sklearn-n M``:
scikit-learn runs M permutations instead of N (where N of its cross-validations would take
hours: the ratio is per cross-validation either way).
"""

from __future__ import annotations

import os
import resource
import sys
import time


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux


def main() -> None:
    argv = sys.argv[1:]
    sk_n = None
    if "--sklearn-n" in argv:
        at = argv.index("--sklearn-n")
        sk_n = int(argv[at + 1])
        del argv[at : at + 2]
    args = [a for a in argv if not a.startswith("--")]
    only = "--svmeval-only" in argv
    path, n = args[0], int(args[1])
    sk_n = n if sk_n is None else sk_n
    jobs = int(args[2]) if len(args) > 2 else 1
    from svmeval import cross_validate, permutation_test, read_dataset
    from svmeval.cv.run.kernel import matrix_bytes
    from svmeval.params import RBF

    dataset = read_dataset(path)
    permutation_test(dataset, folds=5, permutations=1, jobs=jobs)  # warm-up: LIBSVM loaded
    before_mb = peak_mb()
    print(f"{path}: {dataset.n_samples} x {dataset.n_features}, N={n}, jobs={jobs}")
    print(f"  svmeval      start {load()}")
    start = time.perf_counter()
    ours = permutation_test(dataset, folds=5, permutations=n, jobs=jobs)
    svmeval_s = time.perf_counter() - start
    per_sv = svmeval_s / (n + 1)
    kernel_mb = matrix_bytes(dataset.n_samples, RBF) / 2**20
    print(
        f"  svmeval      {svmeval_s:8.2f} s = {1000 * per_sv:7.1f} ms per CV; p {ours.p:.4g}; "
        f"kernel shared: {ours.shared_kernel}; end {load()}"
    )
    print(
        f"  svmeval peak RSS {peak_mb():.0f} MB (after the warm-up {before_mb:.0f} MB; one "
        f"shared RBF kernel, its two matrices: {kernel_mb:.0f} MB)"
    )
    if only:
        return
    import numpy as np
    from sklearn.datasets import load_svmlight_file
    from sklearn.model_selection import permutation_test_score
    from sklearn.svm import SVC

    fold = cross_validate(dataset, folds=5, seed=1).fold  # LIBSVM's folds, srand(1)
    cv = [(np.flatnonzero(fold != k), np.flatnonzero(fold == k)) for k in range(5)]
    X, y = load_svmlight_file(path, n_features=dataset.n_features)
    model = SVC(C=1.0, gamma=1.0 / dataset.n_features, cache_size=100)
    print(f"  scikit-learn N={sk_n} start {load()}")
    start = time.perf_counter()
    _, _, p = permutation_test_score(
        model, X, y, cv=cv, n_permutations=sk_n, n_jobs=jobs, random_state=0
    )
    sklearn_s = time.perf_counter() - start
    per_sk = sklearn_s / (sk_n + 1)
    print(
        f"  scikit-learn {sklearn_s:8.2f} s = {1000 * per_sk:7.1f} ms per CV; p {p:.4g}; "
        f"end {load()}"
    )
    print(f"  scikit-learn / svmeval per cross-validation = {per_sk / per_sv:.2f}")


if __name__ == "__main__":
    main()
