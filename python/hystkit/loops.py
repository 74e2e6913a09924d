"""Loop analysis (hyst/loops.h, docs/loops.md): reversals, inner loops, half-cycles, cycles with their dissipated
energy, secant stiffness and equivalent damping, backbones; as NumPy arrays and a dict."""
import ctypes as C

import numpy as np

from . import _lib as L
from .errors import HystError, check
from .table import Table

__all__ = ["Loops", "loops"]


_NP = {C.c_double: np.float64, C.c_size_t: np.uintp, C.c_int: np.intc}


def _table(ptr, n, struct):
    """C array of n structs => dict of column arrays (copied: the C memory is freed right after)."""
    names = [f[0] for f in struct._fields_]
    if n == 0 or not ptr:
        return Table((k, np.empty(0, _NP[t])) for k, t in struct._fields_)
    dt = np.dtype({"names": names, "formats": [_NP[t] for _, t in struct._fields_],
                   "offsets": [getattr(struct, k).offset for k in names], "itemsize": C.sizeof(struct)})
    raw = (C.c_char * (n * C.sizeof(struct))).from_address(C.cast(ptr, C.c_void_p).value)
    a = np.frombuffer(raw, dtype=dt, count=n)
    return Table((k, a[k].copy()) for k in names)


def _curve(c):
    if c.n == 0:
        return np.empty(0), np.empty(0)
    return (np.ctypeslib.as_array(c.q, shape=(c.n,)).copy(), np.ctypeslib.as_array(c.Q, shape=(c.n,)).copy())


def as_f64(x, name):
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 1:
        raise ValueError("%s must be a 1-d array" % name)
    return np.ascontiguousarray(a)


class Loops:
    """Result of loops(q, Q). Arrays (NumPy):
      reversals   dict: i (sample), kind (+1 max, -1 min), major (1/0)
      inner       dict: i0, i_turn, i1, kind, range, energy, cycle
      half_cycles dict: i0, i1, dir, range, energy
      cycles      dict: i0, i1, amp_pos, amp_neg, Q_max, Q_min, energy, cum_energy, k_sec, e_strain, xi_eq, i_qmax,
                  i_qmin, n_inner
      backbone_pos, backbone_neg: (q, Q) arrays
      branches    the branches of the limit loop as the fits use them (`hyst loops --branches`): dict side
                  ("positive", "negative") -> {"forward": (q, Q), "backward": (q, Q), "cycles", "amplitude"};
                  None when the record has no half-cycle (``branches_error`` says why)
    The tables (reversals, inner, half_cycles, cycles) are Tables: dicts of arrays with to_pandas() and an HTML
    view in Jupyter.
    Scalars: threshold, threshold_rule, noise, noise_factor, noise_ratio, range, center, cycle_rule, cycle_side,
    total_energy (integral of Q dq along the whole record), n."""

    def __init__(self, c, branches=None, branches_error=None):
        self.branches, self.branches_error = branches, branches_error
        self.conditioning = None   # what trim_rest, remove_offset did (loops() sets it when asked)
        self.n = c.n
        self.threshold = c.threshold
        self.threshold_rule = L.hyst.hy_loops_rule_name(c.threshold_rule).decode()
        self.noise, self.noise_factor, self.noise_ratio, self.range = c.noise, c.noise_factor, c.noise_ratio, c.range
        self.center = c.center
        self.cycle_rule = L.hyst.hy_loops_cycle_rule_name(c.cycle_rule).decode()
        self.cycle_side = c.cycle_side
        self.total_energy = c.total_energy
        self.n_major = c.n_major
        self.reversals = _table(c.rev, c.n_rev, L.Reversal)
        self.inner = _table(c.inner, c.n_inner, L.InnerLoop)
        self.half_cycles = _table(c.half, c.n_half, L.HalfCycle)
        self.cycles = _table(c.cyc, c.n_cyc, L.Cycle)
        self.backbone_pos = _curve(c.backbone_pos)
        self.backbone_neg = _curve(c.backbone_neg)

    @property
    def energies(self):
        """Dissipated energy of each cycle (enclosed area of Q dq)."""
        return self.cycles["energy"]

    def __len__(self):
        return len(self.cycles["energy"])

    def __repr__(self):
        return "Loops(n=%d, reversals=%d, cycles=%d, total_energy=%.6g)" % (
            self.n, len(self.reversals["i"]), len(self), self.total_energy)

    def as_dict(self):
        """Everything as plain Python (lists and numbers), e.g. for json.dump."""
        tolist = lambda d: {k: v.tolist() for k, v in d.items()}
        return {"n": self.n, "threshold": self.threshold, "threshold_rule": self.threshold_rule,
                "noise": {"sigma": self.noise, "factor": self.noise_factor, "lag_ratio": self.noise_ratio,
                          "range": self.range},
                "center": self.center, "cycle_rule": self.cycle_rule, "cycle_side": self.cycle_side,
                "total_energy": self.total_energy, "cycles_energy": float(np.sum(self.cycles["energy"])),
                "reversals": tolist(self.reversals), "major_reversals": self.n_major, "inner_loops": tolist(self.inner),
                "half_cycles": tolist(self.half_cycles), "cycles": tolist(self.cycles),
                "backbone": {"positive": [a.tolist() for a in self.backbone_pos],
                             "negative": [a.tolist() for a in self.backbone_neg]}}


