#!/usr/bin/env python3
"""How many of scikit-learn's own metric tests call svmeval's scikit-learn-named functions, and
how many of those pass.

Runs tests/sklearn_contract (the installed scikit-learn's sklearn/metrics/tests modules with the
names of svmeval.metrics.SKLEARN_CONTRACT rebound to svmeval's functions) in a pytest
subprocess, then prints: the scikit-learn version, the tests collected, the tests that called at
least one rebound function, and how those ended (passed / failed / skipped).

Usage: python scripts/sklearn_contract.py [pytest arguments, e.g. -k roc]   (needs scikit-learn)
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    import sklearn

    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "contract.json"
        env = dict(os.environ, SVMEVAL_CONTRACT_REPORT=str(report))
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-W",
            "ignore",
            str(ROOT / "tests" / "sklearn_contract"),
            *argv,
        ]
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        if not report.exists():
            sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
            return 1
        data = json.loads(report.read_text())
    called, outcomes = set(data["called"]), data["outcomes"]
    ended = collections.Counter(outcomes[t] for t in called if t in outcomes)
    print(
        f"scikit-learn {sklearn.__version__}: {len(outcomes)} tests run from "
        "sklearn/metrics/tests (test_classification, test_ranking, test_common)"
    )
    print(
        f"{len(called)} call svmeval's scikit-learn-named functions: "
        + ", ".join(f"{n} {k}" for k, n in sorted(ended.items()))
    )
    for test in sorted(t for t in called if outcomes.get(t) == "failed"):
        print("failed:", test)
    return 0 if ended.get("failed", 0) == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
