#!/usr/bin/env python3
"""A notebook-style design-space sweep: 100 scratchpad x accumulator points of a Gemmini-like
design on one BERT-base encoder block (seq 128), into a pandas DataFrame, and the
latency-energy-area Pareto front plotted with matplotlib.

    PYTHONPATH=build/python /usr/bin/python3 examples/sweep_pareto.py --out out/pareto
"""
import argparse
import os

import matplotlib
matplotlib.use("Agg")  # files, no display
import matplotlib.pyplot as plt

import tessel

SIZES_KIB = [8, 16, 32, 48, 64, 96, 128, 192, 256, 512]


def pareto(df, columns):
    """Rows no other row beats (<=) on every column and strictly on one."""
    values = df[columns].to_numpy()
    keep = []
    for i, row in enumerate(values):
        dominated = ((values <= row).all(axis=1) & (values < row).any(axis=1)).any()
        keep.append(not dominated)
    return df[keep]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="out/pareto", help="folder for the sweep and the plot")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    arch = tessel.load_arch("configs/arch/gemmini-default.yaml")
    spec = {
        "name": "sram-pareto",
        "base": arch,
        "engine": "analytical",
        "mapper": {"name": "search", "budget": 300},
        "workloads": [{"name": "bert-base", "seq": 128, "layers": 1}],
        "grid": {"scratchpad.capacity": [f"{k}KiB" for k in SIZES_KIB],
                 "accumulator.capacity": [f"{k}KiB" for k in SIZES_KIB]},
        "metrics": ["cycles", "energy_pj", "area_mm2"],
        "pareto": ["cycles", "energy_pj", "area_mm2"],
    }
    sweep_dir = os.path.join(args.out, "sweep")
    result = tessel.sweep(spec, out_dir=sweep_dir, resume=os.path.exists(sweep_dir))
    df = result.to_dataframe()
    ok = df[df["status"] == "ok"].copy()
    ok["latency_us"] = ok["cycles"] / 1e3  # the design's 1 GHz clock
    ok["energy_uj"] = ok["energy_pj"] / 1e6
    front = pareto(ok, ["latency_us", "energy_uj", "area_mm2"]).sort_values("area_mm2")

    fig, ax = plt.subplots(figsize=(6, 4))
    sc = ax.scatter(ok["area_mm2"], ok["energy_uj"], c=ok["latency_us"], s=14, cmap="viridis")
    ax.plot(front["area_mm2"], front["energy_uj"], "r.-", label="Pareto (latency, energy, area)")
    ax.set_xlabel("area (mm²)")
    ax.set_ylabel("energy (µJ)")
    ax.set_title("one BERT-base encoder block on Gemmini: scratchpad × accumulator")
    fig.colorbar(sc, label="latency (µs)")
    ax.legend()
    fig.tight_layout()
    plot = os.path.join(args.out, "pareto.png")
    fig.savefig(plot, dpi=120)

    print(f"{len(df)} points ({len(ok)} ok), {len(front)} on the Pareto front; plot: {plot}")
    columns = ["scratchpad.capacity", "accumulator.capacity", "latency_us", "energy_uj",
               "area_mm2"]
    print(front[columns].to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    assert len(df) == len(SIZES_KIB) ** 2


if __name__ == "__main__":
    main()
