"""Shared helpers: the CLI binary the module is compared with, and its JSON documents."""
import json
import os
import subprocess

import pytest

TESSEL_BIN = os.environ.get("TESSEL_BIN", "build/apps/tessel/tessel")
SOURCE_DIR = os.environ.get("TESSEL_SOURCE_DIR", os.getcwd())
GEMMINI = "configs/arch/gemmini-default.yaml"


def cli(*args, check=True):
    """Runs the tessel executable; returns (exit code, stdout, stderr)."""
    p = subprocess.run([TESSEL_BIN, *args], capture_output=True, text=True, cwd=SOURCE_DIR)
    if check and p.returncode != 0:
        raise AssertionError(f"tessel {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    """The JSON document `tessel ARGS --json FILE` writes."""
    _, out, _ = cli(*args, "--json", "-")
    return json.loads(out)


@pytest.fixture(autouse=True)
def _at_source_root(monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
