#!/usr/bin/env bash
# Installs a built svmeval wheel in a fresh venv outside the source tree and runs the three
# commands on bundled data sets, checking their exit status and what they print.
#
#   scripts/smoke_wheel.sh WHEEL [PYTHON]      (PYTHON: the wheel's interpreter; default python3)
#   scripts/smoke_wheel.sh --installed PYTHON  the svmeval already installed in PYTHON's
#                                              environment (cibuildwheel's test step)
#
# Exits 0 when every check passes; otherwise prints what failed and exits 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 WHEEL [PYTHON] | --installed PYTHON" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$1" = --installed ]; then
    wheel="the svmeval installed for ${2:?a Python}"
    bin=$(dirname "$("$2" -c 'import sys; print(sys.executable)')")
    env=$("$bin/python" -c 'import sys; print(sys.prefix)')
else
    wheel=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    "${2:-python3}" -m venv "$work/venv"
    "$work/venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel" \
        >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; echo "pip could not install $wheel" >&2; exit 1; }
    bin="$work/venv/bin"
    env="$work/venv"
fi

fail() { echo "smoke test FAILED ($(basename "$wheel")): $*" >&2; exit 1; }

cp "$root/data/breast_cancer.scale" "$root/data/wine.scale" "$work/"
cd "$work"  # nothing of the source tree is importable from here

# the installed package, not the checkout, and its version in each command
where=$("$bin/python" -c 'import svmeval; print(svmeval.__file__)')
case $where in "$env/"*) ;; *) fail "svmeval imported from $where, not from $env" ;; esac
version=$("$bin/python" -c 'import svmeval; print(svmeval.__version__)')
for prog in svmeval svmeval-grid svmeval-compare; do
    [ "$("$bin/$prog" --version)" = "$prog $version" ] || fail "$prog --version"
done

# svmeval: svm-train's first line (the README's example), then the per-class figures
"$bin/svmeval" -q -v 5 breast_cancer.scale >cv.txt 2>cv.err || fail "svmeval exited $?: $(cat cv.err)"
[ "$(head -n 1 cv.txt)" = "Cross Validation Accuracy = 96.1336%" ] ||
    fail "svmeval printed: $(head -n 1 cv.txt)"
grep -q '^  precision = ' cv.txt || fail "svmeval printed no precision"

# svmeval-grid: grid.py's lines, one per cell, then "c g rate"; its -out file
"$bin/svmeval-grid" -q -log2c -1,3,2 -log2g -5,-1,2 -gnuplot null -out grid.out wine.scale \
    >grid.txt 2>grid.err || fail "svmeval-grid exited $?: $(cat grid.err)"
[ "$(grep -c '^\[local\] ' grid.txt)" = 9 ] || fail "svmeval-grid printed $(wc -l <grid.txt) lines"
[ "$(wc -l <grid.out)" = 9 ] || fail "svmeval-grid's -out file has $(wc -l <grid.out) lines"
tail -n 1 grid.txt | grep -Eq '^[0-9.e-]+ [0-9.e-]+ [0-9.]+$' || fail "svmeval-grid's last line"

# svmeval-compare: two configurations on the same folds, with their tests
"$bin/svmeval-compare" -v 5 breast_cancer.scale -- -c 1 -- -c 8 -g 0.05 \
    >compare.txt 2>compare.err || fail "svmeval-compare exited $?: $(cat compare.err)"
grep -q 'McNemar' compare.txt || fail "svmeval-compare printed no McNemar test"

# a bad file: one line on stderr, exit 1
if "$bin/svmeval" -v 5 no-such-file >bad.txt 2>bad.err; then fail "svmeval accepted no-such-file"; fi
[ "$(wc -l <bad.err)" = 1 ] || fail "svmeval's error is $(wc -l <bad.err) lines"

echo "smoke test passed: $(basename "$wheel") with $("$bin/python" -V) in a clean venv"
