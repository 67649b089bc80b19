"""Result objects: the CLI's JSON documents as plain Python objects, and as DataFrames."""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional


def _pandas():
    try:
        import pandas  # noqa: F401 (optional: Debian's python3-pandas)
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("to_dataframe() needs pandas (Debian: apt install python3-pandas); "
                          "to_dict() and the records need nothing") from e
    return pandas


def flatten(record: Dict[str, Any], prefix: str = "") -> Dict[str, Any]:
    """{"a": {"b": 1}, "c": [1, 2]} -> {"a.b": 1, "c": [1, 2]} (lists stay as they are)."""
    flat: Dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


class Result:
    """One command's JSON document. ``to_dict()`` is exactly what the CLI's ``--json`` writes
    for the same inputs; ``result["key"]`` reads it; ``warnings`` lists what it printed on
    standard error as warnings."""

    kind = "document"

    def __init__(self, document: Dict[str, Any], warnings: Optional[List[str]] = None) -> None:
        self._document = document
        self.warnings: List[str] = list(warnings or [])

    def to_dict(self) -> Dict[str, Any]:
        """The JSON document as dicts and lists (the object itself: copy it before changing it)."""
        return self._document

    def __getitem__(self, key: str) -> Any:
        return self._document[key]

    def keys(self):
        return self._document.keys()

    def rows(self) -> List[Dict[str, Any]]:
        """The document's table rows, flattened (``to_dataframe()`` builds on them)."""
        return [flatten(self._document)]

    def to_dataframe(self):
        """The rows as a pandas DataFrame (needs pandas)."""
        return _pandas().DataFrame(self.rows())

    def __repr__(self) -> str:
        return f"<tessel {self.kind}: {', '.join(list(self._document)[:6])}>"


class RunResult(Result):
    """`tessel run`: totals, the breakdowns and one entry per op."""

    kind = "run"

    @property
    def totals(self) -> Dict[str, Any]:
        return self._document["totals"]

    @property
    def cycles(self) -> float:
        return self.totals["cycles"]

    @property
    def seconds(self) -> float:
        return self.totals["seconds"]

    @property
    def energy_pj(self) -> float:
        return self.totals["energy_pj"]

    @property
    def macs(self) -> int:
        return self.totals["macs"]

    @property
    def utilization(self) -> float:
        return self.totals["utilization"]

    @property
    def dram_bytes(self) -> float:
        return self.totals["dram_bytes"]

    @property
    def area_mm2(self) -> float:
        return self.totals.get("area_mm2", 0.0)

    @property
    def ops(self) -> List[Dict[str, Any]]:
        return self._document["ops"]

    def rows(self) -> List[Dict[str, Any]]:
        """One row per op: id, name, kind, class, placement, macs, cycles, energy_pj,
        utilization, dtype, cycles_by_cause.*, traffic.* ... (the mapping and loop nest left
        out)."""
        skip = {"mapping", "loop_nest", "accesses", "network"}
        return [flatten({k: v for k, v in op.items() if k not in skip}) for op in self.ops]

    def __repr__(self) -> str:
        meta = self._document["metadata"]
        return (f"<tessel run: {meta['workload']} on {meta['arch']['name']} ({meta['engine']}): "
                f"{self.cycles:.6g} cycles, {self.seconds * 1e3:.6g} ms, "
                f"{self.energy_pj / 1e9:.6g} mJ>")


class SystemRunResult(Result):
    """`tessel run --system`: a model split over a system's chips: its latency, communication,
    stages, and one chip's own run (``chip``)."""

    kind = "system run"

    @property
    def latency_seconds(self) -> float:
        return self._document["latency_seconds"]

    @property
    def energy_pj(self) -> float:
        return self._document["energy_pj"]

    @property
    def chip(self) -> "RunResult":
        return RunResult(self._document["chip"])

    def rows(self) -> List[Dict[str, Any]]:
        """One row per kind of collective."""
        return [dict(c) for c in self._document["communication"]]


class CollectiveResult(Result):
    """`tessel collective`: one collective (``seconds``, ``algorithm``, ``steps``,
    ``bytes_per_link``...) or a curve (``points``)."""

    kind = "collective"

    def rows(self) -> List[Dict[str, Any]]:
        return list(self._document.get("points", [self._document]))


class CompareResult(Result):
    """`tessel compare`: every dataflow on every workload."""

    kind = "compare"

    def rows(self) -> List[Dict[str, Any]]:
        """One row per (workload, dataflow): its totals, flattened."""
        out = []
        for w in self._document["workloads"]:
            for run in w["runs"]:
                out.append(flatten({"workload": w["workload"], **run}))
        return out


class XvalResult(Result):
    """`tessel xval`: the analytical and SystemC engines on the same plans, op by op."""

    kind = "xval"

    def rows(self) -> List[Dict[str, Any]]:
        ops = self._document.get("ops")
        return [flatten(op) for op in ops] if isinstance(ops, list) else super().rows()


class ServeResult(Result):
    """`tessel serve`: a deployed service (a vision service's variants, or an LLM service)."""

    kind = "serve"

    def rows(self) -> List[Dict[str, Any]]:
        """One row per simulated configuration: an LLM service's points (one per rate, max
        batch, chunk...), a vision service's configurations (cores, workers, batch, variant)."""
        for key in ("points", "configurations"):
            rows = self._document.get(key)
            if isinstance(rows, list) and rows and isinstance(rows[0], dict):
                return [flatten(r) for r in rows]
        return super().rows()


class ValidateResult(Result):
    """`tessel validate`: the numerical error of one or several formats against FP32."""

    kind = "validate"

    def rows(self) -> List[Dict[str, Any]]:
        formats = self._document.get("formats")
        if isinstance(formats, list):
            return [flatten({k: v for k, v in f.items() if k != "ops"}) for f in formats]
        return super().rows()


class WorkloadInfo(Result):
    """`tessel workload`: a workload's ops, shapes and MACs, without simulating it."""

    kind = "workload"

    @property
    def ops(self) -> List[Dict[str, Any]]:
        return self._document["ops"]

    def rows(self) -> List[Dict[str, Any]]:
        return [flatten(op) for op in self.ops]


class SweepResult:
    """`tessel sweep`: one record per point (its index, parameters, status, and its metrics or
    the error it failed with), in point order, and the folder the sweep wrote (resumable with
    ``tessel.sweep(spec, out_dir=..., resume=True)`` or ``tessel sweep --resume``)."""

    def __init__(self, records: List[Dict[str, Any]], summary: Dict[str, Any], out_dir: str):
        self.records = records
        self.summary = summary
        self.out_dir = out_dir

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return iter(self.records)

    def __getitem__(self, i: int) -> Dict[str, Any]:
        return self.records[i]

    def to_dict(self) -> Dict[str, Any]:
        return {"summary": self.summary, "records": self.records}

    def rows(self) -> List[Dict[str, Any]]:
        """One row per point: index, status, the parameters and the metrics as columns (nested
        metrics such as by_class become by_class.MatMul ...), error and error_kind for failed
        points."""
        rows = []
        for r in self.records:
            row = {"index": r["index"], "status": r["status"]}
            row.update(r.get("params", {}))
            row.update(flatten(r.get("metrics", {})))
            for key in ("error", "error_kind"):
                if key in r:
                    row[key] = r[key]
            rows.append(row)
        return rows

    def to_dataframe(self):
        return _pandas().DataFrame(self.rows())

    def __repr__(self) -> str:
        ok = sum(1 for r in self.records if r["status"] == "ok")
        return f"<tessel sweep: {len(self.records)} points, {ok} ok, in {self.out_dir}>"
