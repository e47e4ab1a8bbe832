#!/usr/bin/env bash
# Sets cantoedge up on a fresh Debian/Ubuntu machine and runs the main job on the bundled default voice.
#   bash setup.sh                 install everything, run the pipeline on the default voice (report), speak
#   bash setup.sh --install-only  install only (what CI does before the tests)
set -euo pipefail
cd "$(dirname "$0")"

install_only=0
case "${1:-}" in
  --install-only) install_only=1 ;;
  -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
  "") ;;
  *) echo "setup.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
esac

# 1. libespeak-ng with the Cantonese voice (Debian package espeak-ng).
if ! ldconfig -p 2>/dev/null | grep -q 'libespeak-ng\.so'; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "setup.sh: espeak-ng is missing and I cannot install it: run 'apt-get install espeak-ng' as root" >&2
    exit 1
  fi
  echo "setup.sh: installing espeak-ng (apt)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq espeak-ng >/dev/null
fi

# 2. The virtual environment at .venv, torch pinned through constraints.txt.
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
if [ ! -x .venv/bin/python ]; then
  echo "setup.sh: creating .venv with $PYTHON"
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -c constraints.txt -e '.[build,dev,serve]'

[ "$install_only" = 1 ] && exit 0

# 3. The main job on the bundled default voice (export/voice/): `cantoedge pipeline` renders the held-out evaluation
#    utterances, exports the FP32 graphs, calibrates them to INT8 on the committed calibration set, packs the
#    evaluation bundle, builds the onnxruntime INT8 and RK3588 FP16 device folders (RKNN in rknn-toolkit2's own
#    environment, .venv-rknn), scores every build into build/report/report.html and gates on the committed
#    baseline (about 2 minutes here; rerun it and unchanged stages are skipped). Then each folder speaks.
bash scripts/rknn_env.sh
.venv/bin/cantoedge pipeline --out build
.venv/bin/cantoedge say "今日天氣好好，我哋去飲茶啦。" --voice build/voice-ort -o build/hello-ort.wav
.venv/bin/cantoedge say "今日天氣好好，我哋去飲茶啦。" --voice build/voice-rknn -o build/hello-rknn.wav
