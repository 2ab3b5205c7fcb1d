"""The patched svm-train that svmeval's drop-in output is checked against, built from LIBSVM's
source: ``svm-train.c`` with the widely used per-class patch (after the accuracy line of a
classifier's ``-v k``: precision, recall and F1 of "the +1 class", the samples labelled 1, and
of "the -1 class", every other sample, each printed with ``%g``), compiled as LIBSVM's Makefile
compiles it (``g++ -O3``, no OpenMP).

Shared by ``scripts/bench_dropin.py`` and the tests that compare bytes with the binary
(``tests/cli/test_dropin_labels.py``, which build it from the source tree named by
``SVMEVAL_LIBSVM_SOURCE`` and skip, saying so, without it). :func:`build_svm_scale` builds
LIBSVM's own ``svm-scale`` from the same source, unchanged (``tests/preprocess/test_preprocess.py``
checks svmeval's scaling inside the folds against it).

Usage: python scripts/patched_svm_train.py LIBSVM_SOURCE OUT_DIR
       (builds OUT_DIR/svm-train-patched; LIBSVM_SOURCE: a source tree, or a git repository of
       it such as a clone of https://github.com/cjlin1/libsvm)
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

__all__ = [
    "ACCURACY_LINE",
    "PATCH",
    "build_patched_svm_train",
    "build_svm_scale",
    "libsvm_sources",
]

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

SOURCES = ("svm.cpp", "svm.h", "svm-train.c", "svm-scale.c", "tools/grid.py")


class BuildError(Exception):
    """LIBSVM's source could not be found, patched or compiled."""


def libsvm_sources(src: Path, into: Path) -> None:
    """Copy LIBSVM's files from a source tree, or from a git repository's HEAD."""
    if (src / "svm-train.c").exists():
        for name in SOURCES:
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src / name, into / name)
        return
    git_dir = src / ".git" if (src / ".git").exists() else src
    try:
        archive = subprocess.run(
            ["git", f"--git-dir={git_dir}", "archive", "--format=tar", "HEAD", *SOURCES],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise BuildError(f"{src}: not a LIBSVM source tree nor a git repository of one") from exc
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def build_patched_svm_train(src: Path, work: Path) -> Path:
    """The patched svm-train, built in ``work`` from the LIBSVM source at ``src``."""
    libsvm_sources(src, work)
    source = (work / "svm-train.c").read_text()
    if source.count(ACCURACY_LINE) != 1:
        raise BuildError("svm-train.c: the accuracy line to patch after was not found")
    (work / "svm-train.c").write_text(source.replace(ACCURACY_LINE, ACCURACY_LINE + PATCH))
    cxx = os.environ.get("CXX", "g++")
    flags = ["-Wall", "-Wconversion", "-O3", "-fPIC"]  # LIBSVM's Makefile
    try:
        subprocess.run([cxx, *flags, "-c", "svm.cpp"], cwd=work, check=True)
        subprocess.run(
            [cxx, *flags, "svm-train.c", "svm.o", "-o", "svm-train-patched", "-lm"],
            cwd=work,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise BuildError(f"compiling LIBSVM's svm-train with {cxx} failed: {exc}") from exc
    return work / "svm-train-patched"


def build_svm_scale(src: Path, work: Path) -> Path:
    """LIBSVM's svm-scale, unchanged, built in ``work`` from the LIBSVM source at ``src`` as
    LIBSVM's Makefile builds it (``gcc -O3``)."""
    libsvm_sources(src, work)
    cc = os.environ.get("CC", "gcc")
    flags = ["-Wall", "-Wconversion", "-O3", "-fPIC"]  # LIBSVM's Makefile
    try:  # the compiler's warnings on LIBSVM's code shown only where the build fails
        subprocess.run(
            [cc, *flags, "svm-scale.c", "-o", "svm-scale"],
            cwd=work,
            check=True,
            capture_output=True,
            text=True,
        )
    except OSError as exc:
        raise BuildError(f"compiling LIBSVM's svm-scale with {cc} failed: {exc}") from exc
    except subprocess.CalledProcessError as exc:
        raise BuildError(
            f"compiling LIBSVM's svm-scale with {cc} failed: {exc}\n{exc.stderr}"
        ) from exc
    return work / "svm-scale"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.split("Usage: ")[1])
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    try:
        print(build_patched_svm_train(Path(sys.argv[1]).resolve(), out.resolve()))
    except BuildError as exc:
        raise SystemExit(str(exc)) from None
