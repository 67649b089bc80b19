"""The exceptions tessel raises: the same failures, messages and locations as the CLI's."""
from __future__ import annotations


class TesselError(Exception):
    """Base of every tessel error.

    Attributes: ``message`` (what went wrong, without the location), ``file``, ``line`` and
    ``column`` (1-based; 0 when unknown), ``yaml_path`` (the YAML path or the option, e.g.
    ``"scratchpad.capacity"`` or ``"--seq"``), ``exit_code`` (what the CLI would exit with) and
    ``stderr`` (everything the command printed there, warnings included).
    """

    def __init__(self, message: str, *, file: str = "", line: int = 0, column: int = 0,
                 yaml_path: str = "", exit_code: int = 1, stderr: str = "",
                 text: str = "") -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.yaml_path = yaml_path
        self.exit_code = exit_code
        self.stderr = stderr
        # str(error) is what the CLI prints after "error: ".
        super().__init__(text or self._text())

    def _text(self) -> str:
        where = self.file
        if where and self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        parts = [p for p in (where, f"at '{self.yaml_path}'" if self.yaml_path else "") if p]
        return ": ".join(parts + [self.message])


class ConfigError(TesselError, ValueError):
    """Bad input: a YAML file, an override, a workload, an option (the CLI exits 2)."""


class UsageError(ConfigError, TypeError):
    """Arguments the command does not take, or values of the wrong form (the CLI exits 2)."""


class InfeasibleError(TesselError):
    """The design cannot run the request, e.g. no mapping fits (the CLI exits 3)."""


class InternalError(TesselError, RuntimeError):
    """A defect of tessel, not of the input (the CLI exits 1)."""


def raise_failure(answer: dict, argv: list) -> None:
    """Raises the exception for a command's answer ({code, out, err, failure}) if it failed."""
    code = answer["code"]
    if code == 0:
        return
    f = answer["failure"]
    kind = f.get("kind", "")
    message = f.get("message") or answer["err"].strip() or f"tessel {' '.join(argv)} failed"
    cls = {"usage": UsageError, "config": ConfigError, "out_of_memory": ConfigError,
           "filesystem": ConfigError, "infeasible": InfeasibleError}.get(kind)
    if cls is None:
        cls = {2: ConfigError, 3: InfeasibleError}.get(code, InternalError)
    raise cls(message, file=f.get("file", ""), line=f.get("line", 0),
              column=f.get("column", 0), yaml_path=f.get("yaml_path", ""), exit_code=code,
              stderr=answer["err"], text=f.get("text", ""))

