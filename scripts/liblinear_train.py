"""LIBLINEAR's ``train`` command, built from LIBLINEAR's source in a folder of its own: the
binary svmeval-linear's output is checked against (``tests/cv/test_linear.py``, which builds it
from the source named by ``SVMEVAL_LIBLINEAR_SOURCE`` and skips, saying so, without it) and
timed against (``scripts/bench_linear.py``).

The whole tree is exported (a source tree copied, or a git repository's HEAD archived) and
``make train`` runs in it: LIBLINEAR's own Makefile, compiler and flags (``CXX``, ``CC``).

Usage: python scripts/liblinear_train.py LIBLINEAR_SOURCE OUT_DIR
       (builds OUT_DIR/train; LIBLINEAR_SOURCE: a source tree, or a git repository of it
       such as a clone of https://github.com/cjlin1/liblinear)
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

__all__ = ["BuildError", "build_liblinear_train"]


class BuildError(Exception):
    """LIBLINEAR's source could not be found or compiled."""


def _export(src: Path, into: Path) -> None:
    """LIBLINEAR's files from a source tree, or from a git repository's HEAD, into ``into``."""
    if (src / "train.c").exists() and (src / "linear.cpp").exists():
        shutil.copytree(src, into, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".git"))
        return
    git_dir = src / ".git" if (src / ".git").exists() else src
    try:
        archive = subprocess.run(
            ["git", f"--git-dir={git_dir}", "archive", "--format=tar", "HEAD"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise BuildError(f"{src}: not a LIBLINEAR source tree nor a git repository of one") from exc
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    if not (into / "train.c").exists():
        raise BuildError(f"{src}: no train.c at its HEAD: not LIBLINEAR's source")


def build_liblinear_train(src: Path, work: Path) -> Path:
    """LIBLINEAR's ``train``, built in ``work`` from the source at ``src``."""
    _export(src, work)
    try:
        subprocess.run(["make", "train"], cwd=work, check=True, capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise BuildError(f"building LIBLINEAR's train: {exc}") from exc
    except subprocess.CalledProcessError as exc:
        tail = (exc.stderr or "").strip().splitlines()[-1:]
        raise BuildError(f"building LIBLINEAR's train (make train) failed: {tail}") from exc
    return work / "train"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.split("Usage: ")[1])
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    try:
        print(build_liblinear_train(Path(sys.argv[1]).resolve(), out.resolve()))
    except BuildError as exc:
        raise SystemExit(str(exc)) from None
