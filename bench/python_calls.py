#!/usr/bin/env python3
"""What a call from Python costs: `tessel.run` on a small layer (a forked worker per call)
against running the `tessel` executable for the same JSON, and a 100-point `tessel.sweep` into
a DataFrame. Run by `make bench` (PYTHONPATH=BUILD/python /usr/bin/python3 bench/python_calls.py
BUILD)."""
import os
import subprocess
import sys
import tempfile
import time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
sys.path.insert(0, os.path.join(BUILD, "python"))
import tessel  # noqa: E402

ARCH = "configs/arch/gemmini-default.yaml"
LAYER = "gemm:M=16,K=16,N=16"
CALLS = 100


def per_call(fn):
    fn()  # warm the page cache
    start = time.perf_counter()
    for _ in range(CALLS):
        fn()
    return (time.perf_counter() - start) / CALLS * 1e3


module_ms = per_call(lambda: tessel.run(ARCH, LAYER, budget=50))
cli = [os.path.join(BUILD, "apps/tessel/tessel"), "run", "--arch", ARCH, "--workload", LAYER,
       "--budget", "50", "--json", "-"]
cli_ms = per_call(lambda: subprocess.run(cli, capture_output=True, check=True))
print(f"tessel.run on {LAYER}: {module_ms:.1f} ms a call; the executable: {cli_ms:.1f} ms")

spec = {"name": "bench", "base": ARCH, "engine": "analytical",
        "mapper": {"name": "search", "budget": 300},
        "workloads": [{"name": "bert-base", "seq": 128, "layers": 1}],
        "grid": {"scratchpad.capacity": [f"{k}KiB" for k in range(16, 176, 16)],
                 "accumulator.capacity": [f"{k}KiB" for k in range(16, 176, 16)]},
        "metrics": ["cycles", "energy_pj", "area_mm2"]}
with tempfile.TemporaryDirectory() as d:
    start = time.perf_counter()
    df = tessel.sweep(spec, out_dir=os.path.join(d, "s")).to_dataframe()
    print(f"tessel.sweep, {len(df)} points (one BERT-base block each) into a DataFrame: "
          f"{time.perf_counter() - start:.2f} s")
