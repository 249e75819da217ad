#!/bin/sh
# Runs the quality benchmark's Tantivy driver (tantivy_quality.py) in a
# virtual environment of its own, made on first use with tantivy from PyPI.
# OPENSPOTLIGHT_TANTIVY_VENV overrides where it lives (default: .build-bench/tantivy-venv).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv="${OPENSPOTLIGHT_TANTIVY_VENV:-$here/../../.build-bench/tantivy-venv}"
if ! "$venv/bin/python" -c "import tantivy" 2>/dev/null; then
    echo "tantivy.sh: creating $venv (tantivy 0.27.0 from PyPI)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "tantivy==0.27.0"
fi
exec "$venv/bin/python" "$here/tantivy_quality.py" "$@"
