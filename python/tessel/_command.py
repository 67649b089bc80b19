"""Builds command lines from Python arguments and runs them through the compiled module."""
from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence

from . import _tessel
from ._errors import UsageError, raise_failure

# Options given once per value (`--dim a=1 --dim b=2`); every other list is joined with commas.
_REPEATED = {"dim", "param"}
# Options the functions set themselves: the document comes back as the result.
_RESERVED = {"json", "quiet", "q", "help", "h"}


def option_args(options: Mapping[str, Any]) -> List[str]:
    """``{"seq": 128, "ideal_memory": True, "dim": ["N=1"]}`` -> ``--seq 128 --ideal-memory
    --dim N=1``. ``None`` and ``False`` leave an option out; lists join with commas."""
    argv: List[str] = []
    for key, value in options.items():
        if key in _RESERVED:
            raise UsageError(f"'{key}' is set by tessel's Python functions; the document is the "
                             "result they return", yaml_path=key, exit_code=2)
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif isinstance(value, (list, tuple)):
            if key in _REPEATED:
                for v in value:
                    argv += [flag, _text(v)]
            else:
                argv += [flag, ",".join(_text(v) for v in value)]
        else:
            argv += [flag, _text(value)]
    return argv


def override_pairs(overrides: Optional[Mapping[str, Any] | Sequence[str]]) -> List[str]:
    """``{"scratchpad.capacity": "64KiB"}`` (or ``["scratchpad.capacity=64KiB"]``) ->
    ``["scratchpad.capacity=64KiB"]``."""
    if not overrides:
        return []
    if isinstance(overrides, str):
        return [overrides]
    if isinstance(overrides, Mapping):
        return [f"{k}={_text(v)}" for k, v in overrides.items()]
    return [str(p) for p in overrides]


def override_args(overrides: Optional[Mapping[str, Any] | Sequence[str]]) -> List[str]:
    """The overrides as ``-p KEY=VALUE`` arguments."""
    argv: List[str] = []
    for p in override_pairs(overrides):
        argv += ["-p", p]
    return argv


def _text(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def call(argv: Iterable[str], *, fork: bool = True) -> Dict[str, Any]:
    """Runs ``tessel ARGV...``; raises the matching TesselError when it fails."""
    argv = [str(a) for a in argv]
    answer = _tessel.run_forked(argv) if fork else _tessel.run_in_process(argv)
    raise_failure(answer, argv)
    return answer


def call_json(argv: Iterable[str], **kw: Any) -> Dict[str, Any]:
    """Runs a command that writes its JSON document to standard output and parses it."""
    answer = call(argv, **kw)
    return {"document": json.loads(answer["out"]), "warnings": warnings_of(answer["err"])}


def warnings_of(stderr: str) -> List[str]:
    return [line[len("warning: "):] for line in stderr.splitlines() if line.startswith("warning: ")]
