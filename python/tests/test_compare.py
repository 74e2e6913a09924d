"""hk.compare (python/hystkit/compare.py over mech/compare.h, docs/compare.md §7): the same numbers as `mech compare`
(compare.json), a run compared with itself (zero error, zero lag) from a folder and from memory, 7.3 ms late (the lag
within one sample), units converted and a mismatch refused with the channel named, the residual's blocks equal to
the channels' NRMSE^2, impacts against the closed form, bad input as exceptions carrying the C message."""
import json
import math

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX, run

S1B = FIX / "mech" / "dock" / "s1-B.json"


def pulse(t):
    """A half-sine impact (2000 N over 0.15 s from 0.2 s) and a decaying rebound."""
    f = np.where((t > 0.2) & (t < 0.35), 2000 * np.sin(np.pi * (t - 0.2) / 0.15), 0.0)
    return f + np.where(t > 0.5, 400 * np.exp(-(t - 0.5) / 0.2) * np.sin(2 * np.pi * 6 * (t - 0.5)), 0.0)


def rec(t0, t1, dt, shift=0.0, gain=1.0):
    t = np.arange(round((t1 - t0) / dt) + 1) * dt + t0
    return {"t": t, "F": gain * pulse(t - shift), "x": 0.1 * (1 - np.cos(2 * np.pi * 0.7 * (t - shift)))}


@pytest.fixture(scope="module")
def s1b(tmp_path_factory):
    d = tmp_path_factory.mktemp("s1b")
    run("mech", "dock", S1B, "--out", d / "run", "--duration", "2", "--no-plots", "--no-records", "-q")
    return d


def test_self_zero_folder_and_cli(s1b):
    c = hk.compare(s1b / "run", s1b / "run" / "history.csv", channels=["head_axial", "stroke"], tol={"head_axial": 0.01})
    assert c.lag == 0
    assert all(ch["nrmse"] == 0 and ch["max_abs_error"] == 0 for ch in c.channels)
    assert c.channels[0]["verdict"] == "pass" and c.channels[1]["verdict"] == "none"
    np.testing.assert_array_equal(c.measured["head_axial"], c.predicted["head_axial"])
    run("mech", "compare", s1b / "run", s1b / "run" / "history.csv", "--channels", "head_axial,stroke", "--no-plots",
        "-q", "-o", s1b / "cli")
    j = json.loads((s1b / "cli" / "compare.json").read_text())
    assert j["grid"]["samples"] == c.t.size and j["grid"]["dt"] == c.dt
    for a, b in zip(j["channels"], c.channels):
        assert a["peak_measured"] == b["peak_measured"] and a["nrmse"] == b["nrmse"]


def test_in_memory_run_and_residual(s1b):
    r = hk.run_dock(S1B, duration=2)
    c = hk.compare(r, s1b / "run" / "history.csv", channels=["head_axial", "stroke"])
    assert abs(c.lag) < 1e-9     # the same run: the file holds the history at 200 rows/s, memory every step
    res = c.residual(r)
    n = c.t.size
    assert res.shape == (2 * n,)
    for k, ch in enumerate(c.channels):
        assert math.isclose(math.sqrt(np.sum(res[k * n:(k + 1) * n] ** 2)), ch["nrmse"], rel_tol=1e-12, abs_tol=1e-15)


def test_shifted_7_3_ms():
    a, b = rec(0, 2, 1e-3), rec(0.0031, 2.2, 4e-4, shift=0.0073)
    c = hk.compare(a, b, channels=["F", "x"], run_units={"F": "N", "x": "m"}, measured_units={"F": "N", "x": "m"})
    assert c.dt == pytest.approx(4e-4, rel=1e-9)
    assert abs(c.lag - 0.0073) <= c.dt
    assert all(abs(ch["lag"] - 0.0073) <= c.dt for ch in c.channels)
    # the grid: the overlap only, in the measured record's time
    assert c.t[0] >= 0.0031 and c.t[-1] <= 2 + c.lag + 1e-12
    w = hk.compare(a, b, channels=["F", "x"], window=(0.25, 0.3), run_units={"F": "N", "x": "m"},
                   measured_units={"F": "N", "x": "m"})
    assert w.t[0] >= 0.25 and w.t[-1] <= 0.3 and w.lag == c.lag
    e = hk.compare(a, b, channels=["F", "x"], align="event", run_units={"F": "N", "x": "m"},
                   measured_units={"F": "N", "x": "m"})
    assert abs(e.lag - 0.0073) <= c.dt


def test_units_converted_and_refused():
    a, b = rec(0, 1, 1e-3), rec(0, 1, 1e-3, gain=1e-3)
    m = {"format": "mech-compare-map", "channels": [{"measured": "F", "unit": "kN"}, {"measured": "x", "unit": "mm"}]}
    b["x"] = b["x"] * 1e3
    c = hk.compare(a, b, map=m, run_units={"F": "N", "x": "m"})
    assert c.channels[0]["factor"] == 1000 and c.channels[0]["nrmse"] < 1e-12 and c.channels[1]["nrmse"] < 1e-12
    m["channels"][0]["unit"] = "mm"
    with pytest.raises(hk.DataError, match=r"map: channels\[0\]: unit mismatch on channel 'F': measured in 'mm', "
                                           r"the run's channel 'F' in 'N'"):
        hk.compare(a, b, map=m, run_units={"F": "N", "x": "m"})


