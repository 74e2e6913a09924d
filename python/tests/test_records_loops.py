"""Records and loop analysis against the `hyst loops` program on the bundled SPC1 record (fixtures/real)."""
import json

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX, run


@pytest.fixture(scope="module")
def spc1():
    return hk.read_csv(FIX / "real" / "SPC1.csv")


def test_read_csv_names_units_lines(spc1):
    assert len(spc1) == 33028
    assert spc1.names["q"] == "Lead Actuator Displacment" and spc1.units == {"t": "", "q": "mm", "Q": "kN"}
    # first data row of the file (after the header and the units row) and its values
    assert spc1.lines[0] == 3 and spc1.lines[-1] == 33030
    with open(FIX / "real" / "SPC1.csv") as f:
        row = f.read().splitlines()[2].split(",")
    # the columns are found by name: force first, displacement second in this file
    assert spc1.Q[0] == float(row[0]) == 0.02 and spc1.q[0] == float(row[1])
    assert spc1.q.dtype == np.float64 and spc1.q.flags.c_contiguous


def test_loops_equal_hyst_loops(spc1, tmp_path):
    run("hyst", "loops", FIX / "real" / "SPC1.csv", "--json", tmp_path / "l.json", "-q")
    ref = json.loads((tmp_path / "l.json").read_text())
    L = hk.loops(spc1.q, spc1.Q)
    assert L.threshold == ref["threshold"] and L.threshold_rule == ref["threshold_rule"]
    assert L.total_energy == ref["total_energy"]
    assert [int(i) + 1 for i in L.reversals["i"]] == [r["row"] for r in ref["reversal_points"]]
    assert len(L) == len(ref["cycles"])
    assert L.energies.tolist() == [c["energy"] for c in ref["cycles"]]
    assert [None if np.isnan(v) else v for v in L.cycles["xi_eq"]] == [c["xi_eq"] for c in ref["cycles"]]
    assert [None if np.isnan(v) else v for v in L.cycles["k_sec"]] == [c["k_sec"] for c in ref["cycles"]]
    d = L.as_dict()
    assert d["total_energy"] == ref["total_energy"] and json.dumps(d, allow_nan=True)


def test_loops_closed_form_ellipse():
    # Q = k q + c dq/dtheta on an ellipse: the enclosed area of each cycle is pi * A * B (independent reference)
    th = np.linspace(0, 6 * np.pi, 6 * 2000 + 1)
    A, B = 2.0, 0.5
    q, Q = A * np.sin(th), 3.0 * A * np.sin(th) + B * np.cos(th)
    L = hk.loops(q, Q, threshold=0.01)
    assert len(L) >= 2
    for e in L.energies:
        assert abs(abs(e) - np.pi * A * B) < 1e-5 * np.pi * A * B


def test_loops_arguments():
    with pytest.raises(ValueError):
        hk.loops([0, 1, 2], [0, 1])
    with pytest.raises(ValueError):
        hk.loops([0, 1, 2], [0, 1, 2], threshold=-1)