class _ConditionOpts(C.Structure):  # hyst/condition.h
    _fields_ = [("trim_rest", C.c_int), ("offset_q", C.c_int), ("offset_Q", C.c_int), ("rest_tol", C.c_double)]


class _ConditionReport(C.Structure):  # hyst/condition.h
    _fields_ = [("n_in", C.c_size_t), ("n_out", C.c_size_t), ("trimmed_start", C.c_size_t),
                ("trimmed_end", C.c_size_t), ("rest_rows", C.c_size_t), ("q_offset", C.c_double),
                ("Q_offset", C.c_double), ("rest_tol", C.c_double)]


_hy_condition = L.hyst.hy_condition
_hy_condition.restype = C.c_int
_hy_condition.argtypes = [L.dbl_p, L.dbl_p, L.dbl_p, C.POINTER(C.c_size_t), C.c_size_t, C.POINTER(_ConditionOpts),
                          C.POINTER(_ConditionReport), C.POINTER(L.Err)]


_hy_model_set_conditioning = L.hyst.hy_model_set_conditioning
_hy_model_set_conditioning.restype = C.c_int
_hy_model_set_conditioning.argtypes = [C.c_void_p, C.POINTER(_ConditionOpts), C.POINTER(_ConditionReport),
                                       C.POINTER(L.Err)]


def _set_provenance(model_struct, rep, trim_rest, remove_offset):
    """(a fitted hy_model, the report _condition gave and its options) => the model file's "provenance":
    {"conditioning": ...} set by the library (hy_model_set_conditioning), as the hyst fit commands do"""
    o = _ConditionOpts(int(bool(trim_rest)), int("q" in (remove_offset or "")), int("Q" in (remove_offset or "")),
                       float(rep["rest_tol"]))
    r = _ConditionReport(*(rep[k] for k, _ in _ConditionReport._fields_))
    err = L.Err()
    check(_hy_model_set_conditioning(C.addressof(model_struct), C.byref(o), C.byref(r), C.byref(err)), err)


