#!/usr/bin/python3
"""PyTorch eager CPU latency of one zoo model (tests/bench/zoo_models.py), the peer figure that
peer_latency.sh prints beside `strata-cli run` and ONNX Runtime.

Usage: /usr/bin/python3 tests/bench/zoo_latency.py NAME [--threads 2] [--repeat 10]
Builds the model as zoo_models.py exports it (same seed, same example inputs, batch as in its
name), runs two warm-up runs, then prints `median_ms=X min_ms=Y` over `repeat` timed runs.
A benchmark script only: the build and the tests never run it.
"""
import argparse
import statistics
import sys
import time

import torch

import zoo_models


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("name", choices=sorted(zoo_models.ZOO))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    build_model, build_inputs = zoo_models.ZOO[args.name]
    torch.manual_seed(zoo_models.SEED)
    model = build_model().eval()
    example, _ = build_inputs()
    inputs = example if isinstance(example, tuple) else (example,)
    times = []
    with torch.inference_mode():
        for i in range(2 + args.repeat):
            start = time.perf_counter()
            model(*inputs)
            if i >= 2:
                times.append((time.perf_counter() - start) * 1e3)
    print(f"median_ms={statistics.median(times):.2f} min_ms={min(times):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
