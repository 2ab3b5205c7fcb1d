#!/usr/bin/env python3
"""Benchmark svmeval's cross-validation against LIBSVM's own and scikit-learn's.

How to run (from the project root, after ``make test`` or ``pip install -e '.[test]'``)::

    .venv/bin/python scripts/bench_cv.py            # full run, a few minutes on 2 cores
    .venv/bin/python scripts/bench_cv.py --quick    # smaller subsets, about a minute
    .venv/bin/python scripts/bench_cv.py --sets a9a,dna
    make bench                                      # the full run
    .venv/bin/python scripts/bench_cv.py --classes  # k = 100, 300, 1000 classes (bench_classes)
    .venv/bin/python scripts/bench_cv.py --baseline ../base --skip sv-pw,skl   # before/after
    .venv/bin/python scripts/bench_cv.py --rounds 3     # the median of three runs each

Data: the public LIBSVM sets in ``../shared/data`` (a9a and ijcnn1.t are cut to their first rows,
ijcnn1.t.bz2 is decompressed, into a temporary directory). Every contender runs 5-fold
cross-validation with svm-train's defaults (C-SVC, RBF, C=1, gamma=1/num_features, -m 100,
-e 0.001, -h 1) in its own Python process, one after another:

* ``lib-1t``  libsvm-official's ``svm_train(prob, '-q -v 5')`` with ``OMP_NUM_THREADS=1``:
  the single-thread work **W**;
* ``lib``     the same with LIBSVM's OpenMP threads as it sets them (``OMP_NUM_THREADS`` unset);
* ``lib-par`` c copies of ``lib-1t`` at once (c = the cores), each its own process: the slowest
  one's seconds. ``par/W`` says what the cores give independent work (1.00: c cores' worth;
  more where they share a physical core, a cache or the memory bus), and ``sv/(par/c)`` is
  svmeval against the c-core time this machine can reach for W's work;
* ``sv-j1``   ``svmeval.cv.engine.cross_validate(ds, SvmParams(), 5, jobs=1)``;
* ``sv``      the same with the default jobs (the cores);
* ``sv-pw``   ``sv`` with ``OMP_WAIT_POLICY=passive`` (OpenMP threads sleep at barriers at once)
  instead of svmeval's default short spin (``GOMP_SPINCOUNT=10000``);
* ``sv-old``  ``sv`` from another svmeval tree (``--baseline DIR``, its C extensions built in
  place): a change measured before and after in one run;
* ``skl``     scikit-learn's ``cross_val_predict(SVC(C=1, gamma=1/num_features, kernel='rbf',
  cache_size=100, tol=1e-3, shrinking=True), X, y, cv=5, n_jobs=2)`` on the CSR matrix of
  ``load_svmlight_file`` (its folds are StratifiedKFold's, not LIBSVM's).

Times are the cross-validation call alone, measured inside each process (reading the file and
importing are left out: they differ in kind, not in the work compared). Peak memory is the
child's own ``VmHWM`` (its peak resident set, read by the child as it ends; ``ru_maxrss`` from
``wait4``/``RUSAGE_CHILDREN`` is useless here, since Linux carries the parent's peak into a forked
child's) and, for scikit-learn's worker processes, the largest sum of the resident sets of the
process and its descendants, sampled every 0.05 s. Ratios below 1 favour
svmeval; c is this machine's cores, W/c the c-core bound of LIBSVM's one-thread work; targets:
sv/lib <= 0.90, sv/(W/c) <= 1.10. The run also checks that
svmeval's predictions (both jobs values) equal those ``svm_cross_validation`` fills in for
``svm_train -v`` after ``srand(1)`` (C-SVC is deterministic whatever the thread count) and prints
``identical: yes/no``.

LIBSVM's OpenMP threads can be hit hard by other processes on the cores: a contender that runs
longer than max(30 s, 6 W) is stopped and shown as ``>N`` (its ratios are then bounds).

Timings on a shared machine are only as good as its quietness: the load average is printed
before and after each set. OpenMP threads that wait at LIBSVM's per-kernel-row barriers suffer
most from other processes on the cores.
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _bench_common import libsvm_cv  # svm-train's CV, as bench_classes.py runs it too

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"

#: name -> (file in ../shared/data, rows in the full run, rows with --quick; None = all)
SETS = {
    "a9a": ("a9a", 10000, 4000),
    "ijcnn1": ("ijcnn1.t.bz2", 20000, 5000),
    "letter": ("letter.scale", 15000, None),
    "satimage": ("satimage.scale", None, None),
    "dna": ("dna.scale", None, None),
}
QUICK_SETS = ("a9a", "ijcnn1", "dna")
CONTENDERS = ("lib-1t", "lib", "lib-par", "sv-j1", "sv", "sv-pw", "skl", "sv-old")
ALL_CONTENDERS = CONTENDERS
CONTENDERS = list(CONTENDERS)  # those this run measures (--skip, --baseline)
BASELINE = [""]  # --baseline's tree
#: a contender is stopped after max(TIMEOUT_MIN, TIMEOUT_W * W) seconds (W: lib-1t's time)
TIMEOUT_MIN, TIMEOUT_W = 30.0, 6.0


# --- children: one contender each, reporting JSON on stdout ----------------------------------
def child(kind: str, path: str, out: str, n_features: int) -> None:
    if kind == "svmeval":
        jobs = int(os.environ["BENCH_JOBS"]) or None
        sys.path.insert(0, os.environ.get("BENCH_ROOT") or str(ROOT))
        import numpy as np

        from svmeval.cv.engine import cross_validate
        from svmeval.io.data import read_dataset
        from svmeval.params import SvmParams

        ds = read_dataset(path)
        t, cpu = time.perf_counter(), time.process_time()
        result = cross_validate(ds, SvmParams(), 5, jobs=jobs)
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
        np.save(out, result.y_pred)
    elif kind == "libsvm":
        import numpy as np

        # the CV call alone: reading the file (svm_read_problem, slow) left out as for svmeval
        seconds, cpu, target = libsvm_cv(path, "-q -v 5")
        np.save(out, target)
    elif kind == "sklearn":
        import numpy as np
        from sklearn.datasets import load_svmlight_file
        from sklearn.model_selection import cross_val_predict
        from sklearn.svm import SVC

        X, y = load_svmlight_file(path, n_features=n_features)
        svc = SVC(
            C=1, gamma=1.0 / n_features, kernel="rbf", cache_size=100, tol=1e-3, shrinking=True
        )
        t, cpu = time.perf_counter(), float("nan")  # its work is in worker processes
        pred = cross_val_predict(svc, X, y, cv=5, n_jobs=2)
        seconds = time.perf_counter() - t
        np.save(out, pred)
    else:
        raise SystemExit(f"unknown child {kind}")
    with open("/proc/self/status") as f:  # this process's own peak, not its parent's at fork
        hwm = next((int(line.split()[1]) for line in f if line.startswith("VmHWM:")), 0)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "hwm_kb": hwm}))


# --- the parent: data, processes, memory, table ----------------------------------------------
def prepare(name: str, rows: int | None, tmp: Path) -> tuple[Path, int, int]:
    """The set's file (cut to ``rows``), its row count and num_features (largest index)."""
    src = DATA / SETS[name][0]
    opener = bz2.open if src.suffix == ".bz2" else open
    lines = []
    with opener(src, "rt") as f:
        for line in f:
            lines.append(line)
            if rows is not None and len(lines) >= rows:
                break
    dst = tmp / f"{name}.{len(lines)}"
    dst.write_text("".join(lines))
    n_features = max(int(tok.split(":")[0]) for line in lines for tok in line.split()[1:])
    return dst, len(lines), n_features


