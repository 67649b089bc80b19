#!/usr/bin/env python3
"""Five dataflows on an Eyeriss-like design, side by side, for two layers of ResNet-50 and a
transformer matmul: which one each layer prefers and by how much.

    PYTHONPATH=build/python /usr/bin/python3 examples/compare_dataflows.py
"""
import argparse

import tessel

LAYERS = [
    "conv:N=1,H=56,W=56,C=64,K=64,R=3,S=3,stride=1,pad=1",   # ResNet-50 conv2_x 3x3
    "conv:N=1,H=14,W=14,C=256,K=1024,R=1,S=1",              # ResNet-50 conv4_x 1x1 expand
    "gemm:M=128,K=768,N=768",                                # BERT-base projection, seq 128
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="also write the table as CSV here (a folder)")
    args = parser.parse_args()

    result = tessel.compare("configs/arch/eyeriss-like.yaml", LAYERS,
                            ["ws", "os", "is", "rs", "nlr"], budget=1000)
    df = result.to_dataframe()
    ok = df[df["ok"]]
    table = ok.pivot(index="workload", columns="dataflow", values="cycles")
    energy = ok.pivot(index="workload", columns="dataflow", values="energy_pj") / 1e6
    print("cycles (thousands):")
    print((table / 1e3).round(1).to_string())
    print("\nenergy (µJ):")
    print(energy.round(1).to_string())
    print("\nbest by latency:", ", ".join(f"{w.split(',')[0]}…→{table.loc[w].idxmin()}"
                                         for w in table.index))
    if args.out:
        import os
        os.makedirs(args.out, exist_ok=True)
        df.to_csv(os.path.join(args.out, "compare.csv"), index=False)
    assert len(ok) >= len(LAYERS)  # each layer runs under at least one dataflow


if __name__ == "__main__":
    main()
