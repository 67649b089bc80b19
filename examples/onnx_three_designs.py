#!/usr/bin/env python3
"""One ONNX model (torchvision's MobileNetV2, weights stripped) on three shipped designs:
latency, energy, DRAM traffic, area, and where the time goes by op class.

    PYTHONPATH=build/python /usr/bin/python3 examples/onnx_three_designs.py
"""
import argparse

import pandas as pd

import tessel

MODEL = "tests/models/data/onnx/mobilenet_v2.onnx"
DESIGNS = ["gemmini-default", "eyeriss-like", "tpu-v1-like"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="also write the tables as CSV here (a folder)")
    args = parser.parse_args()

    rows, classes = [], {}
    for name in DESIGNS:
        r = tessel.run(f"configs/arch/{name}.yaml", MODEL, budget=1000)
        rows.append({"design": name, "ms": r.seconds * 1e3, "mJ": r.energy_pj / 1e9,
                     "DRAM MiB": r.dram_bytes / 2**20, "area mm²": r.area_mm2,
                     "utilization": r.utilization, "MACs": r.macs})
        ops = r.to_dataframe()
        classes[name] = ops.groupby("class")["cycles"].sum() / ops["cycles"].sum()
    summary = pd.DataFrame(rows).set_index("design")
    print(summary.to_string(float_format=lambda v: f"{v:.4g}"))
    print("\nshare of cycles by op class:")
    print(pd.DataFrame(classes).fillna(0).round(3).to_string())
    # Every design runs the same graph: the same MACs (300,774,272, torch's own count).
    assert summary["MACs"].nunique() == 1
    if args.out:
        import os
        os.makedirs(args.out, exist_ok=True)
        summary.to_csv(os.path.join(args.out, "designs.csv"))


if __name__ == "__main__":
    main()
