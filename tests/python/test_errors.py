"""The CLI's errors, as exceptions carrying where in the user's file they are."""
import pytest
import tessel

from conftest import GEMMINI, cli


def test_bad_yaml_value_is_located(tmp_path):
    design = tmp_path / "bad.yaml"
    text = open(GEMMINI).read().replace("capacity: 256 KiB", "capacity: 256 KiBB", 1)
    assert text != open(GEMMINI).read()
    design.write_text(text)
    with pytest.raises(tessel.ConfigError) as e:
        tessel.load_arch(str(design))
    err = e.value
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "256 KiBB" in l)
    assert (err.file, err.line) == (str(design), line)
    assert err.column > 0 and err.yaml_path.endswith("capacity")
    assert err.exit_code == 2
    # The CLI says the same thing.
    code, _, stderr = cli("arch", "check", str(design), check=False)
    assert code == 2 and str(err) in stderr


def test_bad_override_names_the_key():
    with pytest.raises(tessel.ConfigError) as e:
        tessel.load_arch(GEMMINI, overrides={"scratchpad.capacty": "64KiB"})
    assert "capacty" in str(e.value)
    assert "did you mean" in str(e.value)


def test_unknown_workload_is_a_config_error():
    with pytest.raises(tessel.ConfigError) as e:
        tessel.run(GEMMINI, "gtp2")
    assert "gtp2" in e.value.message


def test_unknown_option_is_a_usage_error():
    with pytest.raises(tessel.UsageError) as e:
        tessel.run(GEMMINI, "gemm:M=8,K=8,N=8", sqe=5)
    assert "--sqe" in str(e.value)
    assert isinstance(e.value, TypeError)


def test_reserved_option_is_refused():
    with pytest.raises(tessel.UsageError):
        tessel.run(GEMMINI, "gemm:M=8,K=8,N=8", json="x.json")


def test_infeasible_design_raises_infeasible():
    # 512x512 INT8 weights and inputs and a 512x512 output: 768 KiB live in DRAM at once; a
    # 1 KiB DRAM holds none of it (the CLI exits 3 and says so).
    code, _, stderr = cli("run", "--arch", GEMMINI, "-p", "dram.capacity=1KiB", "--workload",
                          "gemm:M=512,K=512,N=512", check=False)
    assert code == 3 and "768 KiB" in stderr
    with pytest.raises(tessel.InfeasibleError) as e:
        tessel.run(GEMMINI, "gemm:M=512,K=512,N=512", overrides={"dram.capacity": "1KiB"})
    assert e.value.exit_code == 3
    assert "768 KiB" in str(e.value) and str(e.value) in stderr
