#!/usr/bin/env bash
# One-time (idempotent) set-up: a project-local Python virtual environment holding the exact
# PyTorch that tch 0.24 links against, plus tensorboard, which the tests use to read event files,
# and onnxruntime and onnx, which run and check the exported model.onnx files.
# A second run checks the versions and returns in seconds.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
torch_version="2.11.0"
tensorboard_version="2.20.0"
onnxruntime_version="1.32.0"
onnx_version="1.23.2"

python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null; then
    echo "setup: $python not found; install Python 3.10 or newer" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "setup: creating the virtual environment $venv" >&2
    "$python" -m venv "$venv"
fi
installed() {
    "$venv/bin/python" - "$1" "$2" <<'PY'
import importlib.metadata, sys
try:
    sys.exit(0 if importlib.metadata.version(sys.argv[1]).split("+")[0] == sys.argv[2] else 1)
except importlib.metadata.PackageNotFoundError:
    sys.exit(1)
PY
}
want=()
installed torch "$torch_version" || want+=("torch==$torch_version")
installed tensorboard "$tensorboard_version" || want+=("tensorboard==$tensorboard_version")
installed onnxruntime "$onnxruntime_version" || want+=("onnxruntime==$onnxruntime_version")
installed onnx "$onnx_version" || want+=("onnx==$onnx_version")
if [ ${#want[@]} -gt 0 ]; then
    echo "setup: installing ${want[*]} from PyPI (a few GB the first time)" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${want[@]}"
fi
