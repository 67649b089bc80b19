"""Sparse operands from Python: `sparsity=` is the CLI's --sparsity; the documents are equal."""
import os

import tessel

from conftest import cli_json

SOURCE = os.environ.get("TESSEL_SOURCE_DIR", ".")
GEMMINI = os.path.join(SOURCE, "configs", "arch", "gemmini-default.yaml")
TWO_FOUR = {"sparsity.structured": "[2:4]", "sparsity.formats.dram.weights": "nm_indices"}


def test_two_four_run_equals_cli_json():
    got = tessel.run(GEMMINI, "gemm:M=256,N=256,K=256", sparsity="weights=2:4",
                     overrides=TWO_FOUR, budget=500)
    want = cli_json("run", "--arch", GEMMINI, "-p", "sparsity.structured=[2:4]", "-p",
                    "sparsity.formats.dram.weights=nm_indices", "--workload",
                    "gemm:M=256,N=256,K=256", "--sparsity", "weights=2:4", "--budget", "500",
                    "--top", "0")
    assert got.to_dict() == want
    # 256^3 MACs, half of them performed on a datapath that runs 2:4.
    assert got["totals"]["sparsity"]["effective_macs"] == 256 ** 3 / 2
    dense = tessel.run(GEMMINI, "gemm:M=256,N=256,K=256", overrides=TWO_FOUR, budget=500)
    assert "sparsity" not in dense["totals"]
    assert got["totals"]["cycles"] < dense["totals"]["cycles"]
