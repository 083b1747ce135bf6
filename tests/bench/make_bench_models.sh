#!/bin/sh
# Produces the large models for the benchmarks (they are not committed):
#   OUTDIR/resnet50.onnx           torchvision ResNet-50, random weights, ~100 MB
#   OUTDIR/mobilenet_v2.onnx       torchvision MobileNetV2, random weights, ~14 MB
#   OUTDIR/densenet121.onnx        torchvision DenseNet-121, random weights, ~32 MB
#   OUTDIR/transformer.onnx        torch.nn.TransformerEncoder, 4 layers, d_model 256
#   OUTDIR/transformer_stack.onnx  ~13,000-node transformer from strata_make_samples
#
# Usage: make_bench_models.sh OUTDIR [BUILD_DIR | path/to/strata_make_samples]
#   BUILD_DIR defaults to build/default in the repository.
# The exports need Debian's /usr/bin/python3 with python3-torch and python3-onnx; torchvision is
# installed with apt-get when it is missing and we are root. Neither the build nor the tests
# need any of this.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,10p' "$0" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
outdir=$1
target=${2:-$repo/build/default}
python=/usr/bin/python3

if [ -f "$target" ] && [ -x "$target" ]; then
    make_samples=$target
else
    make_samples=$target/samples/strata_make_samples
fi
if [ ! -x "$make_samples" ]; then
    echo "error: $make_samples not found; build it with" >&2
    echo "  cmake --build build/default --target strata_make_samples" >&2
    exit 1
fi

if ! "$python" -c 'import torchvision' 2>/dev/null; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "installing python3-torchvision"
        DEBIAN_FRONTEND=noninteractive apt-get install -y python3-torchvision >/dev/null
    else
        echo "error: $python cannot import torchvision; install python3-torchvision" >&2
        exit 1
    fi
fi

mkdir -p "$outdir"
for model in resnet50 mobilenet_v2 densenet121 transformer; do
    "$python" "$here/export_models.py" "$model" "$outdir/$model.onnx"
done
"$make_samples" -o "$outdir/transformer_stack.onnx"

echo
echo "Run the benchmark with:"
echo "  STRATA_BENCH_MODELS=$outdir/resnet50.onnx:$outdir/transformer_stack.onnx \\"
echo "    $(dirname "$(dirname "$make_samples")")/tests/bench/strata_bench_import"
