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


def loops(q, Q, *, threshold=None, center=None, amp_tol=None) -> Loops:
    """(q[n], Q[n]) => Loops. threshold: reversal threshold in q units (default: from the noise, docs/loops.md);
    center: the centre of the motion (default 0); amp_tol: limit-loop amplitude tolerance (default 0.05).
    The arrays are passed to C without a copy when they are float64 and contiguous."""
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
        return Loops(c, br, berr)
    finally:
        L.hyst.hy_loops_free(C.byref(c))
