"""docs/python-walkthrough.py (fit -> replay -> plot -> dock run -> sweep) run end to end as a user runs it, in a
fresh interpreter, and its printed numbers checked against the programs."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hystkit as hk
from conftest import TOP, FIX, run


def test_walkthrough_runs_end_to_end(tmp_path):
    pytest.importorskip("matplotlib")
    env = dict(os.environ, MPLBACKEND="Agg")
    env["PYTHONPATH"] = str(Path(hk.__file__).resolve().parents[1]) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, str(TOP / "docs" / "python-walkthrough.py"), str(tmp_path / "out")],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    out = p.stdout
    assert out.rstrip().endswith("done")
    for f in ("loops-replay.png", "dock-s2a.png"):
        assert (tmp_path / "out" / f).read_bytes()[:4] == b"\x89PNG"
    # the numbers it prints are the programs' numbers
    run("mech", "dock", FIX / "mech" / "dock" / "s2-A.json", "--duration", "2", "--out", tmp_path / "dock",
        "--no-plots", "--no-records", "-q")
    ref = json.loads((tmp_path / "dock" / "summary.json").read_text())
    m = re.search(r"dock S2-A to 2 s: (\d+) steps, captured True at (\S+) s, peak axial (\S+) N", out)
    assert m and int(m[1]) == ref["steps"] and float(m[2]) == ref["capture_time"]
    assert float(m[3]) == round(ref["peak_axial_force"], 1)
    rows = (tmp_path / "out" / "sweep" / "results.csv").read_text().splitlines()[1:]
    printed = re.findall(r"captured (\d)  peak axial +(\S+) N", out)
    assert [(r.split(",")[4], "%.1f" % float(r.split(",")[7])) for r in rows] == printed
    assert "replay true       NRMSE 0.4990 %" in out       # docs/python.md step 4: the true table's 0.499 %