def test_impacts_closed_form():
    a = rec(0, 2, 1e-3)
    c = hk.compare(a, a, channels=["F"], run_units={"F": "N"}, measured_units={"F": "N"})
    imp = c.impacts("F", threshold=1e-9)["measured"]
    # the half-sine's impulse 2 A T / pi, within the trapezoid's bound T dt^2 max|f''| / 12 = 0.011 N s
    assert abs(imp["impulse"][0] - 2 * 2000 * 0.15 / math.pi) < 0.011
    assert imp["peak"][0] == pytest.approx(2000, abs=1e-9)


def test_bad_input():
    a, b = rec(0, 1, 1e-3), rec(5, 6, 1e-3)
    u = {"F": "N", "x": "m"}
    with pytest.raises(hk.DataError, match="run and measured do not overlap in time"):
        hk.compare(a, b, channels=["F", "x"], run_units=u, measured_units=u)
    with pytest.raises(hk.ParseError, match=r"^map: channels\[0\].scale: expected a number$"):
        hk.compare(a, a, map={"format": "mech-compare-map", "channels": [{"measured": "F", "scale": "x"}]})
    with pytest.raises(hk.ArgumentError, match="--tol F=-1.0: '-1.0' is not a positive number"):
        hk.compare(a, a, channels=["F"], tol={"F": -1}, run_units=u, measured_units=u)
    with pytest.raises(hk.ArgumentError, match="no channel 'y'"):
        hk.compare(a, a, channels=["y"])
    c = hk.compare(a, a, channels=["F"], run_units=u, measured_units=u)
    with pytest.raises(hk.DataError, match="the run spans 0.5 to 1 s"):
        c.residual({"t": np.linspace(0.5, 1, 11), "F": np.zeros(11)}, units={"F": "N"})
    c.close()
    with pytest.raises(hk.ClosedError):
        c.residual(a)


def test_filter_key_on_the_prediction():
    """The map's "filter" (docs/compare.md §2) passes through hk.compare: a 20 Hz sine against a 1 kHz record of it
    through a 4th-order 200 Hz Butterworth (its steady state |H| sin(w t + arg H), H from the analog prototype's poles
    at the pre-warped frequency, in NumPy here) agrees with the filtered prediction to the run's linear steps, not
    without; the residual goes through the same filter; a bad filter is refused naming the key."""
    fs, fc, f = 20000.0, 200.0, 20.0
    wa, W = 2 * fs * math.tan(math.pi * fc / fs), 2 * fs * math.tan(math.pi * f / fs)
    p = wa * np.exp(1j * np.pi * (2 * np.arange(4) + 5) / 8)
    H = np.prod(-p / (1j * W - p))
    tr = np.arange(20001) * 1e-4
    run_ = {"t": tr, "x": np.sin(2 * np.pi * f * tr)}
    tm = np.arange(2001) * 1e-3
    meas = {"t": tm, "x": abs(H) * np.sin(2 * np.pi * f * tm + np.angle(H))}
    u = {"x": "m"}
    m = {"format": "mech-compare-map", "align": "none", "window": [0.2, 2], "channels": [{"measured": "x"}]}
    plain = hk.compare(run_, meas, map=m, run_units=u, measured_units=u)
    m["filter"] = {"order": 4, "cutoff": 200}
    filt = hk.compare(run_, meas, map=m, run_units=u, measured_units=u)
    # the filter's 2.1 ms delay at 20 Hz: NRMSE 0.092 without; with, what is left is the run's 0.1 ms linear steps,
    # (w dt)^2 / 8 = 2e-5 of the amplitude at most (3.5e-6 of the range, RMS, measured), bound 1e-4
    assert plain.channels[0]["nrmse"] > 0.05
    assert filt.channels[0]["nrmse"] < 1e-4
    r = filt.residual(run_, units=u)
    assert math.isclose(math.sqrt(np.sum(r ** 2)), filt.channels[0]["nrmse"], rel_tol=1e-9)
    m["filter"] = {"order": 4, "cutoff": 500}
    with pytest.raises(hk.DataError, match=r"^map: channels\[0\]\.filter\.cutoff: 500 Hz, at or above the record's "
                                           r"Nyquist frequency 500 Hz"):
        hk.compare(run_, meas, map=m, run_units=u, measured_units=u)
    m["filter"] = {"order": 9, "cutoff": 100}
    with pytest.raises(hk.DataError, match=r"^map: filter\.order: 9, expected an integer 1\.\.8$"):
        hk.compare(run_, meas, map=m, run_units=u, measured_units=u)
