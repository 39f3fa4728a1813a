#!/usr/bin/env python3
"""Start-up time of the veletas commands that need no network (issue 47's fast start).

usage: scripts/bench_start.py [--runs N] [--bin DIR]

Runs each command N times (default 10) as a whole process and prints the median, minimum
and maximum wall time in milliseconds: `veletas moves`, `veletas config --check`, `veletas
help` (the front, without LibTorch), and for comparison `veletas-full moves` (the whole app,
which loads LibTorch and oneDNN). DIR is the folder of the executables (default: build/app
of this source tree). Run it on an idle machine; the figures go into docs/RESULTS.md.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(argv, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000.0)
        if done.returncode != 0:
            sys.exit("bench_start: %s exited with %d" % (" ".join(argv), done.returncode))
    return statistics.median(times), min(times), max(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "app"))
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("bench_start: --runs must be at least 1")
    front = os.path.join(args.bin, "veletas")
    full = os.path.join(args.bin, "veletas-full")
    config = os.path.join(ROOT, "configs", "quick-7x7.yaml")
    cases = [
        ("veletas moves --size 7 --count d4/a1", [front, "moves", "--size", "7", "--count", "d4/a1"]),
        ("veletas config --check quick-7x7.yaml", [front, "config", "--check", config]),
        ("veletas help", [front, "help"]),
        ("veletas-full moves --size 7 --count d4/a1",
         [full, "moves", "--size", "7", "--count", "d4/a1"]),
    ]
    print("start-up, %d runs each (ms): median  min  max" % args.runs)
    for name, argv in cases:
        median, low, high = measure(argv, args.runs)
        print("  %-44s %7.1f %7.1f %7.1f" % (name, median, low, high))


if __name__ == "__main__":
    main()
