"""Models (load/save, step, simulate, copy) and fits against the `hyst` program's files."""
import re

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX, run

SYN = FIX / "synthetic"


def _no_wall_time(text):
    """The report's wall time of the fit ("seconds") differs from run to run; everything else must not."""
    out, n = re.subn(r'("seconds":\s*)[-0-9.eE+]+', r"\1<wall time>", text)
    assert n == 1
    return out


@pytest.mark.parametrize("name,kind", [("pwl_asymmetric", "constant"), ("pwl_friction", "friction")])
def test_fit_pwl_equals_cli_model_file(tmp_path, name, kind):
    src = SYN / (name + "_fit.csv")
    run("hyst", "fit", "pwl", src, "--kind", kind, "-o", tmp_path / "cli.json")
    model, report = hk.fit_pwl(hk.read_csv(src), kind=kind)
    model.save(tmp_path / "py.json")
    cli, py = (tmp_path / "cli.json").read_text(), (tmp_path / "py.json").read_text()
    assert _no_wall_time(py) == _no_wall_time(cli)
    assert report["options"]["kind"] == kind and model.family == "pwl"


def test_fit_pwl_options_reach_c(tmp_path):
    src = SYN / "pwl_double_loop_fit.csv"
    run("hyst", "fit", "pwl", src, "--segments", "3,4", "-o", tmp_path / "cli.json")
    hk.fit_pwl(hk.read_csv(src), segments=(3, 4)).model.save(tmp_path / "py.json")
    assert _no_wall_time((tmp_path / "py.json").read_text()) == _no_wall_time((tmp_path / "cli.json").read_text())


def test_fit_kin_equals_cli_model_file(tmp_path):
    src = SYN / "kin_paper_fit.csv"
    run("hyst", "fit", "kin", src, "-o", tmp_path / "cli.json", "-q")
    fit = hk.fit_kin(hk.read_csv(src))
    fit.model.save(tmp_path / "py.json")
    assert (tmp_path / "py.json").read_text() == (tmp_path / "cli.json").read_text()
    assert fit.model.family == "kin" and "warnings" in fit.report


def test_load_save_round_trip(tmp_path):
    for f in ("pwl-constant.json", "paper-damper-full.json"):
        m = hk.load_model(FIX / "models" / f)
        m.save(tmp_path / f)
        again = hk.load_model(tmp_path / f)
        assert again.to_json() == m.to_json()


def _drive(n=4001):
    t = np.linspace(0, 4, n)
    return t, 7.5 * np.sin(2 * np.pi * t) * np.minimum(1, 0.3 + t / 2)


def test_simulate_equals_steps_and_replay():
    t, q = _drive()
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    Qb = m.simulate(q, t)
    s = hk.load_model(FIX / "models" / "pwl-constant.json")
    Qs = np.array([s.step(x, qd) for x, qd in zip(q, np.gradient(q, t) * 0 + np.r_[0, np.diff(q) / np.diff(t)])])
    assert np.array_equal(Qb, Qs)
    assert np.array_equal(Qb, m.replay(q, t))
    assert (m.q, m.Q) == (q[-1], Qb[-1]) and m.state == s.state


def test_simulate_writes_into_the_callers_array():
    t, q = _drive()
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    out = np.full(q.size, np.nan)
    addr = out.ctypes.data
    r = m.simulate(q, t, out=out)
    assert r is out and out.ctypes.data == addr and not np.isnan(out).any()
    assert np.array_equal(out, m.replay(q, t))
    with pytest.raises(ValueError):
        m.simulate(q, out=np.empty(q.size, dtype=np.float32))
    with pytest.raises(ValueError):
        m.simulate(q, out=np.empty(2 * q.size)[::2])


def test_batches_continue_from_the_committed_state():
    t, q = _drive()
    a = hk.load_model(FIX / "models" / "pwl-constant.json")
    b = hk.load_model(FIX / "models" / "pwl-constant.json")
    whole = a.simulate(q)
    parts = np.concatenate([b.simulate(q[:1000]), b.simulate(q[1000:2500]), b.simulate(q[2500:])])
    assert np.array_equal(whole, parts)


def test_copy_has_its_own_state():
    t, q = _drive()
    m = hk.load_model(FIX / "models" / "paper-damper-full.json")
    qk = q / 20                          # inside the kin model's range
    m.simulate(qk[:2000])
    c = m.copy()
    rest_m = m.simulate(qk[2000:])
    rest_c = c.simulate(qk[2000:])
    assert np.array_equal(rest_m, rest_c)          # same state, same path
    c.simulate(qk[:500])
    assert c.q != m.q                              # ... then they evolve independently


def test_trial_commit_revert():
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    m.step(2.0)
    Q0 = m.Q
    Qt, k = m.trial(3.0)
    assert m.q == 2.0 and m.Q == Q0                # a trial does not move the committed state
    m.revert()
    assert m.trial(3.0) == (Qt, k)                 # the same trial again gives the same answer
    m.commit()
    assert (m.q, m.Q) == (3.0, Qt)
