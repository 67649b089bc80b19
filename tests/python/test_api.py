"""The module's documents equal the CLI's for the same inputs; results read them."""
import math

import pytest
import tessel

from conftest import GEMMINI, cli, cli_json


def test_run_equals_cli_json():
    got = tessel.run(GEMMINI, "gemm:M=64,K=96,N=80", dataflow="os", budget=500)
    want = cli_json("run", "--arch", GEMMINI, "--workload", "gemm:M=64,K=96,N=80",
                    "--dataflow", "os", "--budget", "500")
    assert got.to_dict() == want
    assert got.macs == 64 * 96 * 80  # M*K*N, one MatMul


def test_run_with_overrides_and_model_options_equals_cli_json():
    arch = tessel.load_arch(GEMMINI, overrides={"scratchpad.capacity": "64KiB",
                                                "dram.bandwidth": "4B/cycle"})
    got = tessel.run(arch, "bert-base", layers=1, seq=64, budget=300)
    want = cli_json("run", "--arch", GEMMINI, "-p", "scratchpad.capacity=64KiB",
                    "-p", "dram.bandwidth=4B/cycle", "--workload", "bert-base", "--layers", "1", "--seq", "64",
                    "--budget", "300")
    assert got.to_dict() == want
    # The overrides change the design, so its hash differs from the file's.
    assert arch.hash != tessel.load_arch(GEMMINI).hash
    assert arch.name == "gemmini-default"


def test_systemc_engine_runs_again_and_again_in_one_process():
    first = tessel.run(GEMMINI, "gemm:M=32,K=32,N=32", engine="systemc", budget=200)
    second = tessel.run(GEMMINI, "gemm:M=32,K=32,N=32", engine="systemc", budget=200)
    want = cli_json("run", "--arch", GEMMINI, "--workload", "gemm:M=32,K=32,N=32",
                    "--engine", "systemc", "--budget", "200")
    assert first.to_dict() == want
    assert second.to_dict() == want
    assert first.to_dict()["metadata"]["engine"] == "systemc"


def test_run_rows_are_the_ops():
    r = tessel.run(GEMMINI, "gemm:M=16,K=16,N=16", budget=100)
    rows = r.rows()
    assert len(rows) == len(r.ops)
    assert rows[0]["macs"] == 16 * 16 * 16
    assert "cycles_by_cause.compute" in rows[0] or any(k.startswith("cycles_by_cause.")
                                                       for k in rows[0])
    df = r.to_dataframe()
    assert list(df["macs"]) == [row["macs"] for row in rows]
    assert math.isclose(df["cycles"].sum(), sum(op["cycles"] for op in r.ops))


def test_compare_equals_cli_and_has_a_row_per_dataflow():
    got = tessel.compare(GEMMINI, ["gemm:M=64,K=64,N=64"], ["ws", "os"], budget=300)
    want = cli_json("compare", "--arch", GEMMINI, "--workloads", "gemm:M=64,K=64,N=64",
                    "--dataflows", "ws,os", "--budget", "300")
    assert got.to_dict() == want
    rows = got.rows()
    assert [(r["workload"], r["dataflow"]) for r in rows] == [
        ("gemm:M=64,K=64,N=64", "ws"), ("gemm:M=64,K=64,N=64", "os")]


def test_workload_info_counts_macs():
    # conv: N=1, K=8 filters, C=4 channels, 3x3 kernel over 10x10 -> 8x8 outputs (no pad):
    # 8*8 outputs * 8 filters * 4*3*3 MACs each = 18,432.
    info = tessel.workload("conv:N=1,C=4,K=8,H=10,W=10,R=3,S=3")
    assert sum(op["macs"] for op in info.ops) == 8 * 8 * 8 * 4 * 3 * 3


def test_validate_equals_cli_json():
    got = tessel.validate("gemm:M=8,K=16,N=8", ["int8", "bf16"])
    want = cli_json("validate", "--workload", "gemm:M=8,K=16,N=8", "--precision", "int8,bf16")
    assert got.to_dict() == want
    assert [r["format"] for r in got.rows()] == ["int8", "bf16"]
    errors = {r["format"]: r["output.error.rel_l2"] for r in got.rows()}
    assert 0 < errors["bf16"] and 0 < errors["int8"]


def test_xval_equals_cli_json():
    got = tessel.xval(GEMMINI, "gemm:M=32,K=32,N=32", budget=200)
    want = cli_json("xval", "--arch", GEMMINI, "--workload", "gemm:M=32,K=32,N=32",
                    "--budget", "200")
    assert got.to_dict() == want


def test_dataflows_lists_the_shipped_ones():
    assert {"ws", "os", "is", "rs", "nlr"} <= set(tessel.dataflows())


def test_arch_summary_is_arch_check():
    arch = tessel.load_arch(GEMMINI)
    _, out, _ = cli("arch", "check", GEMMINI)
    assert arch.summary == out
    assert repr(arch).startswith("<tessel.Arch gemmini-default")


def test_llm_serve_equals_cli_json():
    opts = dict(rate=2, requests=20, max_batch=8)
    got = tessel.serve("configs/arch/npu-3core.yaml", "tests/serve/llm/data/tiny-llama.json", **opts)
    want = cli_json("serve", "--arch", "configs/arch/npu-3core.yaml", "--workload",
                    "tests/serve/llm/data/tiny-llama.json", "--rate", "2", "--requests", "20",
                    "--max-batch", "8")
    assert got.to_dict() == want
    assert got["kind"] == "llm_serve"
    assert len(got.rows()) == len(want["points"]) == 1  # one rate, one max batch


def test_scalesim_cfg_and_topology_in_one_call_equal_cli_json():
    cfg = "tests/arch/data/scalesim/v2_scale.cfg"
    topo = "tests/models/scalesim/data/v2_alexnet.csv"
    got = tessel.run(cfg, topo, mapper="gemmini-auto", scalesim_timing=True)
    want = cli_json("run", "--arch", cfg, "--workload", topo, "--mapper", "gemmini-auto",
                    "--scalesim-timing")
    assert got.to_dict() == want
    # AlexNet conv1 on SCALE-Sim's 32x32 OS example: 224x224x3 input, 96 11x11 filters, stride
    # 4 -> ceil((224-11+4)/4) = 55 outputs a side. OS: Sr = 55*55 = 3025 pixels, Sc = 96
    # filters, T = 11*11*3 = 363; folds ceil(3025/32) * ceil(96/32) = 95 * 3 = 285, each
    # T + R + C - 2 = 425 cycles, no overlap: 285 * 425 - 1 = 121,124 (SCALE-Sim counts from 0).
    assert got.ops[0]["cycles"] == 121124
    assert tessel.load_arch(cfg).name == "scale_example_run_32x32_os"


def test_precision_returns_the_plan_the_cli_writes():
    got = tessel.precision("gemm:M=8,K=16,N=8", 0.05, to="int8")
    _, want, _ = cli("precision", "--workload", "gemm:M=8,K=16,N=8", "--tolerance", "0.05",
                     "--to", "int8", "-q")
    assert got == want
    assert "int8" in got
