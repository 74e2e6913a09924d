"""Lifetime: a model or a scenario freed while something still uses it is impossible (Python references) or an
error (ClosedError), never a crash. Run under AddressSanitizer by `make test SAN=1`."""
import gc
import json

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX

D = FIX / "mech" / "dock"


def test_copy_outlives_the_original():
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    m.simulate(np.linspace(0, 3, 50))
    c = m.copy()
    del m
    gc.collect()
    assert np.isfinite(c.simulate(np.linspace(3, -3, 100))).all()      # the shared C model is still there


def test_closed_model_raises():
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    c = m.copy()
    m.close()
    m.close()                                                          # idempotent
    for call in (lambda: m.step(1.0), lambda: m.simulate([1.0]), lambda: m.to_json(), lambda: m.copy(),
                 lambda: m.trial(1.0), lambda: m.state, lambda: m.replay([1.0])):
        with pytest.raises(hk.ClosedError):
            call()
    assert c.step(1.0) == hk.load_model(FIX / "models" / "pwl-constant.json").step(1.0)
    with hk.load_model(FIX / "models" / "pwl-constant.json") as w:
        w.step(1.0)
    with pytest.raises(hk.ClosedError):
        w.step(2.0)


def _scen():
    d = json.loads((D / "s1-A.json").read_text())
    d.update(duration=0.05, step=0.0005)
    d["outputs"] = {"rate": 0, "records": False, "plots": False}
    return hk.DockScenario(d, base_dir=D)


def test_scenario_cannot_be_closed_under_a_simulation():
    sc = _scen()
    sim = hk.DockSim(sc)
    with pytest.raises(hk.ClosedError, match="used by 1 simulation"):
        sc.close()
    sim.step()                                                         # still fine
    sim.close()
    with pytest.raises(hk.ClosedError):
        sim.step()
    sc.close()
    with pytest.raises(hk.ClosedError):
        hk.DockSim(sc)


def test_simulation_keeps_its_scenario_alive():
    sim = hk.DockSim(_scen())                                          # the only reference is the simulation's
    gc.collect()
    for _ in range(20):   # the 0.05 s run ends within 20 error-controlled steps; a step after the end takes none
        sim.step()
    assert sim.done and 0 < sim.steps <= 20 and sim.summary["steps"] == sim.steps
