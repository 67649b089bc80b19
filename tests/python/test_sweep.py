"""tessel.sweep: one record per point, the same as `tessel sweep` writes."""
import json
import os

import pytest
import tessel

from conftest import GEMMINI, cli

SPEC = {
    "name": "py-sweep",
    "base": GEMMINI,
    "engine": "analytical",
    "mapper": {"name": "search", "budget": 200},
    "workloads": [{"name": "gemm:M=64,K=128,N=64"}],
    "grid": {"scratchpad.capacity": ["32KiB", "64KiB", "128KiB"],
             "accumulator.capacity": ["16KiB", "64KiB"]},
    "metrics": ["cycles", "energy_pj", "area_mm2"],
    "pareto": ["cycles", "energy_pj"],
}


def test_dict_spec_gives_one_record_per_point_like_the_cli(tmp_path):
    got = tessel.sweep(SPEC, out_dir=str(tmp_path / "py"))
    assert len(got) == 3 * 2
    assert [r["index"] for r in got] == list(range(6))
    assert all(r["status"] == "ok" for r in got)
    # The CLI on the same spec (as a file) writes the same records.
    spec_file = tmp_path / "spec.yaml"
    spec = dict(SPEC, base=os.path.abspath(GEMMINI))
    spec_file.write_text(json.dumps(spec))
    cli("sweep", str(spec_file), "-o", str(tmp_path / "cli"), "-q")
    with open(tmp_path / "cli" / "results.jsonl") as f:
        want = sorted((json.loads(l) for l in f if l.strip()), key=lambda r: r["index"])
    assert got.records == want


def test_dataframe_has_parameters_and_metrics_as_columns(tmp_path):
    got = tessel.sweep(SPEC, out_dir=str(tmp_path / "s"))
    df = got.to_dataframe()
    assert len(df) == 6
    for column in ("scratchpad.capacity", "accumulator.capacity", "cycles", "energy_pj",
                   "area_mm2", "status"):
        assert column in df.columns
    # A larger scratchpad costs silicon: area grows with it at a fixed accumulator.
    at16 = df[df["accumulator.capacity"] == "16KiB"].sort_values("area_mm2")
    assert list(at16["scratchpad.capacity"]) == ["32KiB", "64KiB", "128KiB"]


def test_arch_with_overrides_as_base_pins_its_keys(tmp_path):
    arch = tessel.load_arch(GEMMINI, overrides={"dram.bandwidth": "4B/cycle"})
    spec = dict(SPEC, base=arch, grid={"scratchpad.capacity": ["32KiB", "64KiB"]})
    got = tessel.sweep(spec, out_dir=str(tmp_path / "a"))
    assert [r["params"]["dram.bandwidth"] for r in got] == ["4B/cycle", "4B/cycle"]


def test_a_failing_point_is_a_record_with_its_reason(tmp_path):
    spec = dict(SPEC, grid={"scratchpad.capacity": ["64KiB", "0KiB"]})
    got = tessel.sweep(spec, out_dir=str(tmp_path / "f"))
    assert [r["status"] for r in got] == ["ok", "failed"]
    assert "greater than zero" in got.rows()[1]["error"]
    assert got.rows()[1]["error_kind"] == "config"


def test_bad_spec_is_located(tmp_path):
    spec = dict(SPEC, grdi={"scratchpad.capacity": ["64KiB"]})
    with pytest.raises(tessel.ConfigError) as e:
        tessel.sweep(spec, out_dir=str(tmp_path / "b"))
    assert "grdi" in str(e.value) and e.value.line > 0
