"""Ownership (docs/python.md "Ownership and threads"): copies, pickles, read-only output arrays, close() from
another thread, array lengths. The crash cases run in a subprocess, so that a crash fails the test instead of
killing the suite (run under ASan/UBSan by `make test SAN=1` and .ci/run); each failed before its fix with SIGSEGV
(-11) or a wrong number."""
import copy
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX, TOP

D = FIX / "mech" / "dock"
B = FIX / "mech" / "beam"
MODELS = ["pwl-constant.json", "paper-damper-full.json", "bw-basic.json", "iwan-segalman.json"]


def run_py(code, timeout=300):
    """Runs Python code in a fresh interpreter (this package first on its path, cwd the top of the tree)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(hk.__file__).resolve().parents[1]) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-c", code], cwd=TOP, env=env, capture_output=True, text=True,
                       timeout=timeout)
    assert p.returncode == 0, "exit %d (negative: killed by that signal)\n%s" % (p.returncode, p.stderr[-3000:])
    return p


# ---- the reproducers of fixtures/bad/python (issue 42 N17, N18) ----
@pytest.mark.parametrize("name", ["py-close-during-simulate.py", "py-close-docksim-during-run.py",
                                  "py-simulate-into-readonly-memmap.py"])
def test_reproducer(name):
    code = (FIX / "bad" / "python" / name).read_text()
    code = code.replace("3000000", "300000").replace("200000", "20000")   # a tenth of the sizes: seconds, not minutes
    code = code.replace('"/tmp/ro.bin"', repr(os.path.join(os.environ.get("TMPDIR", "/tmp"), "ro-%d.bin" % os.getpid())))
    if "memmap" in name:   # now refused: the reproducer's last call raises ValueError
        code = code.replace('hk.load_model("fixtures/models/pwl-constant.json").simulate(np.linspace(0, 5, 1000), out=out)',
                            'try:\n    hk.load_model("fixtures/models/pwl-constant.json").simulate('
                            'np.linspace(0, 5, 1000), out=out)\nexcept ValueError as e:\n    print(e)')
    p = run_py(code)
    assert "no crash" in p.stdout
    if "memmap" in name:
        assert "out is read-only" in p.stdout


def test_close_from_another_thread_waits_for_the_call():
    # simulate() running in C when close() comes: the call finishes with the right numbers, the element is freed
    # when it returns, later calls raise ClosedError
    p = run_py("""
import threading, time
import numpy as np, hystkit as hk
q = np.sin(np.linspace(0, 60, 400000)) * 0.4
ref = hk.load_model("fixtures/models/paper-damper-full.json").simulate(q)
m = hk.load_model("fixtures/models/paper-damper-full.json")
res = {}
t = threading.Thread(target=lambda: res.setdefault("Q", m.simulate(q)))
t.start(); time.sleep(0.01); m.close(); t.join()
assert np.array_equal(res["Q"], ref)
try:
    m.step(0.1)
except hk.ClosedError:
    print("closed")
s = hk.BeamSim("fixtures/mech/beam/hinges-4.json", iterated=True, duration=2)
t = threading.Thread(target=s.run, args=(5000,))
t.start(); time.sleep(0.05); s.close(); t.join()
print("no crash")
""")
    assert "closed" in p.stdout and "no crash" in p.stdout


# ---- copies: every object that owns C memory copies it or refuses ----
@pytest.mark.parametrize("cls", ["DockSim", "BeamSim"])
def test_copy_of_a_simulation_is_refused_not_shared(cls):
    # before: copy.copy shared the C pointer; closing one and stepping the other was a use after free
    make = ('hk.DockSim("fixtures/mech/dock/s2-A.json")' if cls == "DockSim" else
            'hk.BeamSim("fixtures/mech/beam/baseline.json")')
    p = run_py("""
import copy, pickle, hystkit as hk
s = %s
for f in (copy.copy, copy.deepcopy, pickle.dumps):
    try:
        c = f(s)
    except TypeError as e:
        print("refused:", e)
        continue
    s.close(); c.step()
print("no crash")
""" % make)
    assert p.stdout.count("refused: %s owns C memory" % cls) == 3 and "no crash" in p.stdout


def test_copy_of_a_scenario_is_independent():
    p = run_py("""
import copy, hystkit as hk
s = hk.DockScenario("fixtures/mech/dock/s2-A.json", duration=0.05)
c, d = copy.copy(s), copy.deepcopy(s)
s.close()
for x in (c, d):
    sim = hk.DockSim(x); sim.run(10); print(sim.steps, x.duration)
