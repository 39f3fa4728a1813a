#!/usr/bin/python3
"""The browser page's speed against the native program's, measured in one run.

usage: /usr/bin/python3 scripts/bench_web.py [--build DIR] [--config FILE ...] [--seconds S]

For each config (default configs/quick-7x7.yaml): a fresh network of its architecture is
created and exported as a user would (veletas init-model, veletas export,
scripts/export_onnx.py); the page (DIR/web-page, in headless Chromium) measures evaluations
per second through its whole path (encoding in WebAssembly, onnxruntime-web's wasm build,
legal softmax) at batch 1, 8 and 32, twice: served by python3 -m http.server (not
cross-origin isolated: one thread) and by scripts/serve_web.py (cross-origin isolated: as
many threads as the browser reports cores, at most 8). `veletas bench nn --precisions fp32
torch` measures the native fp32 inference engine and LibTorch on the same architecture,
size and positions with 1 thread and with the page's thread count. Then the search with a zero-cost evaluator: the page's
search::BenchTree against `veletas bench search`'s first table (same positions, 800
simulations, 8 leaves per batch). Last, the page's download size (raw and gzip -9).

Needs the built page and veletas (cmake --build DIR), chromium, node and puppeteer-core in
DIR/web-test-npm (ctest installs it with the browser tests' fixture). Prints tables; exit
status 0, or 1 when a measurement fails.
"""
import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command, **kw):
    r = subprocess.run(command, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise SystemExit("bench_web: %s failed (%d):\n%s%s" % (" ".join(command), r.returncode,
                                                              r.stdout, r.stderr))
    return r.stdout


def page(build, root, scenario, args, out, server="plain"):
    run(["node", os.path.join(ROOT, "tests/web/page_driver.mjs"),
         "--puppeteer", os.path.join(build, "web-test-npm"),
         "--chromium", shutil.which("chromium") or "/usr/bin/chromium",
         "--root", root, "--scenario", scenario, "--out", out, "--args", json.dumps(args),
         "--server", server])
    with open(os.path.join(out, "result.json")) as f:
        result = json.load(f)
    if result.get("failure") or result.get("console_errors"):
        raise SystemExit("bench_web: the page failed: %s %s" % (result.get("failure"),
                                                                result.get("console_errors")))
    return result


def native_eval_rates(veletas, config, seconds, threads):
    """{(batch, precision): positions/s} of bench nn (fp32 engine, LibTorch), its header."""
    text = run([veletas, "bench", "nn", "--config", config, "--threads", str(threads),
                "--max-batch", "32", "--seconds", str(seconds), "--precisions", "fp32", "torch"])
    rates = {}
    section = text.split("\nevaluation", 1)[1].split("\ntraining", 1)[0]
    for line in section.splitlines():
        m = re.match(r"\s*(\d+)\s+(fp32|torch)\s+(\d+)\s", line)
        if m:
            rates[(int(m.group(1)), m.group(2))] = float(m.group(3))
    header = [l for l in text.splitlines() if l.startswith("network: ") and "blocks" in l]
    return rates, header[0] if header else text.splitlines()[0]


def native_tree_rates(veletas):
    text = run([veletas, "bench", "search", "--simulations", "800", "--positions", "20",
                "--leaves", "8", "--playouts", "10"])
    rates = {}
    for line in text.split("Batched", 1)[0].splitlines():
        m = re.match(r"(\d+)x\d+\s+(puct|gumbel)\s+(\d+)", line)
        if m:
            rates[(int(m.group(1)), m.group(2))] = float(m.group(3))
    return rates


def download_size(page_dir):
    raw = packed = 0
    files = 0
    for base, _, names in os.walk(page_dir):
        for name in names:
            with open(os.path.join(base, name), "rb") as f:
                data = f.read()
            raw += len(data)
            packed += len(gzip.compress(data, 9))
            files += 1
    return files, raw, packed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--config", action="append")
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    veletas = os.path.join(build, "app", "veletas")
    page_dir = os.path.join(build, "web-page")
    for need in (veletas, os.path.join(page_dir, "index.html"),
                 os.path.join(build, "web-test-npm", "node_modules", "puppeteer-core")):
        if not os.path.exists(need):
            print("bench_web: %s is missing (build, then run the browser tests once)" % need,
                  file=sys.stderr)
            return 2
    configs = args.config or [os.path.join(ROOT, "configs/quick-7x7.yaml")]
    with tempfile.TemporaryDirectory(prefix="veletas-bench-web-") as tmp:
        root = os.path.join(tmp, "root")
        os.makedirs(root)
        os.symlink(page_dir, os.path.join(root, "page"))
        for config in configs:
            model = os.path.join(root, "model")
            if os.path.lexists(model):
                shutil.rmtree(model)
            run([veletas, "init-model", "--config", config, "--out", os.path.join(tmp, "g0.ckpt")])
            run([veletas, "export", "--model", os.path.join(tmp, "g0.ckpt"), "--out", model])
            run(["/usr/bin/python3", os.path.join(ROOT, "scripts/export_onnx.py"), model])
            bench = {"batches": [1, 8, 32], "seconds": args.seconds}
            for server in ("plain", "isolated"):
                web = page(build, root, "bench", bench, os.path.join(tmp, "out"), server)
                threads = web["engine"]["threads"]
                if (server == "isolated") != bool(web["engine"]["isolated"]):
                    raise SystemExit("bench_web: served %s, the page says: %s"
                                     % (server, web["engine"]["status"]))
                native, header = native_eval_rates(veletas, config, args.seconds, threads)
                print("%s: %s" % (os.path.relpath(config, ROOT), header))
                print("  page: %s, onnxruntime-web (wasm), %s; native: %d thread(s)"
                      % (web.get("user_agent", "?"), web["engine"]["status"], threads))
                print("  %6s %8s %14s %14s %14s %10s %10s" % (
                    "batch", "threads", "page evals/s", "fp32 evals/s", "torch evals/s",
                    "page/fp32", "page/torch"))
                for e in web["evals"]:
                    b, p = e["batch"], e["positions_per_second"]
                    f = native.get((b, "fp32"), float("nan"))
                    t = native.get((b, "torch"), float("nan"))
                    print("  %6d %8d %14.0f %14.0f %14.0f %10.2f %10.2f" % (
                        b, threads, p, f, t, p / f, p / t))
        tree = [{"rules": "standard", "size": s, "algorithm": a, "simulations": 800,
                 "positions": 20, "leaves": 8} for s in (7, 10) for a in ("puct", "gumbel")]
        web = page(build, root, "bench", {"batches": [], "tree": tree}, os.path.join(tmp, "out"))
        native = native_tree_rates(veletas)
        print("\nsearch with a zero-cost evaluator (search::BenchTree: 800 simulations, "
              "8 leaves per batch, 20 positions)")
        print("  %-8s %-8s %14s %14s %8s" % ("size", "mode", "page sims/s", "native sims/s",
                                              "ratio"))
        for t in web["tree"]:
            n = native.get((t["size"], t["algorithm"]), float("nan"))
            print("  %-8s %-8s %14.0f %14.0f %8.2f" % ("%dx%d" % (t["size"], t["size"]),
                                                       t["algorithm"], t["sims_per_second"], n,
                                                       t["sims_per_second"] / n))
    files, raw, packed = download_size(page_dir)
    print("\npage download (%s, %d files): %.2f MB, %.2f MB with gzip -9 (a model comes on top)"
          % (os.path.relpath(page_dir, ROOT), files, raw / 1e6, packed / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
