"""Docking runs in memory against `mech dock`'s summary.json, stepping for co-simulation, and arrays written in
place. A short, coarse-step S1-A (1 s at h = 0.5 ms) keeps it fast."""
import json

import numpy as np
import pytest

import hystkit as hk
from hystkit.dock import CHANNELS, ELEMENTS
from conftest import FIX, run

D = FIX / "mech" / "dock"


@pytest.fixture(scope="module")
def scen():
    d = json.loads((D / "s1-A.json").read_text())
    d.update(duration=1.0, capture_timeout=1.0, step=0.0005, integration={"tolerance": 0})   # fixed steps
    d["outputs"] = {"rate": 0, "records": False, "plots": False, "animation": False}
    return d


def test_run_equals_mech_dock_summary(tmp_path, scen):
    f = tmp_path / "s1-short.json"
    f.write_text(json.dumps(dict(scen, laws={k: str(D / v) for k, v in scen["laws"].items()})))
    run("mech", "dock", f, "--out", tmp_path / "out", "--no-plots", "-q")
    ref = json.loads((tmp_path / "out" / "summary.json").read_text())
    r = hk.run_dock(f)
    assert r.ok and r.summary["steps"] == 2000 and r.summary["captured"]
    assert r.summary == ref                 # every key, every number (floats read back exactly)
    # the same from the dict, laws resolved against base_dir
    r2 = hk.run_dock(hk.DockScenario(scen, base_dir=D, name=str(f)))
    assert r2.summary == ref


def test_history_and_records(scen):
    r = hk.run_dock(hk.DockScenario(scen, base_dir=D))
    n = r.summary["steps"] + 1
    assert list(r.history)[0] == "t" and len(r.history["t"]) == n and r.units["head_fx"] == "N"
    assert r.history["t"][0] == 0 and abs(r.history["t"][-1] - 1.0) < 1e-12
    axial = r.elements["axial"]
    assert axial["unit_q"] == "m" and len(axial["q"]) == n
    # the work the simulator booked = the loop integral of the element's record (as the CLI's e2e test checks)
    work = next(e["work"] for e in r.summary["elements"] if e["name"] == "axial")
    L = hk.loops(axial["q"], axial["Q"])
    assert abs(L.total_energy - work) <= 1e-6 * abs(work)
    # energy budget: initial KE = kinetic + stored + dissipated + residual (docs/dock.md)
    e = r.summary["energy"]
    assert abs(e["e_residual"]) <= e["residual_max"] + 1e-12 and e["residual_max_percent"] < 1


def test_stepwise_equals_batched(scen):
    sc = hk.DockScenario(scen, base_dir=D)
    a, b = hk.DockSim(sc), hk.DockSim(sc)
    for _ in range(300):
        a.step()
    hist = np.empty((300, len(CHANNELS)))
    addr = hist.ctypes.data
    assert b.run(300, hist=hist) == 300 and hist.ctypes.data == addr
    assert np.array_equal(a.channels, b.channels) and np.array_equal(hist[-1], b.channels)
    st = a.state
    assert st["t"] == a.time == pytest.approx(0.15) and a.steps == 300
    assert set(st) == set(CHANNELS) and a.element("axial") == b.element(0)
    assert hist[0, CHANNELS.index("t")] == pytest.approx(0.0005)
    with pytest.raises(IndexError):
        a.element(len(ELEMENTS))


def test_scenario_from_text_dict_or_file(scen):
    a = hk.DockScenario(scen, base_dir=D)
    assert hk.DockScenario(json.dumps(scen), base_dir=D).config == a.config
    assert hk.DockScenario(json.dumps(scen).encode(), base_dir=D).config == a.config
    assert a.config["step"] == 0.0005 and a.config["duration"] == 1.0
    assert hk.DockScenario(D / "s1-A.json").config["step"] == 0.00025


def test_run_checks_arrays(scen):
    s = hk.DockSim(hk.DockScenario(scen, base_dir=D))
    with pytest.raises(ValueError):
        s.run(10, hist=np.empty((10, 3)))


def test_bad_scenario_names_the_key(scen):
    with pytest.raises(hk.ParseError, match=r"^s\.json: step = -1: expected > 0 s") as e:
        hk.DockScenario(dict(scen, step=-1), base_dir=D, name="s.json")
    assert e.value.key == "step"
    with pytest.raises(hk.HystIOError):
        hk.DockScenario(scen, base_dir=D / "nowhere")


