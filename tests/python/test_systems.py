"""Systems of chips from Python: the documents equal the CLI's, the results read them."""
import os

import pytest
import tessel

from conftest import cli_json

SOURCE = os.environ.get("TESSEL_SOURCE_DIR", ".")
POD = os.path.join(SOURCE, "configs", "systems", "tpu-v4-pod-64.yaml")
EIGHT = os.path.join(SOURCE, "configs", "systems", "tpu-v4-8.yaml")


def test_collective_equals_cli_json():
    got = tessel.collective(POD, "all-gather", "1MiB", group=16)
    want = cli_json("collective", "--system", POD, "--op", "all-gather", "--bytes", "1MiB",
                    "--group", "16")
    assert got.to_dict() == want
    assert got["group"] == 16 and got["seconds"] > 0
    curve = tessel.collective(POD, bytes="64KiB..1MiB")
    assert [p["bytes"] for p in curve.rows()] == [65536, 131072, 262144, 524288, 1048576]


def test_system_run_equals_cli_json():
    got = tessel.run(None, "llama-3.2-1b", system=EIGHT, tp=8, phase="decode", seq=128,
                     layers=2, budget=300)
    want = cli_json("run", "--system", EIGHT, "--workload", "llama-3.2-1b", "--tp", "8",
                    "--phase", "decode", "--seq", "128", "--layers", "2", "--budget", "300",
                    "--top", "0")
    assert got.to_dict() == want
    assert isinstance(got, tessel.SystemRunResult)
    assert got.latency_seconds == pytest.approx(
        got["compute_seconds"] + got["communication_seconds"] + got["pipeline_seconds"])
    assert got.chip.seconds == pytest.approx(got["compute_seconds"])
    assert {r["op"] for r in got.rows()} == {"all-reduce", "all-gather"}


def test_a_run_wants_one_of_arch_and_system():
    with pytest.raises(tessel.UsageError):
        tessel.run(None, "llama-3.2-1b")
    with pytest.raises(tessel.ConfigError) as e:
        tessel.run(None, "llama-3.2-1b", system=EIGHT, tp=3)
    assert "tp 3 does not divide" in str(e.value)
