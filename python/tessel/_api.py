"""The functions of the `tessel` package. Each runs the command the CLI runs for the same
inputs (through the compiled module, in a forked worker unless noted) and returns its JSON
document as a result object."""
from __future__ import annotations

import json
import os
import tempfile
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ._command import call, call_json, option_args, override_args, override_pairs
from ._errors import UsageError
from ._results import (CollectiveResult, CompareResult, Result, RunResult, ServeResult,
                       SweepResult, SystemRunResult, ValidateResult, WorkloadInfo, XvalResult)

Overrides = Union[Mapping[str, Any], Sequence[str], None]


class Arch:
    """An accelerator description (a YAML file) with ``-p``-style overrides, checked when
    loaded. ``name`` and ``hash`` identify the design the overrides make; ``summary`` is what
    ``tessel arch check`` prints for it."""

    def __init__(self, path: str, overrides: Overrides = None) -> None:
        self.path = os.fspath(path)
        self.overrides: List[str] = override_pairs(overrides)
        answer = call(["arch", "check", self.path, *self._param_args()], fork=False)
        self.summary: str = answer["out"]
        first = self.summary.split("\n", 1)[0]          # "NAME (HASH) from PATH"
        self.name = first.split(" (", 1)[0]
        self.hash = first.split(" (", 1)[1].split(")", 1)[0] if " (" in first else ""

    def _param_args(self) -> List[str]:
        return override_args(self.overrides)

    def with_overrides(self, overrides: Overrides) -> "Arch":
        """The same file with more overrides (later ones win, as with repeated ``-p``)."""
        return Arch(self.path, self.overrides + override_pairs(overrides))

    def __repr__(self) -> str:
        extra = f" with {', '.join(self.overrides)}" if self.overrides else ""
        return f"<tessel.Arch {self.name} ({self.hash}) from {self.path}{extra}>"


def load_arch(path: Union[str, os.PathLike], overrides: Overrides = None) -> Arch:
    """Loads and checks an accelerator YAML; ``overrides`` as ``{"scratchpad.capacity":
    "64KiB"}`` or ``["scratchpad.capacity=64KiB"]``. Raises ConfigError with the file, line,
    column and YAML path of what is wrong."""
    return Arch(os.fspath(path), overrides)


def _arch_args(arch: Union[Arch, str, os.PathLike], overrides: Overrides = None) -> List[str]:
    if isinstance(arch, Arch):
        return ["--arch", arch.path, *arch._param_args(), *override_args(overrides)]
    return ["--arch", os.fspath(arch), *override_args(overrides)]


def _target_args(arch: Union[Arch, str, None], system: Optional[str],
                 overrides: Overrides) -> List[str]:
    if (arch is None) == (system is None):
        raise UsageError("give one of arch (one chip) and system= (a system YAML of many)")
    if system is not None:
        return ["--system", os.fspath(system), *override_args(overrides)]
    return _arch_args(arch, overrides)


def run(arch: Union[Arch, str, None], workload: str, *, system: Optional[str] = None,
        overrides: Overrides = None, **options: Any) -> Union[RunResult, SystemRunResult]:
    """Simulates ``workload`` (a name, an .onnx file, a config.json, a SCALE-Sim topology CSV or
    a layer such as ``"gemm:M=64,K=64,N=64"``) on ``arch``. Options are the CLI's, spelled with
    underscores: ``seq=512, phase="decode", engine="systemc", dataflow="os", budget=2000,
    precision_plan="plan.yaml", ideal_memory=True, dim=["batch=1"]``... ``to_dict()`` equals
    ``tessel run --json`` for the same inputs. With ``arch=None, system="S.yaml"`` (and ``tp=8,
    pp=..., ep=..., dp=...`` or ``parallel="auto"``) the model is split over a system's chips and
    the result is a SystemRunResult."""
    argv = ["run", *_target_args(arch, system, overrides), "--workload", workload,
            *option_args(options)]
    got = call_json(argv + ["--json", "-", "--top", "0"])
    if system is not None:
        return SystemRunResult(got["document"], got["warnings"])
    return RunResult(got["document"], got["warnings"])


def collective(system: Union[str, os.PathLike], op: str = "all-reduce", bytes: str = "1MiB", *,
               overrides: Overrides = None, **options: Any) -> CollectiveResult:
    """One collective on a system's interconnect (``tessel collective``): ``group=8,
    algorithm="ring", engine="both"``; ``bytes="64KiB..16MiB"`` gives a curve (``points``)."""
    argv = ["collective", "--system", os.fspath(system), *override_args(overrides), "--op", op,
            "--bytes", str(bytes), *option_args(options)]
    return _document(CollectiveResult, argv + ["--json", "-"])


def xval(arch: Union[Arch, str], workload: str, *, overrides: Overrides = None,
         **options: Any) -> XvalResult:
    """Times the same plans with the analytical and the SystemC engines (``tessel xval``)."""
    argv = ["xval", *_arch_args(arch, overrides), "--workload", workload, *option_args(options)]
    return _document(XvalResult, argv + ["--json", "-", "--top", "0"])


def compare(arch: Union[Arch, str], workloads: Union[str, Sequence[str]] = ("resnet50", "gpt2"),
            dataflows: Union[str, Sequence[str]] = ("ws", "os", "is", "rs", "nlr"), *,
            overrides: Overrides = None, **options: Any) -> CompareResult:
    """Every dataflow on every workload (``tessel compare``); ``rows()``/``to_dataframe()``
    give one row per (workload, dataflow). ``workload=`` and ``dataflow=`` (the CLI's own
    spellings) are accepted for ``workloads`` and ``dataflows``."""
    workloads = options.pop("workload", workloads)
    dataflows = options.pop("dataflow", dataflows)
    wl = workloads if isinstance(workloads, str) else ",".join(workloads)
    dfs = dataflows if isinstance(dataflows, str) else ",".join(dataflows)
    argv = ["compare", *_arch_args(arch, overrides), "--workload", wl, "--dataflow", dfs,
            *option_args(options)]
    return _document(CompareResult, argv + ["--json", "-"])


