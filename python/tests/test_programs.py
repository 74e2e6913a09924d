"""The jobs whose one implementation is a program (hystkit.programs): the Bouc-Wen and Iwan fits with their
report, `hyst fit all`'s ranking, `mech sweep`; plus `hyst loops`'s options through the library. Each result is
compared with the program run by hand on the same file."""
import csv
import json
import re

import numpy as np
import pytest

import hystkit as hk
from conftest import FIX, run

SYN = FIX / "synthetic"
REC = SYN / "pwl_double_loop_fit.csv"


def _no_wall_time(text):
    return re.sub(r'("seconds":\s*)[-0-9.eE+]+', r"\1<wall time>", text)


@pytest.mark.parametrize("family,opts,kw", [("bw", ["--n", "1"], {"n": np.int64(1)}),
                                            ("iwan", ["--elements", "16"], {"elements": 16}),
                                            ("clough", [], {})])
def test_family_fit_equals_the_program(tmp_path, family, opts, kw):
    run("hyst", "fit", family, REC.name, "-o", tmp_path / "cli.json", "-q", *opts, cwd=SYN)
    fit = getattr(hk, "fit_" + family)(hk.read_csv(REC), **kw)
    fit.model.save(tmp_path / "py.json")
    assert _no_wall_time((tmp_path / "py.json").read_text()) == _no_wall_time((tmp_path / "cli.json").read_text())
    assert fit.model.family == family and fit.report["parameters"]
    # arrays give the same fit (the record written with 17 digits reads back exactly)
    rec = hk.read_csv(REC)
    again = getattr(hk, "fit_" + family)(rec.q, rec.Q, rec.t, **kw)
    assert again.report["parameters"] == fit.report["parameters"]


def test_family_fit_errors():
    with pytest.raises(ValueError, match=r"n: expected a whole number 1\.\.20, got 2\.5"):
        hk.fit_bw(np.zeros(50), np.zeros(50), n=2.5)
    with pytest.raises(hk.HystError, match="samples|cycle|loop"):
        hk.fit_bw(np.linspace(0, 1, 50), np.linspace(0, 1, 50))        # monotonic: no loop to fit


def test_fit_all_equals_the_program(tmp_path):
    run("hyst", "fit", "all", REC.name, "-d", tmp_path / "d", "--families", "pwl,kin", "--json",
        tmp_path / "cli.json", cwd=SYN)
    ref = json.loads((tmp_path / "cli.json").read_text())
    fa = hk.fit_all(hk.read_csv(REC), families=["pwl", "kin"], directory=tmp_path / "py", plot=tmp_path / "all.png")
    assert fa.best == ref["best"] and set(fa.models) == {"pwl", "kin"}
    for row, f in zip(range(len(fa.table)), ref["families"]):
        for k in ("rank", "parameters", "nrmse", "cycle_nrmse", "energy_ratio", "cycle_energy_error", "aic", "bic"):
            assert fa.table[k][row] == f[k], k
    assert (tmp_path / "all.png").stat().st_size > 1000 and (tmp_path / "py" / "fitted-kin.json").exists()
    assert fa.models["pwl"].to_json() == hk.load_model(tmp_path / "py" / "fitted-pwl.json").to_json()
    assert "<table>" in fa._repr_html_() and len(repr(fa)) < 200


def test_loops_branches_equal_hyst_loops(tmp_path):
    run("hyst", "loops", REC, "--branches", tmp_path / "b.csv", "--amp-tol", "0.2", "-q")
    rows = list(csv.reader(open(tmp_path / "b.csv")))[1:]
    rec = hk.read_csv(REC)
    L = hk.loops(rec.q, rec.Q, amp_tol=0.2)
    for side in ("positive", "negative"):
        for br in ("forward", "backward"):
            q, Q = L.branches[side][br]
            cli = np.array([[float(r[2]), float(r[3])] for r in rows if r[0] == side[:3] and r[1] == br])
            assert len(q) == len(cli) > 10 and np.array_equal(q, cli[:, 0]) and np.array_equal(Q, cli[:, 1])


