"""tessel: model and simulate DNN accelerators from Python.

    import tessel
    arch = tessel.load_arch("configs/arch/gemmini-default.yaml",
                            overrides={"scratchpad.capacity": "64KiB"})
    r = tessel.run(arch, "gpt2-small", phase="prefill", seq=512)
    r.seconds, r.energy_pj, r.to_dict()          # to_dict() == `tessel run --json`
    df = r.to_dataframe()                         # one row per op (pandas)
    s = tessel.sweep("configs/sweeps/gemmini-sram.yaml")
    s.to_dataframe()                              # one row per point

Every function runs the command the CLI runs for the same inputs, in a forked worker process
(SystemC elaborates once per process; a worker per call lets a notebook run it again and
again), with the GIL released; Ctrl-C stops the worker. Errors are the CLI's, as exceptions:
ConfigError (exit 2) carries ``file``, ``line``, ``column`` and ``yaml_path``.
"""
from ._api import (Arch, collective, compare, dataflows, load_arch, precision, run, serve, sweep,
                   validate, workload, xval)
from ._errors import (ConfigError, InfeasibleError, InternalError, TesselError, UsageError)
from ._results import (CollectiveResult, CompareResult, Result, RunResult, ServeResult,
                       SweepResult, SystemRunResult, ValidateResult, WorkloadInfo, XvalResult)

__version__ = "0.1.0"

__all__ = [
    "Arch", "load_arch", "run", "xval", "compare", "serve", "validate", "workload", "precision",
    "sweep", "dataflows", "collective",
    "TesselError", "ConfigError", "UsageError", "InfeasibleError", "InternalError",
    "Result", "RunResult", "CompareResult", "XvalResult", "ServeResult", "ValidateResult",
    "WorkloadInfo", "SweepResult", "SystemRunResult", "CollectiveResult",
]
