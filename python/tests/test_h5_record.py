"""A table of an HDF5 log read as a record (FILE.h5:/records/X, hyst/h5log.h): the same arrays, names and units as
the CSV that the same `mech dock` run writes beside it, and the C reader's errors with their messages."""
import json

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX, run

D = FIX / "mech" / "dock"


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    """S1-A over 1 s at h = 0.5 ms, written as CSV and HDF5 by one run (as tests/e2e/test_outputs_h5.sh)."""
    tmp = tmp_path_factory.mktemp("h5rec")
    d = json.loads((D / "s1-A.json").read_text())
    d.update(duration=1.0, capture_timeout=1.0, step=0.0005, integration={"tolerance": 0})   # fixed steps
    d["outputs"] = {"rate": 0, "plots": False, "animation": False}   # no view times beyond the short run
    d["laws"] = {k: str(D / v) for k, v in d["laws"].items()}
    f = tmp / "s1-short.json"
    f.write_text(json.dumps(d))
    run("mech", "dock", f, "--out", tmp / "out", "--no-plots", "-q", "--format", "csv+h5", "--output-rate", "0")
    return tmp / "out"


@pytest.mark.parametrize("element", ["axial", "spring1", "bend_y"])
def test_h5_record_equals_csv_record(out, element):
    c = hk.read_csv(out / (element + ".csv"))
    h = hk.read_record("%s:/records/%s" % (out / "log.h5", element))
    assert len(h) == len(c) > 1900                      # every step of the 1 s run
    assert np.array_equal(h.q, c.q) and np.array_equal(h.Q, c.Q) and np.array_equal(h.t, c.t)
    assert h.names == c.names and h.units == c.units and c.units["Q"] != ""
    assert h.source == "%s:/records/%s" % (out / "log.h5", element)
    if element == "axial":
        assert np.count_nonzero(c.Q) > 100              # the capture loads it: not two empty records compared
    # read_csv takes the same path; columns by name and scales apply as for a CSV
    h2 = hk.read_csv("%s:/records/%s" % (out / "log.h5", element), q="Q", Q="q", Q_scale=2.0)
    assert np.array_equal(h2.q, c.Q) and np.array_equal(h2.Q, 2.0 * c.q)


def test_h5_history_table_by_column_names(out):
    h = hk.read_record(str(out / "log.h5") + ":/history", q="t", Q=2)
    # history.csv's units row holds "1" (dimensionless), which the CSV reader does not take as a unit: read its
    # numbers with NumPy (exact shortest decimal text, so the same doubles)
    c = np.loadtxt(out / "history.csv", delimiter=",", skiprows=2, usecols=(0, 1))
    assert len(h) == len(c) > 1900 and np.count_nonzero(c[:, 1]) > 100
    assert np.array_equal(h.q, c[:, 0]) and np.array_equal(h.Q, c[:, 1])
    assert h.names["Q"] == "head_fx" and h.units["Q"] == "N"


def test_h5_errors_carry_the_c_message(out, tmp_path):
    log = str(out / "log.h5")
    with pytest.raises(hk.HystError) as e:
        hk.read_record(log + ":/records/nope")
    assert str(e.value) == "%s:/records/nope: no dataset /records/nope in %s" % (log, log)
    with pytest.raises(hk.HystError) as e:
        hk.read_record(log + ":/records")
    assert str(e.value).startswith(log + ":/records: is a group, expected a dataset")
    csv = str(out / "axial.csv")
    with pytest.raises(hk.HystError) as e:
        hk.read_record(csv + ":/records/axial")
    assert "not an HDF5 file" in str(e.value) and str(e.value).startswith(csv + ":/records/axial: ")
    with pytest.raises(hk.HystError) as e:
        hk.read_record(log + ":/records/axial", q="nope")
    assert "nope" in str(e.value)
