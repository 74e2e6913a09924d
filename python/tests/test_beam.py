"""Beam runs in memory (hystkit.run_beam over mech_beam_run) against `mech beam sim` on the shipped fixtures: the
history equals the CSV number for number (the CSV is shortest round-trip text, so exact), the hinge records equal
--hinge-records, the summary equals --summary; the C errors arrive with their messages."""
import csv
import json
import warnings

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX, run

D = FIX / "mech" / "beam"


def cli(tmp_path, fixture, *opts):
    out = tmp_path / "cli"
    out.mkdir(exist_ok=True)
    run("mech", "beam", "sim", D / fixture, "-o", out / "h.csv", "--summary", out / "s.json", "--hinge-records",
        out / "hinge", *opts)
    rows = list(csv.reader(open(out / "h.csv")))
    data = np.loadtxt(out / "h.csv", delimiter=",", skiprows=2, ndmin=2)
    return rows[0], rows[1], data, json.loads((out / "s.json").read_text()), out


@pytest.mark.parametrize("fixture, kw, opts", [
    ("baseline.json", {}, ()),                                             # 2 s, the §8 baseline, linear hinge
    ("hinges-4.json", {"duration": 0.4, "iterated": True}, ("--duration", "0.4", "--iterated")),   # 4 gap hinges
    ("fitted-hinge.json", {"duration": 0.3, "F0": 800}, ("--duration", "0.3", "--F0", "800")),      # a model law
    ("paper-4.5.json", {"duration": 0.3, "physical": True, "clearance": 0.002},
     ("--duration", "0.3", "--physical", "--clearance", "0.002")),
])
def test_run_equals_mech_beam_sim(tmp_path, fixture, kw, opts):
    names, units, data, ref, out = cli(tmp_path, fixture, *opts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # the lagged update's energy-balance warning (tested below)
        r = hk.run_beam(D / fixture, **kw)
    assert r.ok and list(r.history) == names and [r.units[c] for c in names] == units
    assert len(r.history["t"]) == len(data) == ref["steps"] + 1 > 2000
    for k, c in enumerate(names):
        assert np.array_equal(r.history[c], data[:, k]), c          # every number, bit for bit
    assert np.count_nonzero(r.history["M_1"]) > 100 and np.ptp(r.history["w_tip"]) > 1e-3   # a real response
    assert r.summary == ref                                         # every key, every number
    for j, (name, rec) in enumerate(r.hinges.items()):
        h = np.loadtxt(out / ("hinge%d.csv" % (j + 1)), delimiter=",", skiprows=2)
        assert name == "hinge%d" % (j + 1) and rec["unit_Q"] == "N m"
        assert np.array_equal(rec["t"], h[:, 0]) and np.array_equal(rec["q"], h[:, 1]) and np.array_equal(rec["Q"], h[:, 2])
    assert len(r.hinges) == len(ref["hinges"]) >= 1


def test_dict_with_base_dir_and_arrays_written_in_place(tmp_path):
    cfg = json.loads((D / "fitted-hinge.json").read_text())
    cfg["solver"]["duration"] = 0.05
    r = hk.run_beam(cfg, base_dir=D)             # hinge-true.json resolved against base_dir
    f = tmp_path / "c.json"
    f.write_text(json.dumps(dict(cfg, hinges=[dict(cfg["hinges"][0], model=str(D / "hinge-true.json"))])))
    r2 = hk.run_beam(f)
    assert all(np.array_equal(r.history[c], r2.history[c]) for c in r.history) and r.summary == r2.summary
    # the C side wrote into one block that the history columns view (no copy)
    base = r.history["t"].base
    assert base is not None and all(a.base is base for a in r.history.values())
    assert r.hinges["hinge1"]["Q"] is r.history["M_1"]
    assert r.summary["steps"] == 500 and r.history["t"][-1] == pytest.approx(0.05, abs=1e-15)


def test_lagged_gap_hinges_warn_about_the_energy_balance():
    with pytest.warns(UserWarning, match="energy balance is off"):
        hk.run_beam(D / "hinges-4.json", duration=0.4)


def test_errors_carry_the_c_message(tmp_path):
    cfg = json.loads((D / "baseline.json").read_text())
    with pytest.raises(hk.ParseError) as e:
        hk.run_beam(dict(cfg, solver={"dt": 1e-4, "duratoin": 1}), name="b.json")
    assert str(e.value).startswith('b.json: solver."duratoin": unknown key (known: beta, gamma, dt, duration')
    with pytest.raises(hk.ModelError) as e:
        hk.run_beam(dict(cfg, hinges=[dict(cfg["hinges"][0], position=3.2)]), name="b.json")
    assert str(e.value) == "b.json: hinges[0].position = 3.2: outside the beam (0, 3)" and e.value.key == "hinges[0].position"
    with pytest.raises(hk.ArgumentError) as e:
        hk.run_beam(D / "baseline.json", dt=0)
    assert "solver.dt 0 s: expected a dt > 0 s" in str(e.value)
    with pytest.raises(hk.HystIOError) as e:
        hk.run_beam(dict(cfg, hinges=[dict(cfg["hinges"][0], law="model", model="nope.json")]), base_dir=tmp_path,
                    name="b.json")
    assert str(e.value).startswith("b.json: hinges[0].model: ") and "nope.json" in str(e.value)
    with pytest.raises(hk.ParseError) as e:
        hk.run_beam('{"format": "mech-beam", "version": 1,}', name="t.json")
    assert str(e.value).startswith("t.json:1:")
    with pytest.raises(ValueError):
        hk.run_beam(D / "baseline.json", clearance=-1)


def test_failed_step_keeps_the_rows_before_it(tmp_path):
    """A step that fails (an iterated update allowed 2 passes to a tolerance it cannot reach) ends the run as in
    `mech beam sim`: the rows before it are kept and the message is the program's."""
    import subprocess
    from conftest import BIN
    cfg = {"format": "mech-beam", "version": 1, "hinges": [{"position": 1.5, "c": 1, "mass": 0.02, "clearance": 1e-3}],
           "load": {"F0": 300, "width": 0.005},
           "solver": {"dt": 1e-4, "duration": 0.05, "update": "iterated", "max_iter": 2, "tol": 1e-300}}
    f = tmp_path / "fail.json"
    f.write_text(json.dumps(cfg))
    p = subprocess.run([str(BIN / "mech"), "beam", "sim", str(f), "-o", str(tmp_path / "h.csv")], capture_output=True,
                       text=True)
    r = hk.run_beam(cfg)
    assert p.returncode == 1 and not r.ok and r.summary["steps"] == 0
    msg = "t = 0.0001 s (step 1): the iterated update did not converge in 2 passes"
    assert r.summary["error"].startswith(msg) and ("mech beam sim: " + r.summary["error"]) in p.stderr
    data = np.loadtxt(tmp_path / "h.csv", delimiter=",", skiprows=2, ndmin=2)
    assert len(data) == len(r.history["t"]) == 1
    assert all(np.array_equal(r.history[c], data[:, k]) for k, c in enumerate(r.history))


@pytest.mark.parametrize("fixture, kw", [("baseline.json", {"duration": 0.2}),
                                         ("hinges-4.json", {"duration": 0.2, "iterated": True}),
                                         ("fitted-hinge.json", {"duration": 0.2, "F0": 800})])
def test_beam_sim_steps_equal_run_beam(fixture, kw):
    """Stepping from Python (BeamSim over mech_beam_step) takes exactly run_beam's steps: every observed value equals
    run_beam's history at the same step, bit for bit, including the hinge records (a model law's trial/commit)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = hk.run_beam(D / fixture, **kw)
    with hk.BeamSim(D / fixture, **kw) as s:
        assert s.steps == 0 and s.time == 0
        nh = s.n_hinges
        for i in range(1, len(r.history["t"])):
            s.step()
            o = s.observe()
            assert o["t"] == r.history["t"][i] and o["w_tip"] == r.history["w_tip"][i]
            assert o["theta"] == r.history["theta"][i] and o["theta_dot"] == r.history["theta_dot"][i]
            for j in range(nh):
                assert o["dtheta"][j] == r.history["dtheta_%d" % (j + 1)][i]
                assert o["M"][j] == r.history["M_%d" % (j + 1)][i]
        assert s.steps == len(r.history["t"]) - 1 == r.summary["steps"]
        e = s.observe(energy=True)
        assert e["W_hinge"] == pytest.approx(r.summary["energy"]["work_hinges"], rel=1e-12, abs=1e-15)
        x, v = s.state
        assert x.shape == v.shape and x[0] == e["theta"] and v[0] == e["theta_dot"]


def test_beam_sim_run_and_close():
    """run(n) is n steps; a closed simulation refuses use; a bad configuration raises with the key"""
    s = hk.BeamSim(D / "baseline.json", duration=0.1)
    t = s.run(50)
    assert s.steps == 50 and t == pytest.approx(50 * json.loads((D / "baseline.json").read_text())["solver"]["dt"])
    s.close()
    s.close()   # idempotent
    with pytest.raises(hk.ClosedError):
        s.step()
    d = json.loads((D / "baseline.json").read_text())
    d["solver"]["dt"] = -1
    with pytest.raises(hk.HystError, match="solver.dt"):
        hk.BeamSim(d, base_dir=D)
