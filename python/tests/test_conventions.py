"""Conventions (issue 47 item 6): a docstring on every public name, type hints, short reprs, documented exception
types, NumPy integers where an int is expected; and the small defects of item 6, each failing before its fix."""
import errno
import inspect

import numpy as np
import pytest

import hystkit as hk
import hystkit._lib as L
from conftest import FIX

D = FIX / "mech" / "dock"
B = FIX / "mech" / "beam"


def public_names():
    """Every public name of the package: the names of hk.__all__ and the public methods and properties of its
    classes (with the modules' own public functions, e.g. hystkit.plot)."""
    out = []
    for n in hk.__all__:
        obj = getattr(hk, n)
        out.append((n, obj))
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for k, v in vars(obj).items():
                if not k.startswith("_") and (inspect.isfunction(v) or isinstance(v, (property, classmethod))):
                    out.append(("%s.%s" % (n, k), v))
        if inspect.ismodule(obj):
            out += [("%s.%s" % (n, k), getattr(obj, k)) for k in obj.__all__]
    return out


def test_every_public_name_has_a_docstring():
    names = public_names()
    assert len(names) > 100
    missing = [n for n, o in names if not (getattr(o, "__func__", o).__doc__ or "").strip()]
    assert missing == []


def test_public_functions_have_type_hints():
    funcs = [(n, o) for n, o in public_names() if inspect.isfunction(o) and "." not in n]
    assert len(funcs) > 15
    assert [n for n, f in funcs if inspect.signature(f).return_annotation is inspect.Signature.empty] == []


def test_py_typed_is_shipped():
    assert (L._here / "py.typed").exists()


def test_short_reprs():
    fit = hk.fit_pwl(hk.read_csv(FIX / "synthetic" / "pwl_double_loop_fit.csv"))
    assert len(repr(fit)) < 120 and repr(fit).startswith("Fit(Model(pwl")        # was the whole report, 10 kB
    sc = hk.DockScenario(D / "s2-A.json")
    sim = hk.DockSim(sc)
    bs = hk.BeamSim(B / "baseline.json")
    for o, start in ((sc, "DockScenario("), (sim, "DockSim("), (bs, "BeamSim(")):
        assert repr(o).startswith(start) and " at 0x" not in repr(o) and len(repr(o)) < 200
    sim.close()
    bs.close()
    assert repr(sim).endswith("closed)") and repr(bs).endswith("closed)")


@pytest.mark.parametrize("call", [lambda p: hk.read_csv(p), lambda p: hk.load_model(p), lambda p: hk.DockScenario(p),
                                  lambda p: hk.run_beam(p), lambda p: hk.read_record(str(p) + ".h5:/records/x")],
                         ids=["read_csv", "load_model", "DockScenario", "run_beam", "read_record_h5"])
def test_missing_file_is_file_not_found(tmp_path, call):
    with pytest.raises(FileNotFoundError) as e:                  # before: HystIOError, errno None
        call(tmp_path / "nope.json")
    assert e.value.errno == errno.ENOENT and "nope.json" in str(e.value)
    if isinstance(e.value, hk.HystError):
        assert isinstance(e.value, hk.HystIOError) and e.value.filename == e.value.file


def test_numpy_integers_are_whole_numbers():
    rec = hk.read_csv(FIX / "synthetic" / "kin_paper_fit.csv")
    a = hk.fit_kin(rec, k=np.int64(3), m=np.int32(2))             # before: "k: expected a whole number, got 3"
    b = hk.fit_kin(rec, k=3, m=2)
    assert a.model.to_json().split('"seconds"')[0] == b.model.to_json().split('"seconds"')[0]
    p = hk.fit_pwl(hk.read_csv(FIX / "synthetic" / "pwl_double_loop_fit.csv"), segments=np.int64(4))
    assert p.report["options"]["segments"] if "segments" in p.report.get("options", {}) else True
    sim = hk.DockSim(hk.DockScenario(D / "s2-A.json"))
    assert sim.run(np.int64(3)) == 3
    with hk.BeamSim(B / "baseline.json", duration=0.01) as s:
        s.run(np.int16(4))
        assert s.steps == 4


@pytest.mark.parametrize("kw,msg", [({"segments": 2.5}, r"segments \(F\): expected a whole number 2\.\.64, got 2\.5"),
                                    ({"segments": (3, 4, 5)}, r"segments: expected a whole number or a pair"),
                                    ({"segments": True}, r"segments \(F\): expected a whole number"),
                                    ({"max_segments": 40}, r"max_segments: expected a whole number 3\.\.32")])
def test_bad_whole_numbers(kw, msg):
    with pytest.raises(ValueError, match=msg):                  # before: "cannot unpack non-iterable float"
        hk.fit_pwl(np.zeros(30), np.zeros(30), **kw)


def test_small_defects_of_item_6():
    sim = hk.DockSim(hk.DockScenario(D / "s2-A.json"))
    with pytest.raises(ValueError, match="element 'nope': expected one of axial, "):    # was "'nope' is not in list"
        sim.element("nope")
    with pytest.raises(ValueError, match="n: expected a number of steps >= 0, got -1"):  # ran to the end silently
        sim.run(-1)
    assert sim.steps == 0
    m = hk.load_model(FIX / "models" / "pwl-constant.json")
    with pytest.raises(hk.StateError, match="no trial to commit"):                      # was AttributeError
        m.commit()
    m.trial(0.5)
    m.commit()
    with pytest.raises(hk.StateError):                                                  # a trial commits once
        m.commit()
    r = hk.Record([0.0, 1.0], [0.0, 2.0], units={"q": "m"})                             # repr raised KeyError
    assert repr(r) == "Record('<array>', n=2, q=q [m], Q=Q [])" and r.units == {"t": "", "q": "m", "Q": ""}
    with pytest.raises(ValueError, match="keys are t, q and Q"):
        hk.Record([0.0], [0.0], units={"x": "m"})


def test_beam_run_is_one_c_call(monkeypatch):
    calls = []
    step = L.mech.mech_beam_step
    monkeypatch.setattr(L.mech, "mech_beam_step", lambda *a: calls.append(1) or step(*a))
    with hk.BeamSim(B / "hinges-4.json", duration=0.05, iterated=True) as s, \
            hk.BeamSim(B / "hinges-4.json", duration=0.05, iterated=True) as ref:
        s.run(200)                                                # before: 200 Python calls of mech_beam_step
        assert calls == []
        for _ in range(200):
            ref.step()
        assert len(calls) == 200 and s.steps == ref.steps == 200
        assert s.observe(energy=True)["W_hinge"] == ref.observe(energy=True)["W_hinge"]
        assert np.array_equal(s.state[0], ref.state[0])


def test_run_histories_are_tables():
    pytest.importorskip("pandas")
    r = hk.run_dock(D / "s2-A.json", duration=0.05, records=False)
    df = r.to_pandas()
    assert isinstance(r.history, hk.Table) and list(df.columns) == list(r.history)
    assert np.array_equal(df["head_axial"].to_numpy(), r.history["head_axial"]) and len(df) == r.summary["steps"] + 1
    b = hk.run_beam(B / "baseline.json", duration=0.01)
    assert isinstance(b.history, hk.Table) and b.to_pandas().shape == b.history.shape
    assert "<table>" in r.history._repr_html_() and "rows shown" in r.history._repr_html_()
