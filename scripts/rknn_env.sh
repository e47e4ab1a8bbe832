#!/usr/bin/env bash
# Creates .venv-rknn: rknn-toolkit2 (RK3588 converter and PC simulator) in its own virtual environment, since
# its pins (numpy<=1.26.4, onnx<=1.18, setuptools<80.1) conflict with the main one. torch is the main one's
# CPU build, not the toolkit's torch<=2.4 with 4 GB of CUDA libraries (why: scripts/rknn-requirements.txt).
# About 30 seconds and 1.5 GB; does nothing when the environment already imports the toolkit.
#   bash scripts/rknn_env.sh            create or check .venv-rknn beside this checkout
#   RKNN_VENV=/opt/rknn bash scripts/rknn_env.sh   somewhere else (then export CANTOEDGE_RKNN_PYTHON=/opt/rknn/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${RKNN_VENV:-.venv-rknn}
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
case "${1:-}" in
  -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
  "") ;;
  *) echo "rknn_env.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
esac
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import rknn.api" >/dev/null 2>&1; then
  echo "rknn_env.sh: $VENV already has rknn-toolkit2"
  exit 0
fi
echo "rknn_env.sh: creating $VENV with $PYTHON (rknn-toolkit2 2.5.0; about 30 seconds, 1.5 GB)"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q -c constraints.txt -r scripts/rknn-requirements.txt
"$VENV/bin/python" -m pip install -q --no-deps rknn-toolkit2==2.5.0
"$VENV/bin/python" -c "import rknn.api" >/dev/null 2>&1 || { echo "rknn_env.sh: rknn.api does not import in $VENV" >&2; exit 1; }
echo "rknn_env.sh: $VENV ready"
