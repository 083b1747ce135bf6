#!/bin/sh
# How reproducible one calibration is (docs/CALIBRATION.md, "How far calibrations spread"):
# runs `strata-cli calibrate` N times in a row, each into its own scratch config folder, and
# prints every fitted figure's min / median / max and (max - min) / median; with models, also
# each model's emulated total (`emulate --target host` on every calibration, `rules` schedules at
# mp 1 and 2, made once on host-uncalibrated so only the figures differ) and how far it moves.
# A benchmark, never a test: run it on a quiet machine, at normal priority.
#
# Usage: calibration_spread.sh [-n RUNS] [-c STRATA_CLI] [-k] [MODEL.onnx...]
#   RUNS  calibrations (default 6)
#   -k    keep the scratch folders (printed) for a closer look
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=6
keep=0
cli="$root/build/ci/app/cli/strata-cli"
while getopts n:c:k opt; do
    case $opt in
        n) runs=$OPTARG ;;
        c) cli=$OPTARG ;;
        k) keep=1 ;;
        *) sed -n '2,12p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ -x "$cli" ] || { echo "error: no strata-cli at $cli (build it, or pass -c)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-calspread.XXXXXX")
[ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT
export STRATA_NO_CALIBRATE=1

for m in "$@"; do
    name=$(basename "$m" .onnx)
    for mp in 1 2; do
        "$cli" schedule "$m" -q -t host-uncalibrated -s rules --mp "$mp" -o "$work/$name.mp$mp.json" >/dev/null
    done
done

i=1
while [ "$i" -le "$runs" ]; do
    start=$(date +%s.%N)
    XDG_CONFIG_HOME="$work/cal$i" "$cli" calibrate -q --json >"$work/report$i.json"
    end=$(date +%s.%N)
    # The share of the CPUs other work took while it measured (calibrate's own figure; a run
    # far above 0 was disturbed and is worth repeating).
    others=$(python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get("other_load"); print("?" if v is None else "%.0f%%" % (100 * v))' "$work/report$i.json")
    echo "calibration $i: $(echo "$end - $start" | bc) s, load $(cut -d' ' -f1-3 /proc/loadavg), other work $others" >&2
    for m in "$@"; do
        name=$(basename "$m" .onnx)
        for mp in 1 2; do
            total=$(XDG_CONFIG_HOME="$work/cal$i" "$cli" emulate "$m" -q -t host --schedule "$work/$name.mp$mp.json" \
                --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_ns"])')
            echo "$name rules/mp$mp $total" >>"$work/cal$i/totals.txt"
        done
    done
    i=$((i + 1))
done

python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
figures, totals = {}, {}
for i in range(1, runs + 1):
    target = json.load(open(f"{work}/cal{i}/strata/host.calibrated.json"))
    compute = target["compute"]
    for k, v in compute["throughput_per_cycle"].items():
        figures.setdefault("throughput " + k, []).append(v)
    for k, v in compute["overhead_cycles"].items():
        figures.setdefault("overhead " + k, []).append(v)
    for r in target["resources"]:
        figures.setdefault(r["name"] + " bytes_per_cycle", []).append(r["bytes_per_cycle"])
    for p in target["paths"]:
        for f in ("latency_cycles", "row_overhead_cycles", "bytes_per_cycle"):
            if f in p:
                figures.setdefault(f"{p['name']} {f}", []).append(p[f])
        for kind in ("weight_reads", "cached_reads"):
            for f, v in p.get(kind, {}).items():
                figures.setdefault(f"{p['name']} {kind} {f}", []).append(v)
    try:
        for line in open(f"{work}/cal{i}/totals.txt"):
            model, schedule, ns = line.split()
            totals.setdefault(f"{model} {schedule}", []).append(float(ns) / 1e6)
    except FileNotFoundError:
        pass

def table(title, rows):
    print(f"| {title} | n | min | median | max | (max-min)/median |")
    print("|---|---|---|---|---|---|")
    for name, values in rows.items():
        mid = statistics.median(values)
        spread = (max(values) - min(values)) / mid if mid else float("nan")
        print(f"| {name} | {len(values)} | {min(values):.4g} | {mid:.4g} | {max(values):.4g} | {100 * spread:.1f}% |")

table("figure", figures)
if totals:
    print()
    table("emulated total (ms)", totals)
PY
[ "$keep" = 0 ] || echo "kept: $work" >&2