def _condition(q, Q, t=None, lines=None, trim_rest=False, remove_offset=None, rest_tol=None):
    """(arrays, the options of `hyst ... --trim-rest --remove-offset W --rest-tol TOL`) => (q, Q, t, lines, report):
    copies conditioned by the library's hy_condition (docs/data-input.md "Conditioning"), report a dict (None when
    nothing was asked: the arrays are returned as they are)."""
    if remove_offset not in (None, "q", "Q", "q,Q", "Q,q"):
        raise ValueError("remove_offset: expected None, 'q', 'Q' or 'q,Q', got %r" % (remove_offset,))
    if rest_tol is not None and not rest_tol > 0:
        raise ValueError("rest_tol: expected a displacement > 0, got %r" % (rest_tol,))
    if not trim_rest and remove_offset is None:
        return q, Q, t, lines, None
    o = _ConditionOpts(int(bool(trim_rest)), int("q" in (remove_offset or "")), int("Q" in (remove_offset or "")),
                       float(rest_tol or 0.0))
    q, Q = np.array(q, dtype=np.float64), np.array(Q, dtype=np.float64)
    t = None if t is None else np.array(t, dtype=np.float64)
    lines = None if lines is None else np.array(lines, dtype=np.uintp)
    if q.shape != Q.shape or q.ndim != 1:
        raise ValueError("q and Q must be 1-D arrays of the same length (%d, %d)" % (q.size, Q.size))
    r, err = _ConditionReport(), L.Err()
    check(_hy_condition(None if t is None else t.ctypes.data_as(L.dbl_p), q.ctypes.data_as(L.dbl_p),
                        Q.ctypes.data_as(L.dbl_p),
                        None if lines is None else lines.ctypes.data_as(C.POINTER(C.c_size_t)), q.size,
                        C.byref(o), C.byref(r), C.byref(err)), err)
    n = r.n_out
    rep = {k: getattr(r, k) for k, _ in _ConditionReport._fields_}
    return (q[:n].copy(), Q[:n].copy(), None if t is None else t[:n].copy(),
            None if lines is None else lines[:n].copy(), rep)


def _opts(threshold=None, center=None, amp_tol=None):
    o = L.LoopsOpts()
    L.hyst.hy_loops_opts_default(C.byref(o))
    if threshold is not None:
        if not threshold > 0:
            raise ValueError("threshold: expected a displacement > 0, got %r" % (threshold,))
        o.threshold = float(threshold)
    if center is not None:
        o.center = float(center)
    if amp_tol is not None:
        o.amp_tol = float(amp_tol)
    return o


def loops(q, Q, *, threshold=None, center=None, amp_tol=None, trim_rest=False, remove_offset=None, rest_tol=None) -> Loops:
    """(q[n], Q[n]) => Loops. threshold: reversal threshold in q units (default: from the noise, docs/loops.md);
    center: the centre of the motion (default 0); amp_tol: limit-loop amplitude tolerance (default 0.05).
    trim_rest, remove_offset ('q', 'Q', 'q,Q'), rest_tol: record conditioning as `hyst loops --trim-rest
    --remove-offset W --rest-tol TOL` (the result's .conditioning says what was done; None when not asked).
    The arrays are passed to C without a copy when they are float64 and contiguous (and not conditioned)."""
    q, Q, _, _, cond = _condition(q, Q, None, None, trim_rest, remove_offset, rest_tol)
    q, Q = as_f64(q, "q"), as_f64(Q, "Q")
    if q.shape != Q.shape:
        raise ValueError("q and Q must have the same length (%d, %d)" % (q.size, Q.size))
    o = _opts(threshold, center, amp_tol)
    c, err = L.Loops(), L.Err()
    check(L.hyst.hy_loops_analyze(q.ctypes.data_as(L.dbl_p), Q.ctypes.data_as(L.dbl_p), q.size, C.byref(o),
                                  C.byref(c), C.byref(err)), err)
    try:
        B, br, berr = L.Branches(), None, None
        try:   # as `hyst loops`: a record without a half-cycle has no branches, an error only when asked for them
            check(L.hyst.hy_loops_branches(q.ctypes.data_as(L.dbl_p), Q.ctypes.data_as(L.dbl_p), q.size,
                                           C.byref(c), C.byref(o), C.byref(B), C.byref(err)), err)
            br = {"positive": {"forward": _curve(B.fwd_pos), "backward": _curve(B.bwd_pos),
                               "cycles": B.cycles_pos, "amplitude": B.amp_pos},
                  "negative": {"forward": _curve(B.fwd_neg), "backward": _curve(B.bwd_neg),
                               "cycles": B.cycles_neg, "amplitude": B.amp_neg}}
            L.hyst.hy_branches_free(C.byref(B))
        except HystError as e:
            berr = str(e)
        res = Loops(c, br, berr)
        res.conditioning = cond
        return res
    finally:
        L.hyst.hy_loops_free(C.byref(c))
