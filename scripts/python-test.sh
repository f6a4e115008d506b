#!/usr/bin/env bash
# The Python package (python/): a fresh virtual environment under .build/, `pip install ./python`
# (builds the C core from CSources/CHitTest) with numpy, pytest and dask[dataframe,distributed]
# from the package registry, the demo (Examples/python/demo.py), then pytest (python/tests,
# including the Dask test on a 2-worker LocalCluster). Ends with pytest's summary line; exits
# non-zero on any failure. About 1-2 minutes (most of it installing).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
py=${PYTHON:-python3}
venv="$root/.build/python-venv"

echo "== Python: fresh venv in .build/python-venv, pip install ./python"
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check ./python numpy pytest "dask[dataframe,distributed]"

echo "== Python: Examples/python/demo.py"
# Run outside python/ so that the installed package is imported, not the source directory.
(cd "$root/.build" && "$venv/bin/python" "$root/Examples/python/demo.py" >/dev/null)

echo "== Python: pytest python/tests"
throughput="$root/.build/python-throughput.txt"
rm -f "$throughput"
log="$root/.build/python-pytest.log"
set +e
(cd "$root/.build" && HITTEST_THROUGHPUT_FILE="$throughput" "$venv/bin/pytest" -q -p no:cacheprovider "$root/python/tests") >"$log" 2>&1
status=$?
set -e
if [ "$status" -ne 0 ]; then
    cat "$log"
else
    [ -f "$throughput" ] && sed 's/^/throughput: /' "$throughput"
    tail -n 1 "$log"
fi
exit "$status"
