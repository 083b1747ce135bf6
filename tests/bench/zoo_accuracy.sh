#!/bin/sh
# Issue 20's accuracy round over a folder of models (the zoo, docs/ZOO.md): calibrates each
# strata-cli given into its own scratch config folder, then runs `strata-cli accuracy` model by
# model, alternating the binaries per model (a slow spell of the machine falls on both), and
# summarises with accuracy_summary.py. Two binaries make an A/B comparison; one is a plain round.
# A benchmark, never a test: run it on a quiet machine, with nothing else of yours running.
#
# Usage: zoo_accuracy.sh [-n REPEAT] [-m "NAME..."] OUTDIR ZOODIR STRATA_CLI [STRATA_CLI2]
#   REPEAT  accuracy's --repeat (default 5)
#   NAME    models of ZOODIR to run, by file name without .onnx (default: every *.onnx)
# Writes OUTDIR/<arm>/MODEL.json and MODEL.csv (accuracy's --json and --events) and
# OUTDIR/<arm>/xdg (the calibration), <arm> = 0 for the first binary and 1 for the second.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repeat=5
names=""
while getopts n:m: opt; do
    case $opt in
        n) repeat=$OPTARG ;;
        m) names=$OPTARG ;;
        *) sed -n '2,12p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
out=$1
zoo=$2
shift 2
[ -n "$names" ] || names=$(cd "$zoo" && ls *.onnx | sed 's/\.onnx$//')

arm=0
for cli in "$@"; do
    [ -x "$cli" ] || { echo "error: no strata-cli at $cli" >&2; exit 2; }
    mkdir -p "$out/$arm/xdg"
    XDG_CONFIG_HOME="$out/$arm/xdg" "$cli" calibrate -q >"$out/$arm/calibrate.txt"
    arm=$((arm + 1))
done

for name in $names; do
    arm=0
    for cli in "$@"; do
        XDG_CONFIG_HOME="$out/$arm/xdg" "$cli" accuracy "$zoo/$name.onnx" --repeat "$repeat" \
            --json -q --events "$out/$arm/$name.csv" >"$out/$arm/$name.json" ||
            echo "warning: $name failed with $cli (see $out/$arm/$name.json)" >&2
        arm=$((arm + 1))
    done
done

arm=0
for cli in "$@"; do
    echo "== $cli"
    /usr/bin/python3 "$here/accuracy_summary.py" "$out/$arm"
    arm=$((arm + 1))
done
