#!/bin/sh
# Runs one of the benchmarks' Tantivy drivers in a virtual environment of
# its own, made on first use with tantivy 0.27.0 from PyPI.
#
#   tantivy.sh quality ARGS...   tantivy_quality.py (spotlight-bench quality)
#   tantivy.sh bench ARGS...     tantivy_bench.py (spotlight-bench, the engine benchmark)
#   tantivy.sh --prepare         makes the environment if it is missing, then exits
#
# OPENSPOTLIGHT_TANTIVY_VENV overrides where it lives (default: .build-bench/tantivy-venv).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv="${OPENSPOTLIGHT_TANTIVY_VENV:-$here/../../.build-bench/tantivy-venv}"
if ! "$venv/bin/python" -c "import tantivy" 2>/dev/null; then
    echo "tantivy.sh: creating $venv (tantivy 0.27.0 from PyPI)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --retries 1 --timeout 20 "tantivy==0.27.0"
fi
case "${1:-}" in
    --prepare) exit 0 ;;
    quality | bench) driver="$here/tantivy_$1.py"; shift ;;
    *) echo "usage: tantivy.sh quality|bench ARGS... | --prepare" >&2; exit 2 ;;
esac
exec "$venv/bin/python" "$driver" "$@"
