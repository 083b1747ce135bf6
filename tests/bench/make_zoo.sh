#!/bin/sh
# Exports Strata's model zoo (tests/bench/zoo_models.py: 31 architectures, random weights) into
# OUTDIR, skipping models already there. Not committed: regenerate it.
#
# Usage: make_zoo.sh OUTDIR [NAME...]
# Needs Debian's /usr/bin/python3 with python3-torch, python3-torchvision and python3-onnx
# (installed with apt-get when missing and we are root). Neither the build nor the tests need it.
set -eu

if [ $# -lt 1 ]; then
    sed -n '2,8p' "$0" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
python=/usr/bin/python3
outdir=$1
shift

if ! "$python" -c 'import torch, torchvision, onnx' 2>/dev/null; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "installing python3-torch python3-torchvision python3-onnx"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-torchvision python3-onnx >/dev/null
    else
        echo "error: $python cannot import torch, torchvision and onnx; install python3-torchvision python3-onnx" >&2
        exit 1
    fi
fi

mkdir -p "$outdir"
names=${*:-$("$python" "$here/zoo_models.py" list)}
failed=0
for name in $names; do
    if [ -s "$outdir/$name.onnx" ]; then
        continue
    fi
    if ! "$python" "$here/zoo_models.py" export "$name" "$outdir/$name.onnx" > "$outdir/$name.log" 2>&1; then
        echo "$name: export failed (see $outdir/$name.log)" >&2
        failed=$((failed + 1))
    else
        tail -n 1 "$outdir/$name.log"
    fi
done
[ "$failed" -eq 0 ]