""")
    assert p.stdout.split() == ["10", "0.05", "10", "0.05"]


@pytest.mark.parametrize("name", MODELS)
def test_model_copy_every_family(name):
    m = hk.load_model(FIX / "models" / name)
    amp = 0.4 if "damper" in name else 2.0
    q = amp * np.sin(np.linspace(0, 9, 400)) * np.linspace(0.3, 1, 400)
    m.simulate(q[:200])
    c, d, e = m.copy(), copy.copy(m), copy.deepcopy(m)          # bw and iwan: ArgumentError before the fix
    ref = m.simulate(q[200:])
    m.close()
    for x in (c, d, e):
        assert (x.q, x.Q) == (q[199], hk.load_model(FIX / "models" / name).simulate(q[:200])[-1])
        assert np.array_equal(x.simulate(q[200:]), ref)          # the same state, evolving independently


def test_copy_of_a_closed_model_raises():
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    m.close()
    for f in (copy.copy, copy.deepcopy):
        with pytest.raises(hk.ClosedError):
            f(m)


# ---- pickles: through the model / scenario text ----
def test_pickle_model_fit_and_scenario(tmp_path):
    for name in MODELS:
        m = hk.load_model(FIX / "models" / name)
        m2 = pickle.loads(pickle.dumps(m))
        assert m2.to_json() == m.to_json() and m2.q == 0 and m2.family == m.family
    m.step(0.5)
    with pytest.raises(TypeError, match="driven Model cannot be pickled"):
        pickle.dumps(m)
    m.reset()
    assert pickle.loads(pickle.dumps(m)).to_json() == m.to_json()
    fit = hk.fit_pwl(hk.read_csv(FIX / "synthetic" / "pwl_double_loop_fit.csv"))
    f2 = pickle.loads(pickle.dumps(fit))
    assert f2.report == fit.report and f2.model.to_json() == fit.model.to_json()
    sc = hk.DockScenario(D / "s2-A.json", duration=0.02)
    sc2 = pickle.loads(pickle.dumps(sc))
    assert sc2.config == sc.config and sc2.name == sc.name
    a, b = hk.run_dock(sc), hk.run_dock(sc2)
    assert a.summary == b.summary


def _fit_in_child(path):
    return hk.fit_pwl(hk.read_csv(path))


def test_multiprocessing_returns_a_fitted_model():
    import multiprocessing as mp
    src = str(FIX / "synthetic" / "pwl_double_loop_fit.csv")
    with mp.get_context("fork").Pool(1) as pool:
        fit = pool.apply(_fit_in_child, (src,))
    here = hk.fit_pwl(hk.read_csv(src))
    assert fit.model.to_json() == here.model.to_json().replace(
        json.dumps(here.report["seconds"]), json.dumps(fit.report["seconds"]))


# ---- read-only outputs (N18) and lengths ----
def test_read_only_outputs_are_refused(tmp_path):
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    out = np.zeros(100)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        m.simulate(np.linspace(0, 1, 100), out=out)
    assert not out.any()                                         # before: silently written
    sim = hk.DockSim(hk.DockScenario(D / "s2-A.json"))
    n = 5
    (tmp_path / "h.bin").write_bytes(bytes(8 * n * len(hk.dock.CHANNELS)))
    hist = np.memmap(tmp_path / "h.bin", dtype=np.float64, mode="r", shape=(n, len(hk.dock.CHANNELS)))
    with pytest.raises(ValueError, match="hist is read-only"):
        sim.run(n, hist=hist)
    rec = np.zeros((n, len(hk.dock.ELEMENTS), 2))
    rec.flags.writeable = False
    with pytest.raises(ValueError, match="rec is read-only"):
        sim.run(n, rec=rec)
    assert sim.steps == 0


def test_replay_lengths_are_checked():
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    q = 3 * np.sin(np.linspace(0, 20, 2000))
    Q = m.replay(q)
    with pytest.raises(ValueError, match="Q has 100 samples, q has 2000"):
        hk.replay(m, q, Q[:100])                                  # before: an NRMSE from memory past the array
    with pytest.raises(ValueError, match="t has 1999 samples, q has 2000"):
        hk.replay(m, q, Q, np.arange(1999.0))
    with pytest.raises(ValueError, match="t has 40 samples, q has 50"):
        m.replay(np.linspace(0, 1, 50), np.arange(40.0))           # before: t = 1.6e-315 in the message
    with pytest.raises(ValueError, match="t has 40 samples, q has 50"):
        m.simulate(np.linspace(0, 1, 50), np.arange(40.0))


# ---- run_dock(duration=) as mech dock --duration (issue 47 item 5) ----
def test_duration_shorter_than_the_view_times(tmp_path):
    late = [p for p in sorted(D.glob("*.json"))
            if max(json.loads(p.read_text()).get("outputs", {}).get("view_times", [0])) > 1]
    assert len(late) >= 20
    for p in late:                                               # before: ParseError outputs.view_times[k]
        sc = hk.DockScenario(p, duration=1)
        assert sc.duration == 1 and sc.config["outputs"]["view_times"]
        sc.close()
    from conftest import BIN, run
    # the CLI's --step comes before --duration's check: 3e4 s at 1e-2 s is 3e6 steps (1.2e8 at the file's step),
    # refused here only for the output size asked to be small
    p = subprocess.run([str(BIN / "mech"), "dock", str(D / "s2-A.json"), "--duration", "3e4", "--step", "1e-2",
                        "--out", str(tmp_path / "big")], capture_output=True, text=True,
                       env=dict(os.environ, HYST_OUTPUT_MAX="1e5"))
    assert p.returncode == 1 and "the outputs would take" in p.stderr and "3e+06 to 3e+06 steps" in p.stderr
    run("mech", "dock", D / "s2-A.json", "--duration", "1", "--out", tmp_path / "o", "--no-plots",
        "--no-records", "-q")
    ref = json.loads((tmp_path / "o" / "summary.json").read_text())
    r = hk.run_dock(D / "s2-A.json", duration=1, records=False)
    assert r.summary["time"] == ref["time"] and r.summary["steps"] == ref["steps"]
    assert {k: v for k, v in r.summary.items() if k != "elements"} == \
        {k: v for k, v in ref.items() if k not in ("elements", "records")}


def test_one_object_one_thread_at_a_time():
    # a step() while the same Model's simulate() runs in C in another thread is refused, not interleaved
    import threading
    import time
    m = hk.load_model(FIX / "models" / "paper-damper-full.json")
    q = np.sin(np.linspace(0, 600, 2000000)) * 0.4
    t = threading.Thread(target=m.simulate, args=(q,))
    t.start()
    t0 = time.monotonic()
    while not m._busy and t.is_alive() and time.monotonic() - t0 < 60:
        time.sleep(0.0005)
    with pytest.raises(hk.StateError, match="runs in another thread"):
        m.step(0.1)
    t.join()
    assert m.q == q[-1] and m.step(0.1) == m.Q
