"""hk.calibrate (docs/calibrate.md): `mech calibrate`'s report as NumPy arrays and the calibrated scenario, on the
shipped virtual stand test of the lateral brake (fixtures/mech/calib/s2-B*); bad input raises the program's message."""
import json

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX

C = FIX / "mech" / "calib"


def test_calibrate_recovers_the_hidden_brake(tmp_path):
    cal = hk.calibrate(C / "s2-B.cal.json", tmp_path / "o")
    hidden = json.load(open(C / "s2-B-meas.json"))["hidden"]
    assert cal.keys == ["lateral.brake.moment.1"]
    assert isinstance(cal.value, np.ndarray) and cal.value.shape == (1,) and cal.correlation.shape == (1, 1)
    true = hidden["lateral.brake.moment.1"]
    assert abs(cal.value[0] - true) <= 2 * cal.se[0] and abs(cal.value[0] / true - 1) < 0.05
    assert cal.correlation[0, 0] == pytest.approx(1.0)
    assert cal.scenario["lateral"]["brake"]["moment"][1] == cal.value[0]       # the calibrated scenario holds it
    val = [r for r in cal.runs if r["validation"]]
    assert len(val) == 1 and all(c["nrmse_over_floor"] < 1.5 for c in val[0]["channels"])
    assert cal.fit["converged"] and cal.fit["simulated_runs"] > 3
    assert repr(cal).startswith("Calibration(lateral.brake.moment.1=")


def test_calibrate_from_a_dict_and_bad_input(tmp_path):
    d = json.load(open(C / "s2-B.cal.json"))
    d["keys"]["lateral.brake.moment.1"]["min"] = 1600            # excludes the start value 1500
    with pytest.raises(hk.ProgramError) as e:
        hk.calibrate(d, tmp_path / "bad", base_dir=C)
    assert "keys.lateral.brake.moment.1: start = 1500 is not strictly inside [min, max] = [1600, 20000]" in str(e.value)
    with pytest.raises(FileNotFoundError):
        hk.calibrate(tmp_path / "nope.json")


def test_calibrate_jobs_give_the_same_fit(tmp_path):
    # S1-B's two key columns on two processes: the serial fit's values and standard errors exactly
    one = hk.calibrate(C / "s1-stand-B.cal.json", tmp_path / "j1")
    two = hk.calibrate(C / "s1-stand-B.cal.json", tmp_path / "j2", jobs=2)
    assert two.fit["jobs"] == 2 and one.fit["jobs"] == 1
    assert np.array_equal(one.value, two.value) and np.array_equal(one.se, two.se)
    with pytest.raises(hk.ArgumentError) as e:                   # a usage error (exit 2), nothing run
        hk.calibrate(C / "s1-stand-B.cal.json", tmp_path / "j0", jobs=0)
    assert "--jobs: '0' is not an integer >= 1" in str(e.value)


def test_calibrate_dict_with_filter_and_law_scale(tmp_path):
    """A dict configuration carries the runs' "filter" through to `mech calibrate` (the beam hinge's hysteresis scale,
    fixtures/mech/calib/beam-hyst*): the hidden law_scale within 2 se and 5 %; the filter taken out, the fitted clock
    offsets move late by the 4th-order 250 Hz Butterworth's DC delay 1 / (wa sin(pi/8)) = 1.66 ms; a cut-off above
    the record's Nyquist frequency refused naming the key."""
    import math
    d = json.load(open(C / "beam-hyst.cal.json"))
    hidden = json.load(open(C / "beam-hyst-meas.json"))
    cal = hk.calibrate(d, tmp_path / "f", base_dir=C)
    true = hidden["hidden"]["hinges.0.law_scale"]
    assert abs(cal.value[0] - true) <= 2 * cal.se[0] and abs(cal.value[0] / true - 1) < 0.05
    assert cal.scenario["hinges"][0]["law_scale"] == cal.value[0]
    offs = {c["name"]: c["offset"] for c in hidden["channels"]}
    for r in (d["runs"] + d["validation"]):
        r.pop("filter")
    plain = hk.calibrate(d, tmp_path / "n", base_dir=C)
    wa = 2 * 20000 * math.tan(math.pi * 250 / 20000)
    delay = 1 / (wa * math.sin(math.pi / 8))
    for cf, cn in zip(cal.runs[0]["channels"], plain.runs[0]["channels"]):
        assert abs(cf["offset"] - offs[cf["name"]]) < 0.1 * delay
        assert abs((cn["offset"] - offs[cn["name"]]) / delay - 1) < 0.1
    d["runs"][0]["filter"] = {"order": 4, "cutoff": 700}
    with pytest.raises(hk.ProgramError) as e:
        hk.calibrate(d, tmp_path / "bad", base_dir=C)
    assert "runs[0].filter.cutoff: 700 Hz, at or above the record's Nyquist frequency 500 Hz" in str(e.value)
