"""Identification (hyst/pwlfit.h, hyst/kinfit.h through hyst/fitmodel.h): the same pipeline, options and model file
as `hyst fit pwl` and `hyst fit kin`."""
import ctypes as C
import warnings
from collections import namedtuple

from . import _lib as L
from .errors import check
from .loops import _condition
from .model import Model, _CModel
from .record import Record

__all__ = ["Fit", "fit_pwl", "fit_kin"]

Fit = namedtuple("Fit", "model report")
Fit.__doc__ = "Result of a fit: the Model and the fit report (a dict, as the model file's \"fit\" key holds it)."


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


def _finish(rc, err, cm, rec, cond=None):
    check(rc, err)
    cm.ok = True
    model = Model(cm)
    report = model.info.get("fit", {})
    if cond is not None:
        report["conditioning"] = cond
    for w in report.get("warnings", []):
        warnings.warn("%s: %s" % (rec.source, w), stacklevel=3)
    return Fit(model, report)


def fit_pwl(data, Q=None, t=None, *, segments=None, tol=None, max_segments=None, backlash="auto", symmetric=False,
            kind="constant", amp_tol=None, threshold=None, center=None, replay=True, trim_rest=False,
            remove_offset=None, rest_tol=None):
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
        F, B = (segments, segments) if isinstance(segments, int) else segments
        if not (2 <= F <= 64 and 3 <= B <= 64):
            raise ValueError("segments: expected F >= 2 and B >= 3, got %r" % (segments,))
        o.segments_F, o.segments_B = int(F), int(B)
    if tol is not None:
        if not tol > 0:
            raise ValueError("tol: expected a force tolerance > 0, got %r" % (tol,))
        o.tol = float(tol)
    if max_segments is not None:
        o.max_segments = int(max_segments)
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
    return _finish(rc, err, cm, rec, cond)


def fit_kin(data, Q=None, t=None, *, k=None, m=None, max_k=None, max_m=None, rule="symmetric", smooth="auto",
            max_degree=None, branches="all", min_branch=None, rcond=None, select_tol=None, prune=True,
            prune_tol=None, refine=False, refine_iter=None, threshold=None, center=None, trim_rest=False,
            remove_offset=None, rest_tol=None):
    """(Record, or arrays q, Q) => Fit(model, report): the kinematic ODE df/dq = R(q, f) (spec 002), as
    `hyst fit kin` with the same option names (rule "symmetric"|"two-set", smooth "auto"|"fd"|degree,
    branches "all"|"limit"; trim_rest, remove_offset, rest_tol as in fit_pwl)."""
    rec, cond = _record(data, Q, t, trim_rest, remove_offset, rest_tol)
    o = L.KinfitOpts()
    L.hyst.hy_kinfit_opts_default(C.byref(o))
    for name, v, lo, hi in (("k", k, 1, 8), ("m", m, 1, 8), ("max_k", max_k, 1, 8), ("max_m", max_m, 1, 8),
                            ("max_degree", max_degree, 1, 16), ("refine_iter", refine_iter, 1, 1000)):
        if v is not None:
            if not (isinstance(v, int) and lo <= v <= hi):
                raise ValueError("%s: expected a whole number %d..%d, got %r" % (name, lo, hi, v))
            setattr(o, name, v)
    rules = {"symmetric": 0, "two-set": 1}
    if rule not in rules:
        raise ValueError("rule: expected symmetric or two-set, got %r" % (rule,))
    o.rule = rules[rule]
    if smooth == "auto":
        o.smooth = -1
    elif smooth == "fd":
        o.smooth = 0
    elif isinstance(smooth, int) and 1 <= smooth <= 16:
        o.smooth = smooth
    else:
        raise ValueError("smooth: expected a degree 1..16, auto or fd, got %r" % (smooth,))
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
    return _finish(rc, err, cm, rec, cond)
