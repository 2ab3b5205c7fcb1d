#!/usr/bin/env python3
"""svmeval as a drop-in for the patched svm-train, measured as scripts use it: one process per
configuration.

(a) LIBSVM's ``tools/grid.py`` on a data set's default grid (log2 C from -5 to 15, log2 gamma
    from 3 to -15, 110 cells, 5 folds) with ``-svmtrain svmeval`` against ``-svmtrain`` the
    patched svm-train; both must end with the same ``c g rate`` line.
(b) A shell loop of N ``svmeval -q -v 5 FILE`` calls against the same loop of the patched
    svm-train, the two loops taking turns (median of --loops runs each).

The patched svm-train is built here, in a temporary folder that is removed at the end, from
LIBSVM's source (--libsvm: a source tree, or a git repository of it such as a clone of
https://github.com/cjlin1/libsvm): svm-train.c gets the widely used per-class patch (after the
accuracy line of a classifier's -v k, precision, recall and F1 of the +1 and the -1 class, each
printed with %g), compiled as LIBSVM's Makefile compiles it (g++ -O3, no OpenMP). The build is
checked first: its output on heart_scale must be the reference output in
../shared/reference byte for byte (where present). svmeval runs as its console script does,
from this source tree, from bytecode (compiled first, as an installed package has it).

Timings depend on what else runs on the machine: the script prints the load average, and the
ratios are of runs made side by side in the same run.

Usage: python scripts/bench_dropin.py --libsvm DIR [FILE] [--calls N] [--loops K] [--no-grid]
       (default FILE: ../shared/data/heart_scale, else data/breast_cancer.scale)
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference"

#: the per-class lines, inserted after svm-train's "Cross Validation Accuracy" line
PATCH = r"""
		{
			int tp = 0, fp = 0, fn = 0, tn = 0;
			double precision, recall;
			for(i=0;i<prob.l;i++)
			{
				if(prob.y[i] == 1)
				{
					if(target[i] == 1) ++tp; else ++fn;
				}
				else
				{
					if(target[i] == 1) ++fp; else ++tn;
				}
			}
			precision = (double)tp/(tp+fp);
			recall = (double)tp/(tp+fn);
			printf("Positive (+1) class:\n");
			printf("  precision = %g\n", precision);
			printf("     recall = %g\n", recall);
			printf("   F1 value = %g\n\n", 2*precision*recall/(precision+recall));
			precision = (double)tn/(tn+fn);
			recall = (double)tn/(tn+fp);
			printf("Negative (-1) class:\n");
			printf("  precision = %g\n", precision);
			printf("     recall = %g\n", recall);
			printf("   F1 value = %g\n\n", 2*precision*recall/(precision+recall));
		}