def serve(arch: Union[Arch, str, None], workload: str, *, system: Optional[str] = None,
          overrides: Overrides = None, **options: Any) -> ServeResult:
    """A deployed service on a discrete-event timeline (``tessel serve``): a vision service
    (``workers=[1, 2], batch=[1, 4], rate=...``) or, for a decoder without ``phase``, an LLM
    service with continuous batching (``rate=[2, 4], prompt_len=..., max_batch=...``); with
    ``arch=None, system="S.yaml", tp=8, dp=2`` on replicas of chip groups."""
    argv = ["serve", *_target_args(arch, system, overrides), "--workload", workload,
            *option_args(options)]
    return _document(ServeResult, argv + ["--json", "-"])


def validate(workload: str, precision: Union[str, Sequence[str]] = "int8",
             **options: Any) -> ValidateResult:
    """Runs the workload's numerics in each format against FP32 (``tessel validate``)."""
    prec = precision if isinstance(precision, str) else ",".join(precision)
    argv = ["validate", "--workload", workload, "--precision", prec, *option_args(options)]
    return _document(ValidateResult, argv + ["--json", "-"])


def workload(name: str, **options: Any) -> WorkloadInfo:
    """Builds a workload without simulating it: its ops, shapes, MACs and parameters
    (``tessel workload --json``)."""
    argv = ["workload", name, *option_args(options), "--json", "-"]
    got = call_json(argv, fork=False)
    return WorkloadInfo(got["document"], got["warnings"])


def precision(workload: str, tolerance: float, **options: Any) -> str:
    """Searches a per-op precision plan (``tessel precision``); returns the plan's YAML text,
    which ``run(..., precision_plan=path)`` and ``validate(..., precision=path)`` take once
    written to a file."""
    argv = ["precision", "--workload", workload, "--tolerance", repr(float(tolerance)),
            *option_args(options), "-q"]
    return call(argv)["out"]


def sweep(spec: Union[str, os.PathLike, Mapping[str, Any]], *, out_dir: Optional[str] = None,
          workers: int = 0, resume: bool = False) -> SweepResult:
    """Runs a sweep spec (a YAML file, or the same as a dict) and returns one record per point.

    A dict's relative paths (``base``, model files) are taken from the current directory, and
    ``base`` may be an Arch (its overrides become single-valued grid keys). The results are
    written to ``out_dir`` (a new temporary folder when not given) exactly as ``tessel sweep -o``
    writes them, so a sweep can be resumed and reported (``tessel report DIR``)."""
    if out_dir is None:
        out_dir = tempfile.mkdtemp(prefix="tessel-sweep-")
        os.rmdir(out_dir)  # the sweep creates it (and refuses a folder it did not write)
    out_dir = os.fspath(out_dir)
    if isinstance(spec, Mapping):
        path = _spec_file(spec, out_dir)
    else:
        path = os.fspath(spec)
    argv = ["sweep", path, "-o", out_dir, "-q"]
    if workers:
        argv += ["--workers", str(workers)]
    if resume:
        argv.append("--resume")
    call(argv)
    return _read_sweep(out_dir)


def _spec_file(spec: Mapping[str, Any], out_dir: str) -> str:
    spec = json.loads(json.dumps(spec, default=_arch_in_spec))
    base = spec.get("base")
    if isinstance(base, dict) and "__arch__" in base:
        spec["base"] = base["__arch__"]
        grid = spec.setdefault("grid", {})
        for pair in base["overrides"]:
            key, _, value = pair.partition("=")
            grid.setdefault(key, [value])
    if isinstance(spec.get("base"), str):
        spec["base"] = os.path.abspath(spec["base"])
    for w in spec.get("workloads", []):
        name = w.get("name") if isinstance(w, dict) else None
        if isinstance(name, str) and os.path.exists(name):
            w["name"] = os.path.abspath(name)
    # JSON is YAML: the spec reader takes it as it is. Kept beside the results (the sweep
    # records the spec's path and hash, and --resume checks them).
    spec_dir = tempfile.mkdtemp(prefix="tessel-spec-")
    path = os.path.join(spec_dir, f"{spec.get('name', 'sweep')}.yaml")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f, indent=1)
    return path


def _arch_in_spec(value: Any) -> Any:
    if isinstance(value, Arch):
        return {"__arch__": os.path.abspath(value.path), "overrides": value.overrides}
    raise UsageError(f"a sweep spec holds YAML values, not {type(value).__name__}", exit_code=2)


def _read_sweep(out_dir: str) -> SweepResult:
    records: Dict[int, Dict[str, Any]] = {}
    with open(os.path.join(out_dir, "results.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                records[r["index"]] = r  # a resumed point's last line wins
    summary_path = os.path.join(out_dir, "summary.json")
    summary: Dict[str, Any] = {}
    if os.path.exists(summary_path):
        with open(summary_path, encoding="utf-8") as f:
            summary = json.load(f)
    return SweepResult([records[i] for i in sorted(records)], summary, out_dir)


def _document(cls, argv: List[str]) -> Result:
    got = call_json(argv)
    return cls(got["document"], got["warnings"])


def dataflows() -> List[str]:
    """The shipped dataflows' names (``tessel dataflows``)."""
    out = call(["dataflows"], fork=False)["out"]
    return [line.split(":", 1)[0] for line in out.splitlines()
            if line.strip() and not line.startswith(" ") and ":" in line]
