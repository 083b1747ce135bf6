#!/usr/bin/python3
"""Summarises a folder of `strata-cli accuracy --json` outputs (MODEL.json, with MODEL.csv from
--events beside them when present) against issue 20's targets: per model the end-to-end errors
of its schedules, the Spearman rank correlation and the per-transfer medians; then how many
models meet each target, and the pooled per-transfer median over every transfer of every model.
Where the machine's speed against calibration's was measured (the speed check), the same
end-to-end figures "at speed": each prediction with its computes at that speed, what is left once
the machine's change of speed is taken out.
Usage: accuracy_summary.py DIR [DIR...]   (a benchmark helper, never a test)"""
import csv
import glob
import json
import os
import statistics
import sys

WITHIN = 0.15       # end to end, every schedule
SPEARMAN = 0.9      # over the model's schedules
TRANSFER = 0.20     # per-transfer median |error|, every schedule


def schedules_of(path):
    with open(path) as f:
        doc = json.load(f)
    for model in doc.get("models", []):
        yield model, [s for s in model["schedules"] if "error" in s]


def pooled_transfer_errors(csv_path):
    errors = []
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            if row["kind"] not in ("load", "store"):
                continue
            measured = float(row["measured_ns"] or 0)
            if measured > 0:
                errors.append(abs(float(row["emulated_ns"]) / measured - 1))
    return errors


def summarise(folder):
    rows, pooled = [], []
    emulated_sum = measured_sum = 0.0
    by_mp, at_speed_by_mp = {}, {}
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        try:
            models = list(schedules_of(path))
        except (OSError, ValueError) as e:
            print(f"  {os.path.basename(path)}: unreadable ({e})")
            continue
        for model, scheds in models:
            if not scheds:
                print(f"  {os.path.basename(path)}: no schedule ran")
                continue
            errs = [s["error"] for s in scheds]
            tmed = [s["transfer_median_abs_error"] for s in scheds if s["transfers"]]
            rho = model.get("spearman")
            at_speed = [s.get("error_at_speed") for s in scheds]
            at_speed = at_speed if all(e is not None for e in at_speed) else None
            speeds = {sp["cores"]: sp["ratio"] for sp in model.get("speed") or []}
            rows.append((os.path.basename(path)[:-5], min(errs), max(errs), rho,
                         max(tmed) if tmed else 0.0, statistics.median(tmed) if tmed else 0.0,
                         model.get("uneven_cores", False), at_speed, speeds))
            for s in scheds:
                emulated_sum += s["emulated_ns"]
                measured_sum += s["measured_ns"]
                by_mp.setdefault(s["mp"], []).append(s["error"])
                if s.get("error_at_speed") is not None:
                    at_speed_by_mp.setdefault(s["mp"], []).append(s["error_at_speed"])
        events = path[:-5] + ".csv"
        if os.path.exists(events):
            pooled += pooled_transfer_errors(events)
    print(f"{'model':<28} {'error min..max':>16} {'spearman':>9} {'xfer med (worst/median)':>24}"
          f" {'at speed min..max':>18} {'speed':>11}")
    for name, lo, hi, rho, tworst, tmid, uneven, at_speed, speeds in rows:
        rho_text = "-" if rho is None else f"{rho:.2f}"
        flag = "  (uneven cores)" if uneven else ""
        speed_text = (f"{min(at_speed):+7.2f}..{max(at_speed):+6.2f}" if at_speed else "-")
        speed_of = "/".join(f"{speeds[c]:.2f}" for c in sorted(speeds)) or "-"
        print(f"{name:<28} {lo:+7.2f}..{hi:+6.2f} {rho_text:>9} {tworst:>12.2f} / {tmid:.2f}"
              f" {speed_text:>18} {speed_of:>11}{flag}")
    n = len(rows)
    within = sum(1 for r in rows if max(abs(r[1]), abs(r[2])) <= WITHIN)
    ranked = sum(1 for r in rows if r[3] is not None and r[3] >= SPEARMAN)
    transfers = sum(1 for r in rows if r[4] <= TRANSFER)
    print(f"models {n}: within {WITHIN:.0%} on every schedule {within}; Spearman >= {SPEARMAN} "
          f"{ranked}; per-transfer median <= {TRANSFER:.0%} on every schedule {transfers}")
    with_speed = [r for r in rows if r[7]]
    if with_speed:
        at = sum(1 for r in with_speed if max(abs(e) for e in r[7]) <= WITHIN)
        print(f"at speed: within {WITHIN:.0%} on every schedule {at} of {len(with_speed)} models")
    if rows:
        print(f"median of models' per-transfer medians {statistics.median(r[5] for r in rows):.3f}")
    if pooled:
        print(f"pooled per-transfer median |error| {statistics.median(pooled):.3f} "
              f"over {len(pooled)} transfers")
    if measured_sum:
        print(f"total: emulated / measured - 1 = {emulated_sum / measured_sum - 1:+.3f}, "
              f"measured {measured_sum / 1e9:.2f} s")
    for mp in sorted(by_mp):
        e = by_mp[mp]
        print(f"mp {mp}: median error {statistics.median(e):+.3f}, "
              f"within 15% {sum(1 for x in e if abs(x) <= WITHIN)} of {len(e)}")
    for mp in sorted(at_speed_by_mp):
        e = at_speed_by_mp[mp]
        print(f"mp {mp} at speed: median error {statistics.median(e):+.3f}, "
              f"within 15% {sum(1 for x in e if abs(x) <= WITHIN)} of {len(e)}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    for d in sys.argv[1:]:
        if len(sys.argv) > 2:
            print(f"== {d}")
        summarise(d)
