#!/usr/bin/python3
"""Prices a zoo round's measured events again with another build of the emulator, without running
any model: every schedule of the round's mp is emulated with STRATA_CLI and CALDIR's calibration,
its transfers joined by event id with the round's per-event measured medians (`accuracy --events`
CSVs), and compared: per schedule the per-transfer median |error| and the end-to-end error against
the round's measured total. Two
builds on the same round and calibration differ only in what they predict, so an emulator change
can be judged on every recorded model in a minute or two; a change to what calibration measures
still needs new rounds. A benchmark helper, never a test.
Usage: reemulate.py STRATA_CLI CALDIR ROUNDDIR OUTDIR
  CALDIR: holds xdg/strata/host.calibrated.json (XDG_CONFIG_HOME=CALDIR/xdg)
  ROUNDDIR: MODEL.json and MODEL.csv from `strata-cli accuracy MODEL --json --events MODEL.csv`
  ZOO (environment, default /tmp/zoo): the folder of the round's MODEL.onnx files
  MP (environment, default 2): the round's mp compared, the one `strata-cli emulate` schedules
    for (every core of the host: 2 on a 2-core machine)"""
import csv
import glob
import json
import os
import statistics
import subprocess
import sys

MP = os.environ.get("MP", "2")


def measured_events(csv_path):
    by_strategy = {}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            if row["mp"] == MP:
                by_strategy.setdefault(row["strategy"], {})[row["id"]] = row
    return by_strategy


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    cli, caldir, rounddir, outdir = sys.argv[1:]
    zoo = os.environ.get("ZOO", "/tmp/zoo")
    os.makedirs(outdir, exist_ok=True)
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(caldir, "xdg"), STRATA_NO_CALIBRATE="1")
    rows = []
    for csv_path in sorted(glob.glob(os.path.join(rounddir, "*.csv"))):
        model = os.path.basename(csv_path)[:-4]
        with open(csv_path[:-4] + ".json") as f:
            schedules = json.load(f)["models"][0]["schedules"]
        totals = {(s["strategy"], str(s["mp"])): s["measured_ns"]
                  for s in schedules if "measured_ns" in s}
        for strategy, measured in measured_events(csv_path).items():
            out = os.path.join(outdir, f"{model}-{strategy}.csv")
            command = [cli, "emulate", os.path.join(zoo, model + ".onnx"), "-t", "host",
                       "-s", strategy, "-q", "--csv", out, "--json"]
            run = subprocess.run(command, env=env, capture_output=True, text=True)
            if run.returncode:
                print(f"{model} {strategy}: emulate failed: {run.stderr.strip()[:200]}")
                continue
            total = json.loads(run.stdout)["total_ns"]
            errors = []
            with open(out) as f:
                for event in csv.DictReader(f):
                    m = measured.get(event["id"])
                    if m and m["kind"] in ("load", "store"):
                        ratio = float(event["duration_ns"]) / float(m["measured_ns"])
                        errors.append(abs(ratio - 1))
            measured_total = totals.get((strategy, MP))
            rows.append({"model": model, "strategy": strategy,
                         "transfer_median_abs_error": statistics.median(errors) if errors else None,
                         "error": total / measured_total - 1 if measured_total else None})
    with open(os.path.join(outdir, "summary.json"), "w") as f:
        json.dump(rows, f, indent=1)
    transfer = [r["transfer_median_abs_error"] for r in rows
                if r["transfer_median_abs_error"] is not None]
    total = [r["error"] for r in rows if r["error"] is not None]
    print(f"{len(rows)} schedules (mp {MP}): per-transfer median |error|, median over schedules "
          f"{statistics.median(transfer):.3f}, "
          f"schedules within 20%: {sum(e <= 0.2 for e in transfer)}; "
          f"end to end, median {statistics.median(total):+.3f}, "
          f"within 15%: {sum(abs(e) <= 0.15 for e in total)}")


if __name__ == "__main__":
    main()