def _shipped_against_mech_dock(tmp_path, name, duration):
    """(a shipped scenario, a duration) => its copy in tmp_path (no outputs, laws by absolute path), the summary.json
    `mech dock` writes for it, and run_dock's run of it"""
    d = json.loads((D / name).read_text())
    d.update(duration=duration)
    d["outputs"] = {"rate": 0, "records": False, "plots": False, "animation": False}
    f = tmp_path / name
    f.write_text(json.dumps(dict(d, laws={k: str(D / v) for k, v in d["laws"].items()})))
    run("mech", "dock", f, "--out", tmp_path / "out", "--no-plots", "-q")
    return f, json.loads((tmp_path / "out" / "summary.json").read_text()), hk.run_dock(f, records=False)


def test_whole_process_summary_equals_mech_dock(tmp_path):
    """The whole process (docs/dock-process.md §8) in memory: S1-B with the process to 35 s (capture, absorption
    with the drive locked, the absorption timeout at 30 s, retraction), error-controlled steps in chunks; the summary
    with its "process" object equals mech dock's summary.json, and the stepped DockSim ends where run_dock ends."""
    f, ref, r = _shipped_against_mech_dock(tmp_path, "s1-400-B.json", 35.0)
    assert r.ok and r.summary == ref
    p = r.summary["process"]
    assert [e["to"] for e in p["sequence"] if e["from"] != e["to"]] == ["contact", "absorb", "retract"]
    assert p["final_state"] == "retract" and p["t_retract"] == pytest.approx(r.summary["capture_time"] + 30.0, abs=5e-3)   # the absorption timeout
    assert len(r.history["t"]) == r.summary["steps"] + 1 and r.history["t"][-1] == pytest.approx(35.0)
    assert r.history["seq_state"][-1] == 4 and r.history["drive_u"][-1] > 0   # retracting
    sim = hk.DockSim(hk.DockScenario(f))
    while not sim.done:
        sim.step()
    assert sim.steps == r.summary["steps"] and sim.process == p
    # a duration for an error-controlled scenario: the same run, ended at that time (as mech dock --duration)
    r10 = hk.run_dock(f, duration=10, records=False)
    assert r10.ok and r10.history["t"][-1] == pytest.approx(10.0) and r10.summary["steps"] < r.summary["steps"]
    run("mech", "dock", f, "--duration", "10", "--out", tmp_path / "out10", "--no-plots", "-q")
    assert r10.summary["steps"] == json.loads((tmp_path / "out10" / "summary.json").read_text())["steps"]


def test_movable_limiter_summary_equals_mech_dock(tmp_path):
    """Variant C (docs/dock-process.md §8.5) in memory: S3x-C into the module cone to 12 s, where the movable
    limiter's pads meet the cone wall during the capture; the summary with its "movable_limiter" object equals mech
    dock's summary.json, the history carries the limiter's stroke and guide friction, and A or B report no limiter."""
    f, ref, r = _shipped_against_mech_dock(tmp_path, "s3x-400-C.json", 12.0)
    assert r.ok and r.summary == ref and ref["variant"] == "C"
    ml = r.summary["movable_limiter"]
    assert ml["first_contact"] is not None and ml["impacts"] > 0 and ml["pad_force_max"] > 0
    assert ml["loaded_steps"] > 0 and ml["guide_friction_work"] >= 0
    x, gf = r.history["limiter_x"], r.history["limiter_guide_f"]
    assert x.max() == pytest.approx(ml["stroke_max"]) and abs(gf).max() == pytest.approx(ml["guide_friction_max"])
    assert hk.DockSim(hk.DockScenario(D / "s1-B.json")).movable_limiter is None


def test_roll_guides_summary_equals_mech_dock(tmp_path):
    """RP-2's roll guides (docs/dock-process.md §9a) in memory: S3x-400-C-short to 325 s, where the pins first enter
    their sockets at the end of the retraction (317.9 s; before RP-2's 7.5 mm latch slots, docs/rp2-parameters.md §12,
    the short cone's head rocked a pin in at 83 s); the summary with its "process" "roll_guides" object equals mech
    dock's summary.json (the ctypes mirror of mech_dock_process_summary carries the guides' fields)."""
    d = json.loads((D / "rp2" / "s3x-400-C-short.json").read_text())
    d.update(duration=325.0)
    d["outputs"] = {"rate": 0, "records": False, "plots": False, "animation": False}
    f = tmp_path / "s3x-400-C-short.json"
    f.write_text(json.dumps(dict(d, laws={k: str((D / "rp2" / v).resolve()) for k, v in d["laws"].items()})))
    run("mech", "dock", f, "--out", tmp_path / "out", "--no-plots", "-q")
    ref = json.loads((tmp_path / "out" / "summary.json").read_text())
    r = hk.run_dock(f, records=False)
    assert r.ok and r.summary == ref
    g = r.summary["process"]["roll_guides"]
    assert g["t_enter"] is not None and 300 < g["t_enter"] < 325 and g["force_max"] >= 0