"""

ACCURACY_LINE = 'printf("Cross Validation Accuracy = %g%%\\n",100.0*total_correct/prob.l);'

#: (reference file, svm-train's arguments before the data file) checked byte for byte
CHECKS = [
    ("heart_scale.v5.txt", ["-q", "-v", "5"]),
    ("heart_scale.v5.c0.01.txt", ["-q", "-c", "0.01", "-v", "5"]),
]

SOURCES = ("svm.cpp", "svm.h", "svm-train.c", "tools/grid.py")


def libsvm_sources(src: Path, into: Path) -> None:
    """Copy LIBSVM's files from a source tree, or from a git repository's HEAD."""
    if (src / "svm-train.c").exists():
        for name in SOURCES:
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src / name, into / name)
        return
    git_dir = src / ".git" if (src / ".git").exists() else src
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", "HEAD", *SOURCES],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def build_patched_svm_train(src: Path, work: Path) -> Path:
    """The patched svm-train, built in ``work``."""
    libsvm_sources(src, work)
    source = (work / "svm-train.c").read_text()
    if source.count(ACCURACY_LINE) != 1:
        raise SystemExit("svm-train.c: the accuracy line to patch after was not found")
    (work / "svm-train.c").write_text(source.replace(ACCURACY_LINE, ACCURACY_LINE + PATCH))
    cxx = os.environ.get("CXX", "g++")
    flags = ["-Wall", "-Wconversion", "-O3", "-fPIC"]  # LIBSVM's Makefile
    subprocess.run([cxx, *flags, "-c", "svm.cpp"], cwd=work, check=True)
    subprocess.run(
        [cxx, *flags, "svm-train.c", "svm.o", "-o", "svm-train-patched", "-lm"],
        cwd=work,
        check=True,
    )
    return work / "svm-train-patched"


def check_build(svm_train: Path, data_dir: Path) -> list[str]:
    """The reference outputs reproduced by the build, byte for byte (those present)."""
    checked = []
    data = data_dir / "heart_scale"
    for name, args in CHECKS:
        reference = REFERENCE / name
        if not (reference.exists() and data.exists()):
            continue
        out = subprocess.run([svm_train, *args, data], capture_output=True, check=True).stdout
        if out != reference.read_bytes():
            raise SystemExit(f"the patched svm-train does not reproduce {reference}:\n{out!r}")
        checked.append(name)
    return checked


def svmeval_command(work: Path) -> Path:
    """An executable that runs this tree's svmeval as its console script does."""
    env = _env()
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import compileall, sys; sys.exit(not compileall.compile_dir(sys.argv[1], quiet=1))",
            str(ROOT / "svmeval"),
        ],
        env=env,
        check=True,
    )
    script = work / "svmeval"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from svmeval_launch import main\n"
        "sys.exit(main())\n"
    )
    script.chmod(0o755)
    return script


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list, cwd: Path) -> tuple[tuple[float, float], str]:
    """``((wall seconds, CPU seconds of the command and every process it waited for),
    standard output)``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=_env())
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {cmd}\n{done.stderr}")
    return (seconds, cpu), done.stdout


def grid(grid_py: Path, svmtrain: Path, data: Path, work: Path) -> tuple[tuple, str]:
    """grid.py's default grid with ``svmtrain``: (wall, CPU) seconds, and its last line
    (``c g rate``)."""
    seconds, out = timed(
        [
            sys.executable,
            grid_py,
            "-svmtrain",
            svmtrain,
            "-gnuplot",
            "null",
            "-out",
            "null",
            data,
        ],
        work,
    )
    return seconds, out.strip().splitlines()[-1]


def loop(command: Path, data: Path, calls: int, work: Path) -> tuple[float, float]:
    shell = f'for i in $(seq {calls}); do "$0" -q -v 5 "$1" > /dev/null || exit 1; done'
    return timed(["sh", "-c", shell, command, data], work)[0]


def main() -> None:
    default = ROOT.parent / "shared" / "data" / "heart_scale"
    if not default.exists():
        default = ROOT / "data" / "breast_cancer.scale"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(default))
    ap.add_argument(
        "--libsvm",
        required=True,
        type=Path,
        help="LIBSVM's source: a source tree or a git repository of it",
    )
    ap.add_argument("--calls", type=int, default=20, help="calls in each shell loop")
    ap.add_argument("--loops", type=int, default=5, help="runs of each loop (median)")
    ap.add_argument("--no-grid", action="store_true", help="only the shell loops")
    args = ap.parse_args()
    data = Path(args.file).resolve()
    with tempfile.TemporaryDirectory(prefix="svmeval-dropin-") as tmp:
        work = Path(tmp)
        svm_train = build_patched_svm_train(args.libsvm.resolve(), work)
        checked = check_build(svm_train, ROOT.parent / "shared" / "data")
        svmeval = svmeval_command(work)
        print(f"data: {data}   python: {sys.executable}")
        print(
            "patched svm-train built from "
            f"{args.libsvm}; reproduces byte for byte: {', '.join(checked) or '(no reference here)'}"
        )
        a = {"svm-train": [], "svmeval": []}
        for _ in range(args.loops):  # the two loops take turns
            a["svm-train"].append(loop(svm_train, data, args.calls, work))
            a["svmeval"].append(loop(svmeval, data, args.calls, work))
        ts, te = (
            tuple(statistics.median(r[j] for r in a[name]) for j in (0, 1))
            for name in ("svm-train", "svmeval")
        )
        n = args.calls
        print(f"(b) a shell loop of {n} calls of -q -v 5, median of {args.loops} runs (wall, CPU):")
        print(
            f"    svm-train-patched {ts[0]:8.3f} s {ts[1]:8.3f} s ({1000 * ts[0] / n:.1f} ms a call)"
        )
        print(
            f"    svmeval           {te[0]:8.3f} s {te[1]:8.3f} s ({1000 * te[0] / n:.1f} ms a call)"
        )
        print(
            f"    ratio svmeval / svm-train-patched: wall {te[0] / ts[0]:.2f}x, CPU {te[1] / ts[1]:.2f}x"
        )
        if not args.no_grid:
            grid_py = work / "tools" / "grid.py"
            gs, line_s = grid(grid_py, svm_train, data, work)
            ge, line_e = grid(grid_py, svmeval, data, work)
            print(
                "(a) grid.py's default grid (110 cells, 5 folds, one local worker), one run each:"
            )
            print(f"    -svmtrain svm-train-patched {gs[0]:8.2f} s, CPU {gs[1]:8.2f} s   {line_s}")
            print(f"    -svmtrain svmeval           {ge[0]:8.2f} s, CPU {ge[1]:8.2f} s   {line_e}")
            print(
                f"    ratio svmeval / svm-train-patched: wall {ge[0] / gs[0]:.2f}x, "
                f"CPU {ge[1] / gs[1]:.2f}x"
            )
            if line_s != line_e:
                raise SystemExit("grid.py's answers differ")
            print("    same answer: yes")
        print(f"load average at the end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
