#!/bin/sh
# The generated C++ beside the host runtime on the same program: `strata-cli compile --emit cpp`,
# built with g++ -O3 -march=native and oneDNN (-DSTRATA_RT_DNNL -DSTRATA_THREADS, docs/CODEGEN.md),
# then timed against `strata-cli run` with the same schedule, alternating. A benchmark, never a
# test.
#
# Usage: codegen_latency.sh [-r ROUNDS] [-n REPEAT] [-s STRATEGY] [-c STRATA_CLI] MODEL.onnx...
#   ROUNDS    alternating rounds (default 3); each figure is the best round's median
#   REPEAT    timed runs per tool and round (default 10)
#   STRATEGY  per-op, rules or fuse-max (default rules)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=3
repeat=10
strategy=rules
cli="$root/build/default/app/cli/strata-cli"
while getopts r:n:s:c: opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        n) repeat=$OPTARG ;;
        s) strategy=$OPTARG ;;
        c) cli=$OPTARG ;;
        *) sed -n '2,10p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
[ -x "$cli" ] || { echo "error: no strata-cli at $cli (build it, or pass -c)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| model | generated C++ (ms) | strata-cli run (ms) | generated / run |"
echo "|---|---|---|---|"
for model in "$@"; do
    name=$(basename "$model" .onnx)
    dir="$work/$name"
    mkdir -p "$dir"
    "$cli" compile "$model" --target host --strategy "$strategy" --emit cpp -o "$dir" -q >/dev/null
    src=$(ls "$dir"/*.cpp)
    base=${src%.cpp}
    g++ -O3 -march=native -std=c++20 -DSTRATA_RT_DNNL -DSTRATA_THREADS "$src" -o "$base" -ldnnl -pthread
    # Any input will do for timing: the inputs' byte count is in the file's header comment.
    bytes=$(sed -n 's|^// input.bin: .*(\([0-9]*\) bytes):$|\1|p' "$src")
    head -c "$bytes" /dev/zero > "$dir/input.bin"
    gen_best="" run_best=""
    i=0
    while [ $i -lt "$rounds" ]; do
        gen=$(OMP_NUM_THREADS=1 "$base" "$base.weights.bin" "$dir/input.bin" "$dir/output.bin" "$repeat" 2>&1 \
            | sed -n 's/^run: median \([0-9.]*\) ms.*/\1/p')
        run=$("$cli" run "$model" --strategy "$strategy" --repeat "$repeat" --json -q 2>/dev/null \
            | sed -n 's/^ *"total_ns": *\([0-9.e+]*\).*/\1/p' | awk '{ printf "%.3f", $1 / 1e6 }')
        gen_best=$(printf '%s\n%s\n' "$gen" "$gen_best" | grep . | sort -g | head -1)
        run_best=$(printf '%s\n%s\n' "$run" "$run_best" | grep . | sort -g | head -1)
        i=$((i + 1))
    done
    ratio=$(awk -v g="$gen_best" -v r="$run_best" 'BEGIN { printf "%.2fx", g / r }')
    echo "| $name | $gen_best | $run_best | $ratio |"
done
