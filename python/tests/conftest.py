"""Shared fixtures: the source tree, the programs (to compare with) and the fixture files.
Run from the top with `make test` (tests/e2e/test_python.sh) or: cd python && /usr/bin/python3 -m pytest tests"""
import os
import subprocess
import warnings
from pathlib import Path

import pytest

# one BLAS thread, as the programs' tests run (scripts/run-tests): on a loaded machine OpenBLAS's spinning worker
# threads make the kinematic fit a hundred times slower
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

TOP = Path(os.environ.get("TOP", Path(__file__).resolve().parents[2])).resolve()
FIX = TOP / "fixtures"
BIN = Path(os.environ.get("BIN", TOP / "bin"))


def run(*args, **kw):
    """Runs a program of the tree (hyst, mech) and returns its CompletedProcess; fails the test on exit != 0."""
    p = subprocess.run([str(BIN / args[0])] + [str(a) for a in args[1:]], capture_output=True, text=True, **kw)
    assert p.returncode == 0, p.stderr
    return p


@pytest.fixture(autouse=True)
def _quiet_fit_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield
