#!/bin/sh
# Strata's host runtime beside the peers a user would pick instead, on the same models, in one
# run, alternating: `strata-cli run` (per-op, rules and fuse-max schedules), ONNX Runtime's CPU
# provider (../shared/bench/ort_latency.js through npm's onnxruntime-node, installed into
# ~/.cache/ortpeer on first use) and PyTorch eager
# (zoo_latency.py, for models of tests/bench/zoo_models.py). A benchmark, never a test.
#
# Usage: peer_latency.sh [-r ROUNDS] [-n REPEAT] [-c STRATA_CLI] [-S DIR] MODEL.onnx...
#   ROUNDS  rounds over all models and tools, alternating (default 3); each cell is the best
#           round's median, and the spread over rounds is printed beside it
#   REPEAT  timed runs per tool and round (default 10)
#   DIR     schedules `strata-cli search -o DIR/MODEL.json` found: a "searched" column too
# PyTorch needs Debian's python3-torch and python3-torchvision; a model that is not in the zoo
# (by file name) gets no PyTorch figure.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=3
repeat=10
cli="$root/build/default/app/cli/strata-cli"
ort_js="$root/../shared/bench/ort_latency.js"
threads=2
searched=""
while getopts r:n:c:S: opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        n) repeat=$OPTARG ;;
        c) cli=$OPTARG ;;
        S) searched=$OPTARG ;;
        *) sed -n '2,14p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
[ -x "$cli" ] || { echo "error: no strata-cli at $cli (build it, or pass -c)" >&2; exit 2; }

ort_dir=${ORT_DIR:-$HOME/.cache/ortpeer}
if [ ! -d "$ort_dir/node_modules/onnxruntime-node" ]; then
    echo "installing onnxruntime-node into $ort_dir (benchmarks only)" >&2
    mkdir -p "$ort_dir"
    (cd "$ort_dir" && npm init -y >/dev/null && npm install --ignore-scripts onnxruntime-node >/dev/null)
fi
export ORT_DIR="$ort_dir"

results=$(mktemp)
trap 'rm -f "$results"' EXIT

# One figure in ms, or "-" when the tool cannot run the model (its error goes to stderr).
strata_ms() { # MODEL STRATEGY, or MODEL --schedule FILE
    if [ "$2" = --schedule ]; then set -- "$1" --schedule "$3"; else set -- "$1" --strategy "$2"; fi
    "$cli" run "$@" --repeat "$repeat" --json -q 2>/dev/null \
        | sed -n 's/^ *"total_ns": *\([0-9.e+]*\).*/\1/p' | awk '{ printf "%.2f", $1 / 1e6 }'
}
ort_ms() { # MODEL
    node "$ort_js" "$1" "$threads" "$repeat" 2>/dev/null | sed -n 's/^median_ms=\([0-9.]*\).*/\1/p'
}
torch_ms() { # MODEL
    name=$(basename "$1" .onnx)
    (cd "$here" && /usr/bin/python3 zoo_latency.py "$name" --threads "$threads" --repeat "$repeat" 2>/dev/null) \
        | sed -n 's/^median_ms=\([0-9.]*\).*/\1/p'
}

round=1
while [ "$round" -le "$rounds" ]; do
    for model in "$@"; do
        schedule="$searched/$(basename "$model" .onnx).json"
        for tool in per-op rules fuse-max searched ort torch; do
            case $tool in
                ort) ms=$(ort_ms "$model") ;;
                torch) ms=$(torch_ms "$model") ;;
                searched)
                    [ -n "$searched" ] && [ -f "$schedule" ] || continue
                    ms=$(strata_ms "$model" --schedule "$schedule") ;;
                *) ms=$(strata_ms "$model" "$tool") ;;
            esac
            echo "$(basename "$model" .onnx) $tool ${ms:--}" >> "$results"
        done
    done
    round=$((round + 1))
done

# Per model and tool: best round's median and the range over rounds; Strata is the best of its
# schedules (three strategies, and the searched one with -S), and the ratio is Strata over ONNX
# Runtime.
awk -v rounds="$rounds" -v repeat="$repeat" '
    $3 != "-" {
        key = $1 SUBSEP $2
        if (!(key in lo) || $3 < lo[key]) lo[key] = $3
        if (!(key in hi) || $3 > hi[key]) hi[key] = $3
    }
    { if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
    function cell(m, t) { k = m SUBSEP t; return (k in lo) ? sprintf("%.2f (%.2f-%.2f)", lo[k], lo[k], hi[k]) : "-" }
    END {
        printf "%d rounds, median of %d runs each, 2 threads; ms as best round (range over rounds)\n", rounds, repeat
        printf "| model | Strata per-op | Strata rules | Strata fuse-max | Strata searched | ONNX Runtime | PyTorch | Strata / ORT |\n"
        printf "|---|---|---|---|---|---|---|---|\n"
        for (i = 0; i < n; i++) {
            m = order[i]
            best = ""
            split("per-op rules fuse-max searched", strategies, " ")
            for (t = 1; t <= 4; t++) {
                k = m SUBSEP strategies[t]
                if ((k in lo) && (best == "" || lo[k] < best)) best = lo[k]
            }
            o = m SUBSEP "ort"
            ratio = (best != "" && (o in lo)) ? sprintf("%.2fx", best / lo[o]) : "-"
            printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", m, cell(m, "per-op"), cell(m, "rules"), cell(m, "fuse-max"), cell(m, "searched"), cell(m, "ort"), cell(m, "torch"), ratio
        }
    }' "$results"
