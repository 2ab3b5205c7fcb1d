#!/usr/bin/env python3
"""svmeval as a drop-in for the patched svm-train, measured as scripts use it: one process per
configuration.

(a) LIBSVM's ``tools/grid.py`` on a data set's default grid (log2 C from -5 to 15, log2 gamma
    from 3 to -15, 110 cells, 5 folds, one local worker) with ``-svmtrain svmeval`` against
    ``-svmtrain`` the patched svm-train, the two taking turns (median of --grids runs each);
    both must end with the same ``c g rate`` line.
(b) A shell loop of N ``svmeval -q -v 5 FILE`` calls against the same loop of the patched
    svm-train, the two loops taking turns (median of --loops runs each).
(c) The whole command ``svmeval -q -v 5 FILE`` against the floor any numpy program pays
    (``python -c "import numpy, ctypes"``), Python's own start (``python -c pass``,
    ``python -S -c pass``) and the patched svm-train, all taking turns (median of --runs runs
    each), and what the command imports (``python -X importtime``, one run).

The patched svm-train is built here, in a temporary folder that is removed at the end, from
LIBSVM's source (--libsvm: a source tree, or a git repository of it such as a clone of
https://github.com/cjlin1/libsvm), by scripts/patched_svm_train.py: svm-train.c gets the widely
used per-class patch (after the accuracy line of a classifier's -v k, precision, recall and F1
of the +1 class, the samples labelled 1, and of the -1 class, every other sample, each printed
with %g), compiled as LIBSVM's Makefile compiles it (g++ -O3, no OpenMP). The build is
checked first: its output on heart_scale must be the reference output in
../shared/reference byte for byte (where present).

svmeval runs as its console script does, from this source tree, from bytecode (compiled first,
as an installed package has it; PYTHONDONTWRITEBYTECODE is dropped from the environment), by
an interpreter as an installation has it: a virtual environment made here whose site-packages
names this interpreter's (numpy, LIBSVM's bindings) without processing its ``.pth`` files, so
that no editable install's import hook (a development checkout's) is paid at every start. Every
Python command measured runs on that interpreter.

Timings depend on what else runs on the machine: the script prints the load average, and the
ratios are of runs made side by side in the same run.

Usage: python scripts/bench_dropin.py --libsvm DIR [FILE] [--calls N] [--loops K] [--runs R]
       [--grids G] [--no-grid]
       (default FILE: ../shared/data/heart_scale, else data/breast_cancer.scale)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from patched_svm_train import BuildError, build_patched_svm_train

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference"

#: (reference file, svm-train's arguments before the data file) checked byte for byte
CHECKS = [
    ("heart_scale.v5.txt", ["-q", "-v", "5"]),
    ("heart_scale.v5.c0.01.txt", ["-q", "-c", "0.01", "-v", "5"]),
]


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


def measuring_python(work: Path) -> Path:
    """A virtual environment's interpreter (made in ``work``) that sees this interpreter's
    packages as an installation's: their folders named in a ``.pth`` file, whose own ``.pth``
    files (an editable install's import hook) are not processed."""
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    paths = sysconfig.get_paths()
    folders = dict.fromkeys([paths["purelib"], paths["platlib"]])
    (Path(site) / "measured.pth").write_text("".join(f"{f}\n" for f in folders))
    return python


def svmeval_command(work: Path, python: Path) -> Path:
    """An executable that runs this tree's svmeval as its console script does."""
    env = _env()
    subprocess.run(
        [
            python,
            "-c",
            "import compileall, sys; sys.exit(not all(compileall.compile_dir(d, quiet=1) "
            "if d.endswith('svmeval') else compileall.compile_file(d, quiet=1) "
            "for d in sys.argv[1:]))",
            str(ROOT / "svmeval"),
            str(ROOT / "svmeval_launch.py"),
        ],
        env=env,
        check=True,
    )
    script = work / "svmeval"
    script.write_text(
        f"#!{python}\n"
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


def medians(runs: dict) -> dict:
    """``{name: (median wall, median CPU)}`` of ``{name: [(wall, CPU), ...]}``."""
    return {
        name: tuple(statistics.median(r[j] for r in values) for j in (0, 1))
        for name, values in runs.items()
    }


def whole_command(commands: dict, runs: int, work: Path) -> dict:
    """Each command of ``{name: argv}`` run ``runs`` times, all taking turns: medians."""
    times: dict = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            times[name].append(timed(cmd, work)[0])
    return medians(times)


def import_chain(svmeval: Path, data: Path, work: Path) -> tuple[int, float, int, float]:
    """``(modules, ms, svmeval's modules, their ms)`` that ``python -X importtime`` reports for
    one whole ``svmeval -q -v 5 FILE`` (self times summed)."""
    python = svmeval.read_text().splitlines()[0][2:]
    done = subprocess.run(
        [python, "-X", "importtime", svmeval, "-q", "-v", "5", data],
        cwd=work,
        capture_output=True,
        text=True,
        env=_env(),
    )
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((parts[2].strip(), int(parts[0].split(":")[1])))
    ours = [us for name, us in rows if name.startswith("svmeval")]
    return len(rows), sum(us for _, us in rows) / 1000, len(ours), sum(ours) / 1000


def report_ratio(name: str, a: tuple, b: tuple) -> str:
    return f"    ratio {name}: wall {a[0] / b[0]:.2f}x, CPU {a[1] / b[1]:.2f}x"


def load() -> str:
    return " ".join(f"{v:.1f}" for v in os.getloadavg())


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
    ap.add_argument("--loops", type=int, default=10, help="runs of each loop (median)")
    ap.add_argument("--runs", type=int, default=15, help="runs of each whole command (median)")
    ap.add_argument("--grids", type=int, default=10, help="runs of each grid.py (median)")
    ap.add_argument("--no-grid", action="store_true", help="no grid.py runs")
    args = ap.parse_args()
    data = Path(args.file).resolve()
    with tempfile.TemporaryDirectory(prefix="svmeval-dropin-") as tmp:
        work = Path(tmp)
        try:
            svm_train = build_patched_svm_train(args.libsvm.resolve(), work)
        except BuildError as exc:
            raise SystemExit(str(exc)) from None
        checked = check_build(svm_train, ROOT.parent / "shared" / "data")
        python = measuring_python(work)
        svmeval = svmeval_command(work, python)
        print(f"data: {data}   python: {python} (packages of {sys.executable})")
        print(
            "patched svm-train built from "
            f"{args.libsvm}; reproduces byte for byte: {', '.join(checked) or '(no reference here)'}"
        )
        print(f"load average at the start: {load()}")
        same = [timed([c, "-q", "-v", "5", data], work)[1] for c in (svm_train, svmeval)]
        if same[0] != same[1]:
            raise SystemExit(f"the outputs differ:\n{same[0]}\n{same[1]}")
        print("    svmeval -q -v 5 and svm-train-patched -q -v 5: the same bytes")

        m = whole_command(
            {
                "svm-train-patched": [svm_train, "-q", "-v", "5", data],
                "python -S -c pass": [python, "-S", "-c", "pass"],
                "python -c pass": [python, "-c", "pass"],
                "python -c 'import numpy, ctypes'": [python, "-c", "import numpy, ctypes"],
                "svmeval -q -v 5": [svmeval, "-q", "-v", "5", data],
            },
            args.runs,
            work,
        )
        print(f"(c) whole commands, median of {args.runs} runs taking turns (wall, CPU):")
        for name, (wall, cpu) in m.items():
            print(f"    {name:34s} {1000 * wall:8.1f} ms {1000 * cpu:8.1f} ms")
        e = m["svmeval -q -v 5"]
        print(report_ratio("svmeval / the numpy floor", e, m["python -c 'import numpy, ctypes'"]))
        print(report_ratio("svmeval / python -c pass", e, m["python -c pass"]))
        print(report_ratio("svmeval / svm-train-patched", e, m["svm-train-patched"]))
        modules, ms, ours, ours_ms = import_chain(svmeval, data, work)
        print(
            f"    svmeval's imports (-X importtime, one run): {modules} modules, {ms:.1f} ms "
            f"self time in all; svmeval's own {ours} modules {ours_ms:.1f} ms"
        )

        n = args.calls
        loops = {"svm-train": [], "svmeval": []}
        for _ in range(args.loops):  # the two loops take turns
            loops["svm-train"].append(loop(svm_train, data, n, work))
            loops["svmeval"].append(loop(svmeval, data, n, work))
        lm = medians(loops)
        print(f"(b) a shell loop of {n} calls of -q -v 5, median of {args.loops} runs (wall, CPU):")
        for name in ("svm-train", "svmeval"):
            wall, cpu = lm[name]
            print(f"    {name:17s} {wall:8.3f} s {cpu:8.3f} s ({1000 * wall / n:.1f} ms a call)")
        print(report_ratio("svmeval / svm-train-patched", lm["svmeval"], lm["svm-train"]))

        if not args.no_grid:
            grid_py = work / "tools" / "grid.py"
            grids: dict = {"svm-train": [], "svmeval": []}
            lines = set()
            for _ in range(args.grids):  # the two take turns
                for name, command in (("svm-train", svm_train), ("svmeval", svmeval)):
                    seconds, line = grid(grid_py, command, data, work)
                    grids[name].append(seconds)
                    lines.add((name, line))
            answers = {line for _, line in lines}
            gm = medians(grids)
            print(
                "(a) grid.py's default grid (110 cells, 5 folds, one local worker), "
                f"median of {args.grids} runs taking turns (wall, CPU):"
            )
            for name in ("svm-train", "svmeval"):
                wall, cpu = gm[name]
                runs = " ".join(f"{w:.2f}" for w, _ in grids[name])
                print(f"    -svmtrain {name:9s} {wall:8.2f} s {cpu:8.2f} s   (runs: {runs})")
            print(report_ratio("svmeval / svm-train-patched", gm["svmeval"], gm["svm-train"]))
            if len(answers) != 1:
                raise SystemExit(f"grid.py's answers differ: {sorted(lines)}")
            print(f"    same answer every run: {answers.pop()}")
        print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
