#!/usr/bin/env bash
# The Python package (python/): a fresh virtual environment under .build/, `pip install ./python`
# (builds the C core from CSources/CHitTest) with numpy, pytest and dask[dataframe,distributed]
# from the package registry, the demo (Examples/python/demo.py), then `cd python && pytest`
# (python/tests, including the scene contract over Tests/Fixtures/scene-contract and the Dask test
# on a 2-worker LocalCluster). The package has a src layout (python/src/hittest), so pytest run
# inside python/ imports the installed package, never the source folder. Ends with pytest's
# summary line; exits non-zero on any failure. About 1-2 minutes (most of it installing).
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
(cd "$root/.build" && "$venv/bin/python" "$root/Examples/python/demo.py" >/dev/null)

echo "== Python: cd python && pytest (the installed package)"
installed=$(cd "$root/python" && "$venv/bin/python" -c 'import hittest; print(hittest.__file__)')
case "$installed" in
    "$venv"/*) ;;
    *) echo "python-test: inside python/, 'import hittest' found $installed, not the installed package" >&2; exit 1 ;;
esac
throughput="$root/.build/python-throughput.txt"
rm -f "$throughput"
log="$root/.build/python-pytest.log"
set +e
(cd "$root/python" && HITTEST_THROUGHPUT_FILE="$throughput" "$venv/bin/pytest" -q -p no:cacheprovider) >"$log" 2>&1
status=$?
set -e
if [ "$status" -ne 0 ]; then
    cat "$log"
else
    [ -f "$throughput" ] && sed 's/^/throughput: /' "$throughput"
    tail -n 1 "$log"
fi
exit "$status"
