"""Benchmark: reading a LIBSVM-format file into a LIBSVM problem, three ways, in one run.

    python scripts/bench_reader.py [--repeat N] [--big-mb MB] [FILE ...]

Contenders (each measured in a fresh subprocess, so that imports, caches and peak memory do not
leak from one to the next; the time is the best of --repeat runs, fewer once 5 s have passed,
taken after the imports):

  svmeval       svmeval.io.data.read_dataset(path) + svmeval.cv._libsvm.make_problem(ds)
                (file -> the svm_problem LIBSVM trains on)
  svmeval-read  svmeval.io.data.read_dataset(path) alone (file -> Dataset, CSR arrays)
  libsvm        libsvm.svmutil.svm_read_problem(path) + libsvm.svm.svm_problem(y, x)
                (the official Python bindings' path to the same svm_problem)
  sklearn       sklearn.datasets.load_svmlight_file(path) (file -> CSR matrix)

Files: ../shared/data/a9a, ijcnn1.t (decompressed from ../shared/data/ijcnn1.t.bz2 into a
temporary directory) and a9a repeated to about --big-mb megabytes, plus any FILE given.
Printed per file and contender: seconds, MB/s (of the uncompressed text), the speed-up of svmeval
over the contender, the process's peak RSS (getrusage ru_maxrss) and its growth over the RSS
after the imports, next to the size of the CSR arrays svmeval produces.
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"

CHILD = r"""
import json, resource, sys, time
contender, path, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])

def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux

if contender == "svmeval-read":
    from svmeval.io.data import read_dataset
    def run():
        return (read_dataset(path),)
elif contender == "svmeval":
    from svmeval.io.data import read_dataset
    try:
        from svmeval.cv._libsvm import make_problem
    except ImportError:  # without it, the figure is the reader's alone
        make_problem = None
    def run():
        ds = read_dataset(path)
        prob = make_problem(ds) if make_problem is not None else None
        return ds, prob
elif contender == "libsvm":
    from libsvm.svm import svm_problem
    from libsvm.svmutil import svm_read_problem
    def run():
        y, x = svm_read_problem(path)
        return svm_problem(y, x)
elif contender == "sklearn":
    from sklearn.datasets import load_svmlight_file
    def run():
        return load_svmlight_file(path)
else:
    raise SystemExit(f"unknown contender {contender}")

base = rss_mb()
best = float("inf")
csr = None
start = time.perf_counter()
for _ in range(repeat):
    t0 = time.perf_counter()
    out = run()
    best = min(best, time.perf_counter() - t0)
    if contender.startswith("svmeval"):
        ds = out[0]
        csr = sum(a.nbytes for a in (ds.y, ds.indptr, ds.indices, ds.values)) / 2**20
        del ds
    del out
    if time.perf_counter() - start > 5:  # slow contenders: fewer runs
        break
print(json.dumps({"seconds": best, "peak_mb": rss_mb(), "base_mb": base, "csr_mb": csr}))
"""

CONTENDERS = ["svmeval", "svmeval-read", "libsvm", "sklearn"]


def measure(contender: str, path: Path, repeat: int) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    r = subprocess.run(
        [sys.executable, "-c", CHILD, contender, str(path), str(repeat)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    if r.returncode != 0:
        raise SystemExit(f"{contender} on {path} failed:\n{r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def prepare(tmp: Path, big_mb: float) -> list[Path]:
    files = []
    a9a = SHARED / "a9a"
    if a9a.exists():
        files.append(a9a)
    ijcnn = SHARED / "ijcnn1.t.bz2"
    if ijcnn.exists():
        out = tmp / "ijcnn1.t"
        with bz2.open(ijcnn, "rb") as src, open(out, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        files.append(out)
    if a9a.exists() and big_mb > 0:
        text = a9a.read_bytes()
        times = max(1, round(big_mb * 2**20 / len(text)))
        out = tmp / f"a9a_x{times}"
        with open(out, "wb") as dst:
            for _ in range(times):
                dst.write(text)
        files.append(out)
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="more LIBSVM files to read")
    ap.add_argument("--repeat", type=int, default=3, help="runs per contender (best is kept)")
    ap.add_argument(
        "--big-mb",
        type=float,
        default=60.0,
        help="size of the generated large file (a9a repeated); 0 for none",
    )
    ap.add_argument(
        "--only",
        choices=CONTENDERS,
        action="append",
        help="measure only this contender (repeatable)",
    )
    args = ap.parse_args(argv)
    contenders = args.only or CONTENDERS

    with tempfile.TemporaryDirectory(prefix="bench_reader_") as tmp:
        files = prepare(Path(tmp), args.big_mb) + list(args.files)
        if not files:
            print(f"no data: {SHARED} not found and no FILE given", file=sys.stderr)
            return 1
        print(
            f"python {sys.version.split()[0]}, best of {args.repeat} runs, one subprocess per "
            f"contender and file, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '1')}"
        )
        for path in files:
            mb = path.stat().st_size / 2**20
            res = {c: measure(c, path, args.repeat) for c in contenders}
            csr = res.get("svmeval", {}).get("csr_mb")
            head = f"\n{path.name}: {mb:.1f} MB of text"
            print(
                head + (f", {csr:.1f} MB of CSR arrays (y, indptr, indices, values)" if csr else "")
            )
            print(
                f"  {'contender':<13}{'seconds':>9}{'MB/s':>9}{'svmeval x':>11}"
                f"{'peak RSS MB':>13}{'RSS growth MB':>15}"
            )
            ours = res.get("svmeval", {}).get("seconds")
            for c in contenders:
                r = res[c]
                speedup = f"{r['seconds'] / ours:.2f}" if ours else "-"
                print(
                    f"  {c:<13}{r['seconds']:>9.3f}{mb / r['seconds']:>9.1f}{speedup:>11}"
                    f"{r['peak_mb']:>13.0f}{r['peak_mb'] - r['base_mb']:>15.0f}"
                )
    print("\nsvmeval x: the contender's time over svmeval's (svmeval is that many times faster).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
