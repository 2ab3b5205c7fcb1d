#!/usr/bin/env bash
# Prints the path of a working interpreter of the Python version given (e.g. 3.10), found as
# python3.10 on PATH or under pyenv's versions; prints nothing and exits 1 if there is none.
# Used by scripts/build_wheels.sh and .ci/run.  Usage: scripts/find_python.sh 3.10
set -uo pipefail
version=$1
if command -v "python$version" >/dev/null 2>&1 && "python$version" -c '' >/dev/null 2>&1; then
    command -v "python$version"
    exit 0
fi
root=${PYENV_ROOT:-$HOME/.pyenv}
for py in $(ls -d "$root"/versions/"$version".*/bin/"python$version" 2>/dev/null | sort -rV); do
    if "$py" -c '' >/dev/null 2>&1; then
        echo "$py"
        exit 0
    fi
done
exit 1
