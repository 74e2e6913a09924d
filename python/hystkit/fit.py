"""Identification (hyst/pwlfit.h, hyst/kinfit.h through hyst/fitmodel.h): the same pipeline, options and model file
as `hyst fit pwl` and `hyst fit kin`."""
import ctypes as C
import json
import math
import numbers
import os
import tempfile
import operator
import warnings
from collections import namedtuple

from . import _lib as L
from .errors import check
from .loops import _condition, _set_provenance
from .model import Model, _CModel
from .record import Record, read_csv
from .table import Table
import numpy as np
from . import programs

__all__ = ["Fit", "FitAll", "fit_pwl", "fit_kin", "fit_bw", "fit_bwbn", "fit_iwan", "fit_all"]

class Fit(namedtuple("Fit", "model report")):
    """Result of a fit: the Model and the fit report (a dict, as the model file's "fit" key holds it). Unpacks as
    ``model, report = fit``; pickles (the model through its file text)."""
    __slots__ = ()

    def __repr__(self):
        r = self.report or {}
        nrmse = (r.get("replay") or {}).get("nrmse", r.get("nrmse"))
        return "Fit(%r, report: %d keys%s)" % (self.model, len(r), "" if nrmse is None else ", NRMSE %.4g" % nrmse)


def _int(name, v, lo, hi):
    """A whole number lo..hi (int, np.int64, any integral type; not 2.5, not True)."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        try:
            if isinstance(v, bool):
                raise TypeError
            v = operator.index(v)
        except TypeError:
            raise ValueError("%s: expected a whole number %d..%d, got %r" % (name, lo, hi, v)) from None
    v = int(v)
    if not lo <= v <= hi:
        raise ValueError("%s: expected a whole number %d..%d, got %r" % (name, lo, hi, v))
    return v


def _record(data, Q, t, trim_rest=False, remove_offset=None, rest_tol=None):
    """(Record or arrays, conditioning options) => (Record, conditioning report or None)"""
    if isinstance(data, Record):
        if Q is not None or t is not None:
            raise TypeError("give a Record or arrays q, Q (and t), not both")
        rec = data
    elif Q is None:
        raise TypeError("fit: expected a Record or arrays q and Q")
    else:
        rec = Record(data, Q, t)
    q, Qc, tc, lines, cond = _condition(rec.q, rec.Q, rec.t, rec.lines, trim_rest, remove_offset, rest_tol)
    if cond is None:
        return rec, None
    return Record(q, Qc, tc, names=rec.names, units=rec.units, source=rec.source, lines=lines), cond


def _loops(o, threshold, center):
    if threshold is not None:
        if not threshold > 0:
            raise ValueError("threshold: expected a displacement > 0, got %r" % (threshold,))
        o.threshold = float(threshold)
    if center is not None:
        o.center = float(center)


def _finish(rc, err, cm, rec, cond=None, cond_opts=(False, None)):
    check(rc, err)
    cm.ok = True
    if cond is not None:  # the model file's provenance, as `hyst fit ... --trim-rest` writes it
        _set_provenance(cm.m, cond, *cond_opts)
    model = Model(cm)
    report = model.info.get("fit", {})
    if cond is not None:
        report["conditioning"] = cond
    for w in report.get("warnings", []):
        warnings.warn("%s: %s" % (rec.source, w), stacklevel=3)
    return Fit(model, report)


def fit_pwl(data, Q=None, t=None, *, segments=None, tol=None, max_segments=None, backlash="auto", symmetric=False,
            kind="constant", amp_tol=None, threshold=None, center=None, replay=True, trim_rest=False,
            remove_offset=None, rest_tol=None) -> Fit:
    """(Record, or arrays q, Q[, t]) => Fit(model, report): a piecewise-linear branch table (spec 000), as
    `hyst fit pwl` (same option names: segments=(F, B) or an int, tol, max_segments, backlash="auto" or a width,
    symmetric, kind="constant"|"friction", amp_tol, threshold, center). Fitting a Record read by read_csv gives
    the model file `hyst fit pwl` writes, byte for byte apart from the report's wall time. trim_rest,
    remove_offset ('q', 'Q', 'q,Q'), rest_tol: record conditioning as `--trim-rest --remove-offset W --rest-tol
    TOL` (reported under the report's "conditioning")."""
    rec, cond = _record(data, Q, t, trim_rest, remove_offset, rest_tol)
    o = L.PwlfitOpts()
    L.hyst.hy_pwlfit_opts_default(C.byref(o))
    if segments is not None and tol is not None:
        raise ValueError("give segments or tol, not both")
    if segments is not None:
        try:
            F, B = segments
        except TypeError:
            F = B = segments
        except ValueError:
            raise ValueError("segments: expected a whole number or a pair (F, B), got %r" % (segments,)) from None
        o.segments_F, o.segments_B = _int("segments (F)", F, 2, 64), _int("segments (B)", B, 3, 64)
    if tol is not None:
        if not tol > 0:
            raise ValueError("tol: expected a force tolerance > 0, got %r" % (tol,))
        o.tol = float(tol)
    if max_segments is not None:
        o.max_segments = _int("max_segments", max_segments, 3, 32)
    if backlash != "auto":
        if not float(backlash) >= 0:
            raise ValueError("backlash: expected 'auto' or a width >= 0, got %r" % (backlash,))
        o.backlash_mode, o.backlash = 1, float(backlash)
    o.symmetric = int(bool(symmetric))
    kinds = {"constant": 0, "friction": 1}
    if kind not in kinds:
        raise ValueError("kind: expected constant or friction, got %r" % (kind,))
    o.kind = kinds[kind]
    o.replay = int(bool(replay))
    if amp_tol is not None:
        if not 0 <= amp_tol < 1:
            raise ValueError("amp_tol: expected a fraction in [0, 1), got %r" % (amp_tol,))
        o.loops.amp_tol, o.amp_tol_auto = float(amp_tol), 0
    _loops(o.loops, threshold, center)
    s, cm, err = rec._series(), _CModel(), L.Err()
    rc = L.hyst.hy_pwlfit_model(C.byref(s), C.byref(o), None, C.byref(cm.m), C.byref(err))
    return _finish(rc, err, cm, rec, cond, (trim_rest, remove_offset))


def fit_kin(data, Q=None, t=None, *, k=None, m=None, max_k=None, max_m=None, rule="symmetric", smooth="auto",
            max_degree=None, branches="all", min_branch=None, rcond=None, select_tol=None, prune=True,
            prune_tol=None, refine=False, refine_iter=None, threshold=None, center=None, trim_rest=False,
            remove_offset=None, rest_tol=None) -> Fit:
    """(Record, or arrays q, Q) => Fit(model, report): the kinematic ODE df/dq = R(q, f) (spec 002), as
    `hyst fit kin` with the same option names (rule "symmetric"|"two-set", smooth "auto"|"fd"|degree,
    branches "all"|"limit"; trim_rest, remove_offset, rest_tol as in fit_pwl)."""
    rec, cond = _record(data, Q, t, trim_rest, remove_offset, rest_tol)
    o = L.KinfitOpts()
    L.hyst.hy_kinfit_opts_default(C.byref(o))
    for name, v, lo, hi in (("k", k, 1, 8), ("m", m, 1, 8), ("max_k", max_k, 1, 8), ("max_m", max_m, 1, 8),
                            ("max_degree", max_degree, 1, 16), ("refine_iter", refine_iter, 1, 1000)):
        if v is not None:
            setattr(o, name, _int(name, v, lo, hi))
    rules = {"symmetric": 0, "two-set": 1}
    if rule not in rules:
        raise ValueError("rule: expected symmetric or two-set, got %r" % (rule,))
    o.rule = rules[rule]
    if smooth == "auto":
        o.smooth = -1
    elif smooth == "fd":
        o.smooth = 0
    else:
        try:
            o.smooth = _int("smooth", smooth, 1, 16)
        except ValueError:
            raise ValueError("smooth: expected a degree 1..16, auto or fd, got %r" % (smooth,)) from None
    br = {"all": 0, "limit": 1}
    if branches not in br:
        raise ValueError("branches: expected all or limit, got %r" % (branches,))
    o.branches = br[branches]
    for name, v in (("min_branch", min_branch), ("rcond", rcond), ("select_tol", select_tol),
                    ("prune_tol", prune_tol)):
        if v is not None:
            if not v >= 0 or (name == "min_branch" and v >= 1):
                raise ValueError("%s: expected a value >= 0%s, got %r" % (
                    name, " and below 1" if name == "min_branch" else "", v))
            setattr(o, name, float(v))
    o.prune = int(bool(prune))
    o.refine = int(bool(refine))
    _loops(o.loops, threshold, center)
    s, cm, err = rec._series(), _CModel(), L.Err()
    rc = L.hyst.hy_kinfit_model(C.byref(s), C.byref(o), None, C.byref(cm.m), C.byref(err))
    return _finish(rc, err, cm, rec, cond, (trim_rest, remove_offset))


def _as_record(data, Q, t):
    """A Record, arrays q, Q[, t], or a path read with read_csv (as the program would read it)."""
    if isinstance(data, (str, os.PathLike)) and Q is None and t is None:
        return read_csv(data)
    return _record(data, Q, t)[0]


def _loop_args(threshold, center):
    a = []
    if threshold is not None:
        if not threshold > 0:
            raise ValueError("threshold: expected a displacement > 0, got %r" % (threshold,))
        a += ["--threshold", repr(float(threshold))]
    if center is not None:
        a += ["--center", repr(float(center))]
    return a


def _family_fit(family, rec, args):
    with tempfile.TemporaryDirectory(prefix="hystkit-fit-") as d:
        name, ropts = programs.write_record(rec, d)
        p = programs.run_program("hyst", ["fit", family, name, "-o", "model.json", "-q"] + ropts + args, cwd=d)
        programs.warn_from(p, stacklevel=4)
        model = Model.load(os.path.join(d, "model.json"))
    return Fit(model, model.info.get("fit", {}))


def _common(starts, max_iter, energy_tol, bootstrap, seed, threshold, center):
    a = []
    if starts is not None:
        a += ["--starts", str(_int("starts", starts, 1, 4))]
    if max_iter is not None:
        a += ["--max-iter", str(_int("max_iter", max_iter, 1, 100000))]
    if energy_tol is not None:
        if not energy_tol > 0:
            raise ValueError("energy_tol: expected a fraction > 0, got %r" % (energy_tol,))
        a += ["--energy-tol", repr(float(energy_tol))]
    if bootstrap is not None:
        a += ["--bootstrap", str(_int("bootstrap", bootstrap, 2, 100000))]
    if seed is not None:
        a += ["--seed", str(_int("seed", seed, 0, 2 ** 63 - 1))]
    return a + _loop_args(threshold, center)


def fit_bw(data, Q=None, t=None, *, n=None, starts=None, max_iter=None, energy_tol=None, bootstrap=None,
           seed=None, threshold=None, center=None) -> Fit:
    """(Record, arrays q, Q[, t], or a CSV path) => Fit(model, report): a Bouc-Wen model by nonlinear least squares
    (docs/fit-families.md), by `hyst fit bw` itself, so the model file and its report (parameters with standard
    errors, replay metrics, ``bootstrap`` intervals) are the program's. Options as the program's: n (exponent: an
    integer 1..20 or "free"; default fitted in 1..10), starts (1..4), max_iter, energy_tol, bootstrap (refits),
    seed, threshold, center. The program's warnings come as UserWarnings; a failed fit raises ProgramError with
    its message."""
    rec = _as_record(data, Q, t)
    a = []
    if n is not None:
        a += ["--n", "free" if n == "free" else str(_int("n", n, 1, 20))]
    return _family_fit("bw", rec, a + _common(starts, max_iter, energy_tol, bootstrap, seed, threshold, center))



def fit_bwbn(data, Q=None, t=None, *, n=None, starts=None, max_iter=None, energy_tol=None, bootstrap=None,
             seed=None, threshold=None, center=None) -> Fit:
    """(Record, arrays q, Q[, t], or a CSV path) => Fit(model, report): a Bouc-Wen-Baber-Noori model (strength and
    stiffness degradation with dissipated energy, Foliente's pinching; docs/bw-model.md) by `hyst fit bwbn`
    itself, started from the record's Bouc-Wen fit. Options as fit_bw's (n fixes the exponent of that Bouc-Wen
    fit). The model is a "bw" model file with its pinching keys: it loads, copies and pickles as one."""
    rec = _as_record(data, Q, t)
    a = []
    if n is not None:
        a += ["--n", "free" if n == "free" else str(_int("n", n, 1, 20))]
    return _family_fit("bwbn", rec, a + _common(starts, max_iter, energy_tol, bootstrap, seed, threshold, center))

def fit_iwan(data, Q=None, t=None, *, elements=None, starts=None, max_iter=None, energy_tol=None, bootstrap=None,
             seed=None, threshold=None, center=None) -> Fit:
    """(Record, arrays q, Q[, t], or a CSV path) => Fit(model, report): an Iwan (Segalman) model by nonlinear least
    squares, by `hyst fit iwan` itself (see fit_bw). elements: Jenkins elements of the discretisation (2..1024,
    default 32)."""
    rec = _as_record(data, Q, t)
    a = []
    if elements is not None:
        a += ["--elements", str(_int("elements", elements, 2, 1024))]
    return _family_fit("iwan", rec, a + _common(starts, max_iter, energy_tol, bootstrap, seed, threshold, center))


def fit_clough(data, Q=None, t=None, *, starts=None, max_iter=None, energy_tol=None, bootstrap=None, seed=None,
               threshold=None, center=None) -> Fit:
    """(Record, arrays q, Q[, t], or a CSV path) => Fit(model, report): a peak-oriented (modified Clough) model with
    pinching (k, F_y, alpha, kappa; docs/clough-model.md) by `hyst fit clough` itself (see fit_bw)."""
    rec = _as_record(data, Q, t)
    return _family_fit("clough", rec, _common(starts, max_iter, energy_tol, bootstrap, seed, threshold, center))


class FitAll:
    """Result of fit_all: ``table`` (a Table, one row per family: family, fitted, rank, parameters, nrmse,
    cycle_nrmse, energy_ratio, cycle_energy_error (energy-weighted), tied, aic, bic), ``best`` (the first-ranked
    family), ``models`` (family -> Model, the fitted ones), ``report`` (the dict `hyst fit all --json` writes). In Jupyter the table shows as
    HTML; ``to_pandas()`` gives it as a DataFrame."""

    def __init__(self, report, models):
        self.report, self.models = report, models
        self.best = report.get("best")
        fams = report.get("families", [])
        keys = []
        for f in fams:
            keys += [k for k in f if k not in keys and k != "model"]
        cols = {}
        for k in keys:
            vals = [f.get(k) for f in fams]
            if all(isinstance(v, bool) for v in vals):
                cols[k] = np.array(vals, dtype=bool)
            elif all(v is None or isinstance(v, (int, float)) for v in vals):
                cols[k] = np.array([math.nan if v is None else float(v) for v in vals])
            else:
                cols[k] = np.array(["" if v is None else str(v) for v in vals])
        self.table = Table(cols)

    def to_pandas(self):
        """The ranking table as a pandas DataFrame."""
        return self.table.to_pandas()

    def _repr_html_(self):
        return "<p>fit all: best %s</p>%s" % (self.best, self.table._repr_html_())

    def __repr__(self):
        return "FitAll(best=%r, families=%s)" % (self.best, list(self.table.get("family", [])))


def fit_all(data, Q=None, t=None, *, validate=None, families=None, pwl_opts=None, energy_tol=None,
            threshold=None, center=None, directory=None, plot=None) -> FitAll:
    """(Record, arrays q, Q[, t], or a CSV path) => FitAll: every family fitted and ranked by `hyst fit all`
    itself (ranked by the NRMSE over the cycles and the energy-weighted cycle energy error, ties shown; AIC/BIC for
    information; on ``validate``, a Record or a path, when given). families: a list or comma-separated subset of
    pwl, kin, bw, bwbn, iwan; pwl_opts: extra `hyst fit pwl`
    options as one string; energy_tol, threshold, center as the program's. ``directory``: keep the fitted model
    files there (default: a temporary folder, removed; the models are in ``models``); ``plot``: the overlay
    figure's path (PNG, SVG or PDF by its extension)."""
    rec = _as_record(data, Q, t)
    if families is not None and not isinstance(families, str):
        families = ",".join(families)
    with tempfile.TemporaryDirectory(prefix="hystkit-fitall-") as tmp:
        name, ropts = programs.write_record(rec, tmp)
        out = os.path.abspath(directory) if directory is not None else os.path.join(tmp, "models")
        a = ["fit", "all", name, "-d", out, "--json", "report.json"] + ropts
        if validate is not None:
            v = validate if isinstance(validate, Record) else read_csv(validate)
            vd = os.path.join(tmp, "validate")
            os.mkdir(vd)
            vname, _ = programs.write_record(v, vd)
            a += ["--validate", os.path.join("validate", vname)]
        if families is not None:
            a += ["--families", families]
        if pwl_opts is not None:
            a += ["--pwl-opts", str(pwl_opts)]
        if energy_tol is not None:
            a += ["--energy-tol", repr(float(energy_tol))]
        if plot is not None:
            a += ["--plot", os.path.abspath(plot)]
        a += _loop_args(threshold, center)
        p = programs.run_program("hyst", a, cwd=tmp)
        programs.warn_from(p, stacklevel=3)
        with open(os.path.join(tmp, "report.json")) as f:
            report = json.load(f)
        models = {}
        for fam in report.get("families", []):
            if fam.get("fitted") and fam.get("model"):
                path = fam["model"] if os.path.isabs(fam["model"]) else os.path.join(tmp, fam["model"])
                models[fam["family"]] = Model.load(path)
            if directory is None:
                fam.pop("model", None)
    return FitAll(report, models)
