"""The package as users get it: `make install`'s layout, the type stubs, the docstrings."""
import ast
import os
import subprocess
import sys

import tessel

BUILD = os.environ.get("TESSEL_BUILD_DIR", "build")
PACKAGE = os.path.dirname(tessel.__file__)


def test_installed_package_imports_and_runs(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    site = prefix / f"lib/python{sys.version_info.major}.{sys.version_info.minor}/dist-packages"
    assert (prefix / "bin" / "tessel").exists()
    assert (prefix / "share/tessel/configs/arch/gemmini-default.yaml").exists()
    code = ("import tessel; r = tessel.run('configs/arch/gemmini-default.yaml', "
            "'gemm:M=16,K=16,N=16', budget=50); print(tessel.__file__, r.macs)")
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env=env).stdout.split()
    assert out[0].startswith(str(site)) and out[1] == str(16 * 16 * 16)


def test_stubs_declare_every_public_name():
    with open(os.path.join(PACKAGE, "__init__.pyi")) as f:
        tree = ast.parse(f.read())
    declared = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert set(tessel.__all__) <= declared
    assert os.path.exists(os.path.join(PACKAGE, "py.typed"))


def test_every_public_name_has_a_docstring():
    for name in tessel.__all__:
        assert getattr(tessel, name).__doc__, name
    assert tessel._tessel.run_forked.__doc__