def test_sweep_table_as_arrays(tmp_path):
    plan = FIX / "mech" / "sweep" / "test-grid.json"
    run("mech", "sweep", plan, "--out", tmp_path / "cli", "--no-plots", "-q")
    s = hk.run_sweep(plan, tmp_path / "py", jobs=np.int64(2))
    assert (tmp_path / "py" / "results.csv").read_bytes() == (tmp_path / "cli" / "results.csv").read_bytes()
    assert len(s) == 6 and s.results["peak_axial"].dtype == np.float64 and s.results["status"][0] == "ok"
    rows = list(csv.DictReader(open(tmp_path / "cli" / "results.csv")))
    assert [float(r["peak_axial"]) for r in rows] == s.results["peak_axial"].tolist()
    assert np.isnan(s.results["capture_time"][[float(r["captured"]) == 0 for r in rows]]).all()
    again = hk.read_sweep(tmp_path / "py").results
    assert s.summary["runs"] == 6 and s.results["message"].tolist() == [""] * 6
    assert all(np.array_equal(again[k], v, equal_nan=v.dtype.kind == "f") for k, v in s.results.items())
    # a plan given as a dict, its scenario relative to base_dir; a bad plan raises with the program's message
    d = json.loads(plan.read_text())
    assert len(hk.run_sweep(d, tmp_path / "dict", base_dir=plan.parent)) == 6
    d["vary"] = {"initial.pitch": {"grid": [1, 2]}}
    with pytest.raises(hk.ProgramError, match=r'initial\."pitch": unknown key'):
        hk.run_sweep(d, tmp_path / "bad", base_dir=plan.parent)
    with pytest.raises(FileNotFoundError):
        hk.run_sweep(tmp_path / "nope.json")


def test_tables_to_pandas_and_html():
    pd = pytest.importorskip("pandas")
    rec = hk.read_csv(REC)
    L = hk.loops(rec.q, rec.Q)
    df = L.cycles.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df.columns) == L.cycles.columns
    assert np.array_equal(df["energy"].to_numpy(), L.energies)
    h = L.cycles._repr_html_()
    assert h.count("<tr>") == len(L.cycles) + 1 and "xi_eq" in h
    assert repr(L.cycles).startswith("Table(7 rows x 14 columns: i0, i1, amp_pos")


def test_find_program_order_and_absence(tmp_path, monkeypatch):
    import hystkit.programs as P
    monkeypatch.delenv("HYSTKIT_BINDIR", raising=False)
    pkg = tmp_path / "prefix" / "lib" / "python3.11" / "site-packages" / "hystkit"
    (pkg / "bin").mkdir(parents=True)
    monkeypatch.setattr(P, "_here", pkg)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError, match="the program 'hyst' was not found"):
        P.find_program("hyst")
    (tmp_path / "prefix" / "bin").mkdir()
    for d in (tmp_path / "prefix" / "bin", pkg / "bin"):         # <prefix>/bin, then the package's own bin/ first
        (d / "hyst").write_text("#!/bin/sh\n")
        (d / "hyst").chmod(0o755)
        assert P.find_program("hyst") == str(d / "hyst")
    monkeypatch.setenv("HYSTKIT_BINDIR", str(tmp_path / "prefix" / "bin"))
    assert P.find_program("hyst") == str(tmp_path / "prefix" / "bin" / "hyst")


BWBN = """{"format": "hyst-model", "version": 1, "model": "bw", "units": {"q": "mm", "Q": "N"},
 "k": 200, "alpha": 0.05, "A": 1, "beta": 0.6, "gamma": 0.4, "n": 1.5, "delta_nu": 0.0002, "delta_eta": 0.0001,
 "pinching": true, "zeta_s": 0.8, "pinch_p": 0.002, "pinch_q": 0.1, "psi": 0.4, "lambda": 0.5}"""


def test_fit_bwbn_equals_the_program(tmp_path):
    # a degrading, pinching record from known parameters (as tests/e2e/test_fit_families.sh makes it)
    (tmp_path / "true.json").write_text(BWBN)
    run("hyst", "sim", "true.json", "--protocol", "triangle", "--amplitudes", "1,2,3,4", "--cycles", "2",
        "--points", "400", "--noise", "1%", "--seed", "5", "-o", "rec.csv", cwd=tmp_path)
    run("hyst", "fit", "bwbn", "rec.csv", "-o", "cli.json", "-q", "--starts", "1", cwd=tmp_path)
    fit = hk.fit_bwbn(tmp_path / "rec.csv", starts=np.int64(1))
    fit.model.save(tmp_path / "py.json")
    assert _no_wall_time((tmp_path / "py.json").read_text()) == _no_wall_time((tmp_path / "cli.json").read_text())
    info = fit.model.info
    assert fit.model.family == "bw" and info.get("pinching") is True   # a bw model file with its pinching keys
    assert abs(info["zeta_s"] - 0.8) < 0.1 and fit.report["nrmse"] < 0.02
