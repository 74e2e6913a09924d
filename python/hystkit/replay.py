"""Replay metrics (hyst/replay.h): several models driven with a measured displacement history, each judged on the
measured record's cycles, as `hyst replay` does."""
import ctypes as C


from . import _lib as L
from .errors import check
from .loops import _condition, _opts, _table, as_f64
from .model import Model
from .record import Record

__all__ = ["replay"]


for _name in ("hy_replay_energy_error", "hy_replay_cycle_nrmse"):  # hyst/replay.h
    getattr(L.hyst, _name).restype = C.c_double
    getattr(L.hyst, _name).argtypes = [C.POINTER(L.ReplayMetrics)]


def _metrics(q, Q, Qm, cyc, ncyc):
    M, err = L.ReplayMetrics(), L.Err()
    check(L.hyst.hy_replay_metrics_compute(q.ctypes.data_as(L.dbl_p), Q.ctypes.data_as(L.dbl_p),
                                           Qm.ctypes.data_as(L.dbl_p), q.size, cyc, ncyc, C.byref(M),
                                           C.byref(err)), err)
    try:
        d = {k: getattr(M, k) for k, _ in L.ReplayMetrics._fields_ if k not in ("cyc", "n_cyc")}
        d["cycles"] = _table(M.cyc, M.n_cyc, L.ReplayCycle)
        d["cycle_nrmse"] = L.hyst.hy_replay_cycle_nrmse(C.byref(M))
        d["cycle_energy_error"] = L.hyst.hy_replay_energy_error(C.byref(M))
        return d
    finally:
        L.hyst.hy_replay_metrics_free(C.byref(M))


def replay(models, data, Q=None, t=None, *, threshold=None, center=None, trim_rest=False, remove_offset=None,
           rest_tol=None) -> dict:
    """(models: a Model, a list of Models or a dict name -> Model (or model file path); a Record or arrays q, Q[, t])
    => dict name -> metrics: n, Q_ptp, mean_error, rms_error, nrmse, max_abs_error, max_abs_index,
    energy_measured, energy_model, energy_ratio, work_measured, work_model, cycles (dict of arrays per cycle) and
    "Q" (the predicted force), cycle_nrmse and cycle_energy_error (energy-weighted) and "conditioning" (what
    trim_rest, remove_offset, rest_tol did, as `hyst replay --trim-rest ...`; None when not asked). Every model
    starts at rest at the origin and is judged on the measured cycles."""
    if isinstance(data, Record):
        q, Qd, t = data.q, data.Q, data.t
    else:
        if Q is None:
            raise TypeError("replay: expected a Record or arrays q and Q")
        q, Qd = as_f64(data, "q"), as_f64(Q, "Q")
        t = None if t is None else as_f64(t, "t")
        for name, a in (("Q", Qd), ("t", t)):
            if a is not None and a.size != q.size:
                raise ValueError("%s has %d samples, q has %d: they must have the same length" % (name, a.size, q.size))
    q, Qd, t, _, cond = _condition(q, Qd, t, None, trim_rest, remove_offset, rest_tol)
    if isinstance(models, Model) or isinstance(models, str):
        models = [models]
    if not isinstance(models, dict):
        models = {("model%d" % i if isinstance(m, Model) else str(m)): m for i, m in enumerate(models)}
    o = _opts(threshold, center, None)
    c, err = L.Loops(), L.Err()
    check(L.hyst.hy_loops_analyze(q.ctypes.data_as(L.dbl_p), Qd.ctypes.data_as(L.dbl_p), q.size, C.byref(o),
                                  C.byref(c), C.byref(err)), err)
    try:
        out = {}
        for name, m in models.items():
            m = m if isinstance(m, Model) else Model.load(m)
            Qm = m.replay(q, t)
            d = _metrics(q, Qd, Qm, c.cyc, c.n_cyc)
            d["Q"] = Qm
            d["conditioning"] = cond
            out[name] = d
        return out
    finally:
        L.hyst.hy_loops_free(C.byref(c))
