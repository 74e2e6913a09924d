"""Record conditioning in the Python functions (trim_rest, remove_offset, rest_tol of loops, replay, fit_pwl,
fit_kin): the same library function (hy_condition) as `hyst ... --trim-rest --remove-offset`, so a clean record
padded with rest rows and offsets gives the clean record's loops, an exact replay of its true model and the same
fit; the energy-weighted cycle energy error of replay."""
import json

import numpy as np
import pytest

import hystkit as hk
from hystkit.loops import loops
from hystkit.replay import replay

BW = {"format": "hyst-model", "version": 1, "model": "bw", "k": 200, "alpha": 0.1, "A": 1, "beta": 0.6,
      "gamma": 0.4, "n": 1}


@pytest.fixture
def records(tmp_path):
    path = tmp_path / "bw.json"
    path.write_text(json.dumps(BW))
    model = hk.Model.load(str(path))
    f = (np.arange(1, 801) % 200) / 200.0
    amp = np.repeat([1.0, 2.0, 3.0, 3.0], 200)
    q = np.concatenate([[0.0], amp * np.where(f < 0.25, 4 * f, np.where(f < 0.75, 2 - 4 * f, 4 * f - 4))])
    Q = model.replay(q, None)
    pad_q = np.concatenate([np.full(500, -3.2), q - 3.2, np.full(300, -3.2)])
    pad_Q = np.concatenate([np.full(500, 0.5), Q + 0.5, np.full(300, Q[-1] + 0.5)])
    return model, q, Q, pad_q, pad_Q


def test_loops_see_the_clean_record(records):
    _, q, Q, pq, pQ = records
    clean = loops(q, Q)
    cond = loops(pq, pQ, trim_rest=True, remove_offset="q,Q", rest_tol=0.01)
    assert cond.conditioning["n_out"] == q.size
    assert cond.conditioning["trimmed_start"] == 500 and cond.conditioning["trimmed_end"] == 300
    assert cond.conditioning["q_offset"] == pytest.approx(-3.2, abs=1e-12)
    assert cond.conditioning["Q_offset"] == pytest.approx(0.5, abs=1e-12)
    assert cond.threshold == pytest.approx(clean.threshold, rel=1e-12)
    assert loops(q, Q).conditioning is None


def test_replay_exact_after_conditioning(records):
    model, q, Q, pq, pQ = records
    r = replay({"bw": model}, pq, pQ, trim_rest=True, remove_offset="q,Q", rest_tol=0.01)["bw"]
    assert r["nrmse"] < 1e-9
    assert r["cycle_energy_error"] < 1e-9
    assert r["conditioning"]["n_out"] == q.size
    raw = replay({"bw": model}, pq, pQ)["bw"]
    assert raw["nrmse"] > 0.05 and raw["conditioning"] is None


def test_fit_reports_the_conditioning(records):
    _, q, Q, pq, pQ = records
    fit = hk.fit_pwl(pq, pQ, trim_rest=True, remove_offset="q,Q", rest_tol=0.01)
    assert fit.report["conditioning"]["n_out"] == q.size
    assert fit.report["samples"] == q.size  # the fit saw the conditioned rows only
    assert hk.fit_pwl(q, Q).report.get("conditioning") is None
    # the model file's provenance, as `hyst fit pwl --trim-rest --remove-offset q,Q` writes it
    prov = fit.model.info["provenance"]["conditioning"]
    assert prov["rows_kept"] == q.size and prov["rows_in"] == pq.size
    assert prov["trimmed_start"] == 500 and prov["trimmed_end"] == 300
    assert prov["remove_offset"] == "q,Q" and prov["trim_rest"] is True
    assert prov["q_offset"] == pytest.approx(-3.2, abs=1e-12) and prov["rest_tol"] == 0.01
    assert "provenance" not in hk.fit_pwl(q, Q).model.info


def test_bad_options():
    q = np.linspace(0, 1, 10)
    with pytest.raises(ValueError, match="remove_offset"):
        loops(q, q, remove_offset="x")
    with pytest.raises(ValueError, match="rest_tol"):
        loops(q, q, trim_rest=True, rest_tol=-1)
    with pytest.raises(hk.HystError if hasattr(hk, "HystError") else Exception, match="rest segment"):
        loops(q, q, remove_offset="q")
