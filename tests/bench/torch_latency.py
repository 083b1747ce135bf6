#!/usr/bin/python3
"""PyTorch CPU latency of the benchmark models, the peer figure for `strata-cli run` (issue 6).

Usage: /usr/bin/python3 tests/bench/torch_latency.py [--threads 2] [--repeat 5] [MODEL ...]
MODEL is resnet50, mobilenet_v2 or densenet121 (torchvision, random weights, batch 1, 224x224,
eval mode), as tests/bench/make_bench_models.sh exports them. Prints the median latency of
`repeat` timed runs after two warm-up runs, per model. A benchmark script only: the build and the
tests never run it.
"""
import argparse
import statistics
import time

import torch
import torchvision


def latency_ms(model, x, repeat):
    with torch.no_grad():
        for _ in range(2):
            model(x)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("models", nargs="*", default=["resnet50", "mobilenet_v2"])
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    x = torch.rand(1, 3, 224, 224)
    for name in args.models:
        model = getattr(torchvision.models, name)(weights=None).eval()
        median, times = latency_ms(model, x, args.repeat)
        print(f"{name}: median {median:.1f} ms over {args.repeat} runs on {args.threads} threads "
              f"(runs: {', '.join(f'{t:.1f}' for t in times)})")


if __name__ == "__main__":
    main()
