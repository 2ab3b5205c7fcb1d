"""Groups kept whole: no group in two folds (a property over random groupings and seeds),
the class and size balance against scikit-learn's StratifiedGroupKFold on the same groups,
leave-one-group-out as scikit-learn's LeaveOneGroupOut, LIBSVM's own training on each grouped
fold, the store's key, and bad group files refused before any work."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_folds_given import libsvm_fold_by_fold

from svmeval import cross_validate, open_store, read_dataset
from svmeval.cv.plan.given import grouped_assignment
from svmeval.errors import ArgumentError, DataFormatError

import commands
from conftest import DATA, HAVE_SHARED, data_set

model_selection = pytest.importorskip("sklearn.model_selection")


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(4, 150),
    n_groups=st.integers(2, 40),
    n_classes=st.integers(1, 4),
    k=st.integers(2, 12),
    seed=st.integers(0, 2**32 - 1),
    draw=st.integers(0, 2**32 - 1),
)
def test_no_group_is_split_and_no_fold_is_empty(n, n_groups, n_classes, k, seed, draw):
    rng = np.random.default_rng(draw)
    groups = np.unique(rng.integers(0, n_groups, n), return_inverse=True)[1].reshape(-1)
    classes = np.unique(rng.integers(0, n_classes, n), return_inverse=True)[1].reshape(-1)
    g = int(groups.max()) + 1
    k = min(k, g)
    fold = grouped_assignment(groups, classes, k, seed)
    for group in range(g):
        assert len(set(fold[groups == group].tolist())) == 1
    assert set(fold.tolist()) == set(range(k))
    np.testing.assert_array_equal(fold, grouped_assignment(groups, classes, k, seed))


def _measures(fold: np.ndarray, y: np.ndarray, k: int) -> tuple[int, int]:
    """(classes, sizes): the sums of squared deviations of the class counts of each fold from
    N[c] / k and of the fold sizes from n / k, times k**2 (integers: compared exactly)."""
    labels = np.unique(y)
    counts = np.array([[np.sum((fold == f) & (y == c)) for c in labels] for f in range(k)])
    sizes = counts.sum(axis=1)
    return (
        int(((k * counts - counts.sum(axis=0)) ** 2).sum()),
        int(((k * sizes - len(y)) ** 2).sum()),
    )


def _sgkf(y, groups, k, seed):
    shuffle = seed is not None
    splitter = model_selection.StratifiedGroupKFold(k, shuffle=shuffle, random_state=seed)
    fold = np.empty(len(y), dtype=np.int64)
    for i, (_, test) in enumerate(splitter.split(np.zeros(len(y)), y, groups)):
        fold[test] = i
    return fold


def _groupings():
    """(name, labels, groups): parkinsons' subjects where ../shared holds them, and synthetic
    groupings of two-class and three-class data (about 7 rows a group)."""
    out = []
    if HAVE_SHARED and (DATA / "parkinsons.groups").exists():
        y = read_dataset(DATA / "parkinsons").y
        out.append(("parkinsons", y, (DATA / "parkinsons.groups").read_text().split()))
    for name in ("heart_scale", "iris.scale", "dna.scale"):
        y = read_dataset(data_set(name)).y
        rng = np.random.default_rng(11)
        out.append((name, y, rng.integers(0, max(6, len(y) // 7), len(y)).tolist()))
    return out


@pytest.mark.parametrize("k", [3, 5, 10])
def test_balance_is_equal_or_better_than_stratified_group_kfold(k):
    # classes first (as StratifiedGroupKFold balances them), then sizes: never worse
    for name, y, groups in _groupings():
        codes = np.unique(np.asarray(groups), return_inverse=True)[1].reshape(-1)
        classes = np.unique(y, return_inverse=True)[1].reshape(-1)
        for seed in [None, *range(1, 9)]:
            mine = _measures(grouped_assignment(codes, classes, k, seed or 1), y, k)
            theirs = _measures(_sgkf(y, codes, k, seed), y, k)
            assert mine <= theirs, (name, k, seed, mine, theirs)


def test_grouped_run_keeps_groups_whole_and_is_libsvm_on_each_fold():
    path = data_set("heart_scale")
    ds = read_dataset(path)
    groups = [f"subject {i % 31}" for i in range(ds.n_samples)]
    result = cross_validate(path, "-c 2", 5, groups=groups, seed=4)
    fold = result.fold
    for g in set(groups):
        assert len({int(fold[i]) for i, h in enumerate(groups) if h == g}) == 1
    again = cross_validate(path, "-c 2", 5, groups=groups, seed=4)
    np.testing.assert_array_equal(again.fold, fold)
    other = cross_validate(path, "-c 2", 5, groups=groups, seed=5)
    assert not np.array_equal(other.fold, fold)
    pairs = [(np.flatnonzero(fold != i), np.flatnonzero(fold == i)) for i in range(5)]
    np.testing.assert_array_equal(result.y_pred, libsvm_fold_by_fold(path, "-c 2", pairs))


def _svmeval(*args):
    return commands.run("svmeval", args)


def test_leave_one_group_out_is_scikit_learns_folds_and_libsvms_training(tmp_path):
    if HAVE_SHARED and (DATA / "parkinsons.groups").exists():
        path, groups_file = DATA / "parkinsons", DATA / "parkinsons.groups"
    else:
        path = data_set("heart_scale")
        groups_file = tmp_path / "groups.txt"
        groups_file.write_text("".join(f"g{i // 9}\n" for i in range(read_dataset(path).n_samples)))
    groups = groups_file.read_text().split()
    y = read_dataset(path).y
    written = tmp_path / "folds.txt"
    done = _svmeval("-q", "-v", "groups", "--groups", groups_file, "--folds", written, path)
    assert done.returncode == 0, done.stderr
    fold = np.array(written.read_text().split(), dtype=int) - 1
    logo = list(model_selection.LeaveOneGroupOut().split(np.zeros(len(y)), y, groups))
    assert fold.max() + 1 == len(logo) == len(set(groups))
    assert sorted(tuple(t) for _, t in logo) == sorted(
        tuple(np.flatnonzero(fold == i)) for i in range(len(logo))
    )
    expected = libsvm_fold_by_fold(path, "", logo)  # the same folds, by the bindings
    accuracy = 100.0 * np.mean(expected == y)
    assert f"Cross Validation Accuracy = {accuracy:g}%" in done.stdout
    assert f"grouped: {len(logo)} groups, none split" in done.stdout
    by_svmeval = cross_validate(path, given_folds=logo)
    np.testing.assert_array_equal(by_svmeval.y_pred, expected)


def test_the_store_keys_units_by_their_folds(tmp_path):
    path = data_set("heart_scale")
    n = read_dataset(path).n_samples
    groups = np.arange(n) // 9
    store = tmp_path / "runs.db"
    cross_validate(path, "-c 2", 5, groups=groups, store=store)
    with open_store(store) as s:
        cross_validate(path, "-c 2", 5, store=s)  # LIBSVM's folds: nothing of the grouped run
        assert (s.reused, s.computed) == (0, 5)
    with open_store(store) as s:
        again = cross_validate(path, "-c 2", 5, groups=groups, store=s)
        assert (s.reused, s.computed) == (5, 0)
        cross_validate(path, "-c 2", given_folds=again.fold, store=s)  # given, not grouped
        assert (s.reused, s.computed) == (5, 5)
    fresh = cross_validate(path, "-c 2", 5, groups=groups)
    np.testing.assert_array_equal(again.y_pred, fresh.y_pred)


@pytest.mark.parametrize(
    ("lines", "args", "message"),
    [
        (lambda n: ["a"] * (n - 1), ("-v", 5), ":{n}: no line for data row {n}"),
        (lambda n: ["a", ""] + ["b"] * (n - 2), ("-v", 2), ":2: empty line"),
        (lambda n: (["a", "b"] * n)[:n], ("-v", 5), "2 groups: -v 5 needs at least 5"),
    ],
)
def test_bad_group_files_are_refused_before_any_work(tmp_path, lines, args, message):
    path = data_set("heart_scale")
    n = read_dataset(path).n_samples
    bad = tmp_path / "groups.txt"
    bad.write_text("".join(f"{v}\n" for v in lines(n)))
    before = bad.read_bytes()
    out = tmp_path / "predictions.txt"
    done = _svmeval(*args, "--groups", bad, "--predictions", out, path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert str(bad) in done.stderr and message.format(n=n) in done.stderr
    assert not out.exists() and bad.read_bytes() == before


def test_group_arguments_refused_in_the_library_and_the_command(tmp_path):
    path = data_set("heart_scale")
    n = read_dataset(path).n_samples
    with pytest.raises(ArgumentError, match="5 folds need at least 5 groups; there are 2"):
        cross_validate(path, None, 5, groups=np.arange(n) % 2)
    with pytest.raises(ArgumentError, match="has 3 entries"):
        cross_validate(path, groups=[1, 2, 3])
    with pytest.raises(ArgumentError, match="NaN is no id"):
        cross_validate(path, groups=[float("nan")] * n)
    with pytest.raises(DataFormatError):
        cross_validate(path, groups=_empty(tmp_path))
    done = _svmeval("-v", "groups", path)
    assert done.returncode == 1 and "-v groups: one fold a group needs --groups FILE" in done.stderr
    done = _svmeval("--groups", path, path)
    assert done.returncode == 1 and "only with -v k" in done.stderr


def _empty(tmp_path):
    path = tmp_path / "empty-line.txt"
    path.write_text("a\n\nb\n")
    return path


def test_reports_and_the_html_provenance_name_the_grouping(tmp_path):
    from svmeval import render, summarize

    path = data_set("heart_scale")
    n = read_dataset(path).n_samples
    groups = tmp_path / "subjects.txt"
    groups.write_text("".join(f"s{i % 37}\n" for i in range(n)))
    result = cross_validate(path, "-c 2", 5, groups=groups)
    page = render(summarize(result), format="html")
    assert "5 folds, grouped: 37 groups, none split, from " in page
    text = render(summarize(result), format="text", full=True)
    assert "Folds: 5, grouped: 37 groups, none split" in text
    # each fold's class counts, as the test counts them
    y = read_dataset(path).y
    for i in range(5):
        row = text.split("\nfold ")[1].splitlines()[i + 1].split()
        expected = [int(np.sum((result.fold == i) & (y == lab))) for lab in (-1, 1)]
        assert [int(v) for v in row[1:]] == expected
    plain = render(summarize(cross_validate(path, "-c 2", 5)), format="html")
    assert ">folds</th>" not in plain


def _grouped_cases(tmp_path):
    """(data, groups file): heart_scale with synthetic groups (6 rows a group), and
    parkinsons with its subjects where ../shared holds it."""
    path = data_set("heart_scale")
    groups = tmp_path / "synthetic.groups"
    groups.write_text("".join(f"g{i // 6}\n" for i in range(read_dataset(path).n_samples)))
    cases = [(path, groups)]
    if HAVE_SHARED and (DATA / "parkinsons.groups").exists():
        cases.append((DATA / "parkinsons", DATA / "parkinsons.groups"))
    return cases


def test_grouped_command_and_hand_pipelines_agree_where_the_folds_are_the_same(tmp_path):
    for path, groups_file in _grouped_cases(tmp_path):
        y = read_dataset(path).y
        groups = groups_file.read_text().split()
        written = tmp_path / "folds.txt"
        done = _svmeval("-q", "-v", 5, "--groups", groups_file, "--folds", written, "-c", 8, path)
        assert done.returncode == 0, done.stderr
        fold = np.array(written.read_text().split(), dtype=int) - 1
        assert _whole_rows(fold, groups)
        # svmeval's folds, trained by LIBSVM's bindings fold by fold: the report's figures
        pairs = [(np.flatnonzero(fold != i), np.flatnonzero(fold == i)) for i in range(5)]
        pred = libsvm_fold_by_fold(path, "-c 8", pairs)
        assert f"Cross Validation Accuracy = {100.0 * np.mean(pred == y):g}%" in done.stdout
        tp = np.sum((pred == 1) & (y == 1))
        precision, recall = tp / np.sum(pred == 1), tp / np.sum(y == 1)
        assert f"precision = {precision:g}\n" in done.stdout
        assert f"recall = {recall:g}\n" in done.stdout
        # scikit-learn's StratifiedGroupKFold folds given to svmeval: LIBSVM's bindings' own
        sgkf = model_selection.StratifiedGroupKFold(5, shuffle=True, random_state=0)
        theirs = list(sgkf.split(np.zeros(len(y)), y, groups))
        given = cross_validate(path, "-c 8", given_folds=theirs)
        np.testing.assert_array_equal(given.y_pred, libsvm_fold_by_fold(path, "-c 8", theirs))


def _whole_rows(fold: np.ndarray, groups: list) -> bool:
    seen: dict = {}
    return all(seen.setdefault(g, f) == f for g, f in zip(groups, fold.tolist()))
