"""The permutation test: svmeval against scikit-learn's ``permutation_test_score``, same run.

    python scripts/bench_permutation.py DATA N [JOBS]

svmeval: ``permutation_test(DATA, folds=5, permutations=N, jobs=JOBS)`` (one kernel for every
permutation). scikit-learn: ``permutation_test_score(SVC(C=1, gamma=1/num_features), X, y,
cv=StratifiedKFold(5), n_permutations=N, n_jobs=JOBS)`` on the same data read by
``load_svmlight_file``. Prints each one's seconds (the call alone, after a warm-up), the ratio
scikit-learn / svmeval and both p-values (they differ: other permutations and folds).
"""

from __future__ import annotations

import sys
import time


def main() -> None:
    path, n = sys.argv[1], int(sys.argv[2])
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    from sklearn.datasets import load_svmlight_file
    from sklearn.model_selection import StratifiedKFold, permutation_test_score
    from sklearn.svm import SVC

    from svmeval import permutation_test, read_dataset

    dataset = read_dataset(path)
    permutation_test(dataset, folds=5, permutations=1, jobs=jobs)  # warm-up: LIBSVM loaded
    start = time.perf_counter()
    ours = permutation_test(dataset, folds=5, permutations=n, jobs=jobs)
    svmeval_s = time.perf_counter() - start
    X, y = load_svmlight_file(path)
    model = SVC(C=1.0, gamma=1.0 / X.shape[1])
    start = time.perf_counter()
    _, _, p = permutation_test_score(
        model, X, y, cv=StratifiedKFold(5), n_permutations=n, n_jobs=jobs, random_state=0
    )
    sklearn_s = time.perf_counter() - start
    print(
        f"{path}: N={n} jobs={jobs} svmeval {svmeval_s:.2f} s (p {ours.p:.4g}, kernel shared: "
        f"{ours.shared_kernel}), scikit-learn {sklearn_s:.2f} s (p {p:.4g}); "
        f"scikit-learn / svmeval = {sklearn_s / svmeval_s:.2f}"
    )


if __name__ == "__main__":
    main()