def _tree_rss(pid: int) -> int:
    """Resident set (KiB) of ``pid`` and all its descendants, summed."""
    parent = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    tree, frontier = {pid}, [pid]
    while frontier:
        p = frontier.pop()
        for c, pp in parent.items():
            if pp == p and c not in tree:
                tree.add(c)
                frontier.append(c)
    total = 0
    for p in tree:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def run_child(
    kind: str,
    path: Path,
    out: Path,
    n_features: int,
    env_extra: dict,
    sample_tree: bool,
    timeout: float,
) -> dict | None:
    """Run one contender; None when it took longer than ``timeout`` seconds (then killed)."""
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "BENCH_JOBS", "BENCH_ROOT"):
        env.pop(var, None)
    env.update(env_extra)
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        kind,
        str(path),
        str(out),
        str(n_features),
    ]
    wall = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True)
    peak = [0]
    done = threading.Event()

    def sample():  # the resident sets of the child and its workers, while they live
        while not done.wait(0.05):
            peak[0] = max(peak[0], _tree_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    if sample_tree:
        sampler.start()
    try:
        stdout, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    finally:
        done.set()
        if sample_tree:
            sampler.join()
    wall = time.perf_counter() - wall
    if proc.returncode != 0:
        raise SystemExit(f"{kind} on {path.name} failed with exit status {proc.returncode}")
    report = json.loads(stdout.strip().splitlines()[-1])
    own_mb = report["hwm_kb"] / 1024
    return {
        "seconds": report["seconds"],
        "cpu": report["cpu"],
        "wall": wall,
        "own": own_mb,
        "tree": max(peak[0] / 1024, own_mb),
    }


def run_side_by_side(
    kind: str, path: Path, out: Path, n_features: int, env_extra: dict, timeout: float
) -> dict | None:
    """:func:`run_child` on every core at once, one process each: the slowest one's figures
    (None when one took longer than ``timeout``)."""
    got: list = [None] * CORES
    outs = [out.with_suffix(f".{k}.npy") for k in range(CORES)]

    def one(k: int) -> None:
        got[k] = run_child(kind, path, outs[k], n_features, env_extra, False, timeout)

    threads = [threading.Thread(target=one, args=(k,)) for k in range(CORES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if any(g is None for g in got):
        return None
    os.replace(outs[0], out)
    return max(got, key=lambda g: g["seconds"])


def contender(name: str) -> tuple[str, dict, bool]:
    """(child kind, extra environment, sample the process tree) of a contender."""
    return {
        "lib-1t": ("libsvm", {"OMP_NUM_THREADS": "1"}, False),
        "lib": ("libsvm", {}, False),
        "lib-par": ("libsvm", {"OMP_NUM_THREADS": "1"}, False),
        "sv-j1": ("svmeval", {"BENCH_JOBS": "1"}, False),
        "sv": ("svmeval", {"BENCH_JOBS": "0"}, False),
        "sv-pw": ("svmeval", {"BENCH_JOBS": "0", "OMP_WAIT_POLICY": "passive"}, False),
        "sv-old": ("svmeval", {"BENCH_JOBS": "0", "BENCH_ROOT": BASELINE[0]}, False),
        "skl": ("sklearn", {}, True),
    }[name]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer, smaller data sets")
    ap.add_argument("--sets", help="comma-separated subset of " + ",".join(SETS))
    ap.add_argument(
        "--classes",
        nargs="?",
        const="100,300,1000",
        metavar="K[,K...]",
        help="many classes against svm-train instead (default 100,300,1000)",
    )
    ap.add_argument(
        "--baseline", metavar="DIR", help="another svmeval tree, run as the sv-old contender"
    )
    ap.add_argument(
        "--skip",
        default="",
        metavar="NAMES",
        help="contenders to leave out, e.g. sv-pw,skl (W = lib-1t always runs)",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="runs of each contender (the others in turn after W); the median is shown",
    )
    ap.add_argument(
        "--child", nargs=4, metavar=("KIND", "FILE", "OUT", "NFEAT"), help=argparse.SUPPRESS
    )
    args = ap.parse_args(argv)
    if args.child:
        kind, path, out, nfeat = args.child
        child(kind, path, out, int(nfeat))
        return 0
    if args.classes:
        import bench_classes  # scripts/bench_classes.py, beside this file

        return bench_classes.main([int(k) for k in args.classes.split(",")])
    if not DATA.is_dir():
        print(f"{DATA} is absent: the benchmark reads the shared LIBSVM data sets", file=sys.stderr)
        return 1
    import numpy as np
    import sklearn
    from libsvm import svm as _svm_module  # noqa: F401  (fails early if absent)

    BASELINE[0] = str(Path(args.baseline).resolve()) if args.baseline else ""
    skip = set(args.skip.split(",")) - {"", "lib-1t"}
    if not args.baseline:
        skip.add("sv-old")
    CONTENDERS[:] = [c for c in ALL_CONTENDERS if c not in skip]
    names = args.sets.split(",") if args.sets else list(QUICK_SETS if args.quick else SETS)
    for n in names:
        if n not in SETS:
            ap.error(f"unknown set {n!r}; choose from {', '.join(SETS)}")
    print(
        f"# svmeval CV benchmark: {CORES} cores, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"scikit-learn {sklearn.__version__}, libsvm-official "
        f"{_version('libsvm-official')}{', quick' if args.quick else ''}"
    )
    print(
        "# 5-fold C-SVC, RBF, C=1, gamma=1/num_features, -m 100 -e 0.001 -h 1; "
        "seconds of the CV call; "
        + ("one run each" if args.rounds == 1 else f"median of {args.rounds} runs each")
    )
    rows_out, all_same = [], True
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench_cv.") as tmpdir:
        tmp = Path(tmpdir)
        for name in names:
            file, full_rows, quick_rows = SETS[name]
            path, n, nfeat = prepare(name, quick_rows if args.quick else full_rows, tmp)
            load0 = os.getloadavg()[0]
            runs: dict = {c: [] for c in CONTENDERS}
            preds, timeout = {}, 600.0
            for r in range(args.rounds):  # lib-1t first, then the others in turn
                order = CONTENDERS[:1] + CONTENDERS[1:][:: 1 if r % 2 == 0 else -1]
                for c in order:
                    kind, env, tree = contender(c)
                    out = tmp / f"{name}.{c}.npy"
                    if c == "lib-par":
                        got = run_side_by_side(kind, path, out, nfeat, env, timeout)
                    else:
                        got = run_child(kind, path, out, nfeat, env, tree, timeout)
                    if got is None:
                        got = {"seconds": timeout, "timeout": True, "tree": float("nan")}
                        print(f"  {name:9s} {c:7s} stopped after {timeout:.0f} s", file=sys.stderr)
                        runs[c].append(got)
                        continue
                    runs[c].append(got)
                    if c == "lib-1t" and r == 0:
                        timeout = max(TIMEOUT_MIN, TIMEOUT_W * got["seconds"])
                    preds[c] = np.load(out)
                    print(
                        f"  {name:9s} {c:7s} {got['seconds']:8.2f} s  {got['cpu']:.2f} s CPU "
                        f"(process {got['wall']:.2f} s, {got['tree']:.0f} MB)",
                        file=sys.stderr,
                        flush=True,
                    )
            # each contender's median run (its CPU seconds and memory from that run)
            res = {c: sorted(v, key=lambda g: g["seconds"])[len(v) // 2] for c, v in runs.items()}
            res["paired"] = paired_ratios(runs)
            load1 = os.getloadavg()[0]
            ref = preds["lib-1t"]  # svm_cross_validation's targets (threads change nothing)
            same = all(
                np.array_equal(preds[c], ref)
                for c in ("lib", "lib-par", "sv-j1", "sv", "sv-pw", "sv-old")
                if c in preds
            )
            same &= "sv" in preds or "sv-pw" in preds
            all_same &= same
            rows_out.append((name, n, nfeat, res, same, load0, load1))
    total = time.perf_counter() - started
    _print_tables(rows_out)
    print(
        f"identical: {'yes' if all_same else 'no'}  (svmeval --jobs 1 and default vs "
        f"svm_cross_validation after srand(1), per sample, every set)"
    )
    print(f"# benchmark wall time {total:.0f} s")
    return 0 if all_same else 1


def paired_ratios(runs: dict) -> dict:
    """Each ratio of :data:`RATIOS` as the median of the rounds' own ratios: the contenders
    of a round run back to back, so a drift of the machine's speed between rounds (a shared
    machine's can reach tens of percent within minutes) cancels in the pair. Empty for one
    round (the ratio of the times shown is the same)."""
    rounds = min((len(v) for v in runs.values()), default=0)
    if rounds < 2:
        return {}
    out = {}
    for label, a, b, scale in RATIOS:
        if a in runs and b in runs:
            pairs = [
                runs[a][r]["seconds"] / (runs[b][r]["seconds"] * scale)
                for r in range(rounds)
                if not (runs[a][r].get("timeout") or runs[b][r].get("timeout"))
            ]
            if len(pairs) == rounds:
                out[label] = (
                    sorted(pairs)[len(pairs) // 2]
                    if rounds % 2
                    else (sorted(pairs)[rounds // 2 - 1] + sorted(pairs)[rounds // 2]) / 2
                )
    return out


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # pragma: no cover - metadata missing
        return "?"


#: the cores of this machine: W/c is the c-core bound of LIBSVM's one-thread work W
CORES = len(os.sched_getaffinity(0))
_BOUND = f"(W/{CORES})"

#: the ratios printed, (label, numerator, denominator, denominator's scale), where both ran
RATIOS = (
    ("sv/lib", "sv", "lib", 1.0),
    ("sv/" + _BOUND, "sv", "lib-1t", 1 / CORES),
    ("old/lib", "sv-old", "lib", 1.0),
    ("old/" + _BOUND, "sv-old", "lib-1t", 1 / CORES),
    ("par/W", "lib-par", "lib-1t", 1.0),
    (f"sv/(par/{CORES})", "sv", "lib-par", 1 / CORES),
    ("sv/skl", "sv", "skl", 1.0),
    ("svj1/lib", "sv-j1", "lib", 1.0),
    ("pw/" + _BOUND, "sv-pw", "lib-1t", 1 / CORES),
)
TARGETS = {"sv/lib": "<=0.90", "sv/" + _BOUND: "<=1.10"}


def _print_tables(rows) -> None:
    ratios = [r for r in RATIOS if r[1] in CONTENDERS and r[2] in CONTENDERS]
    head = (
        f"{'set':9s} {'rows':>6s} {'feat':>4s} | "
        + " ".join(f"{'W lib-1t' if c == 'lib-1t' else c:>8s}" for c in CONTENDERS)
        + " | "
        + " ".join(f"{r[0]:>{max(9, len(r[0]))}s}" for r in ratios)
        + f" | {'same':4s} {'load':>9s}"
    )
    print()
    print(head)
    print("-" * len(head))
    sums = {c: 0.0 for c in CONTENDERS}
    for name, n, nfeat, res, same, load0, load1 in rows:
        for c in CONTENDERS:
            sums[c] += res[c]["seconds"]
        print(
            _row(name, str(n), str(nfeat), res, ratios) + f" | {'yes' if same else 'NO':4s} "
            f"{load0:4.1f}>{load1:<4.1f}"
        )
    if len(rows) > 1:
        print("-" * len(head))
        timed_out = {c for _, _, _, res, *_ in rows for c in CONTENDERS if res[c].get("timeout")}
        print(
            _row(
                "all",
                "",
                "",
                {c: {"seconds": sums[c], "timeout": c in timed_out} for c in CONTENDERS},
                ratios,
            )
            + " |"
        )
    print("targets: " + ", ".join(f"{k} {v}" for k, v in TARGETS.items()))
    if any(r[3].get("paired") for r in rows):  # r: (name, rows, features, res, ...)
        print("(a set's ratios: the median of each round's own ratio; 'all': of the median times)")
    print(
        "(>N: stopped after N s; a ratio with > or < is a bound; load: 1-min load average "
        "before>after the set)"
    )
    print()
    chead = (
        f"{'CPU s':9s} | "
        + " ".join(f"{c:>8s}" for c in CONTENDERS)
        + "   (CPU seconds of the CV call, every thread; sv CPU / W: the work svmeval adds)"
    )
    print(chead)
    print("-" * len(chead))
    for name, _n, _nfeat, res, _same, _load0, _load1 in rows:
        w = res["lib-1t"].get("cpu", float("nan"))
        extra = f"   sv/W {res['sv']['cpu'] / w:.2f}" if "sv" in res and "cpu" in res["sv"] else ""
        print(
            f"{name:9s} | "
            + " ".join(f"{res[c].get('cpu', float('nan')):8.2f}" for c in CONTENDERS)
            + extra
        )
    print()
    mhead = (
        f"{'peak MB':9s} | " + " ".join(f"{c:>8s}" for c in CONTENDERS) + "   (skl: all processes)"
    )
    print(mhead)
    print("-" * len(mhead))
    for name, _n, _nfeat, res, _same, _load0, _load1 in rows:
        print(f"{name:9s} | " + " ".join(f"{res[c]['tree']:8.0f}" for c in CONTENDERS))
    print()


def _row(name: str, n: str, nfeat: str, res: dict, ratios) -> str:
    t = {c: res[c]["seconds"] for c in CONTENDERS}
    late = {c for c in CONTENDERS if res[c].get("timeout")}

    def sec(c):
        return f"{'>' if c in late else ''}{t[c]:.2f}"

    paired = res.get("paired", {})

    def ratio(label, a, b, scale=1.0):
        if label in paired:  # the median of the rounds' own ratios
            return f"{paired[label]:.2f}"
        mark = "?" if a in late and b in late else ">" if a in late else "<" if b in late else ""
        return f"{mark}{t[a] / (t[b] * scale):.2f}"

    return (
        f"{name:9s} {n:>6s} {nfeat:>4s} | "
        + " ".join(f"{sec(c):>8s}" for c in CONTENDERS)
        + " | "
        + " ".join(f"{ratio(label, a, b, k):>{max(9, len(label))}s}" for label, a, b, k in ratios)
    )


if __name__ == "__main__":
    sys.exit(main())
