"""A simulated run against a measured record (mech/compare.h, docs/compare.md §7): the library `mech compare` runs,
through ctypes. ``compare(run, measured, ...)`` aligns, resamples onto one grid over the overlap and returns a
Comparison: the grid and both records on it as NumPy arrays, per-channel metrics and verdicts, impacts, loops, and
``residual(run)``, the vector a calibration minimises, for another run held in memory."""
import ctypes as C
import json
import math
import os

import numpy as np

from . import _lib as L
from .errors import ArgumentError, check
from .loops import Loops
from .table import Table

__all__ = ["Comparison", "compare"]


def _need_mech():
    if L.mech is None:
        raise ImportError("hystkit.compare needs libmech.so: %s" % L.mech_error)


def _b(s):
    return os.fsencode(s) if isinstance(s, os.PathLike) else str(s).encode("utf-8")


class _MemRec:
    """A record in memory (a run object's history and units, or a dict of arrays): the C struct pointing into
    float64 arrays this object keeps alive."""

    def __init__(self, history, units, source):
        self.rec = L.CompareRec()
        self.rec.source = source.encode("utf-8")[:511]
        self.rec.bad_ch = -1
        if "t" not in history:
            raise ArgumentError("%s: no column 't'" % source)
        self.keep = [np.ascontiguousarray(history["t"], dtype=np.float64)]
        n = self.keep[0].size
        names = [k for k in history if k != "t"]
        if len(names) > L.CMP_MAX_CH:   # the channels the map needs are picked by _pick
            raise ArgumentError("%s: more than %d channels" % (source, L.CMP_MAX_CH))
        t = self.keep[0]
        if n < 2 or not np.all(np.isfinite(t)) or not np.all(np.diff(t) > 0):
            raise ArgumentError("%s: time must be finite and strictly increasing, at least 2 samples" % source)
        self.rec.n = self.rec.cap = n
        self.rec.t = t.ctypes.data_as(L.dbl_p)
        for k, name in enumerate(names):
            a = np.ascontiguousarray(history[name], dtype=np.float64)
            if a.shape != (n,) or not np.all(np.isfinite(a)):
                raise ArgumentError("%s: channel '%s': %d finite values expected" % (source, name, n))
            self.keep.append(a)
            self.rec.v[k] = a.ctypes.data_as(L.dbl_p)
            self.rec.name[k].value = name.encode("utf-8")[:L.CMP_NAME - 1]
            self.rec.unit[k].value = str(units.get(name, "")).encode("utf-8")[:L.CMP_UNIT - 1]
        self.rec.nch = len(names)


def _pick(history, units, names):
    """(history, units, channel names) => only those channels and t (a run has more channels than a record holds)."""
    missing = [n for n in names if n not in history]
    if missing:
        raise ArgumentError("no channel '%s' (its channels: %s)" % (missing[0], ", ".join(list(history)[:40])))
    return {"t": history["t"], **{n: history[n] for n in names}}, {n: units.get(n, "") for n in names}


class _FileRec:
    """A record read from a file by the library (CSV or FILE.h5:/DSET)."""

    def __init__(self, path, t_col, t_unit, names):
        self.rec = L.CompareRec()
        arr = (C.c_char_p * len(names))(*[n.encode("utf-8") for n in names])
        err = L.Err()
        rc = L.mech.mech_compare_rec_read(_b(path), t_col.encode() if t_col else None,
                                          t_unit.encode() if t_unit else None, arr, len(names), C.byref(self.rec),
                                          C.byref(err))
        self.bad = self.rec.bad_ch
        self.rc, self.err = rc, err

    def free(self):
        L.mech.mech_compare_rec_free(C.byref(self.rec))


def _runlike(x):
    return hasattr(x, "history") and hasattr(x, "units")


def _map(map, channels, align, tol, dt, max_lag, window=None):
    m, err = L.CompareMap(), L.Err()
    if map is not None and channels is not None:
        raise ArgumentError("give map or channels, not both")
    if map is None and channels is None:
        raise ArgumentError("give map (a file, a dict or JSON text) or channels (names both records have)")
    if map is not None:
        if isinstance(map, dict):
            text = json.dumps(map).encode("utf-8")
            check(L.mech.mech_compare_map_parse(text, len(text), b"map", C.byref(m), C.byref(err)), err)
        elif isinstance(map, str) and map.lstrip().startswith("{"):
            text = map.encode("utf-8")
            check(L.mech.mech_compare_map_parse(text, len(text), b"map", C.byref(m), C.byref(err)), err)
        else:
            check(L.mech.mech_compare_map_read(_b(map), C.byref(m), C.byref(err)), err)
    else:
        names = [channels] if isinstance(channels, str) else list(channels)
        arr = (C.c_char_p * len(names))(*[n.encode("utf-8") for n in names])
        L.mech.mech_compare_map_default(C.byref(m))
        check(L.mech.mech_compare_map_same_names(C.byref(m), arr, len(names), arr, len(names), C.byref(err)), err)
    if align is not None:
        check(L.mech.mech_compare_map_align(C.byref(m), str(align).encode("utf-8"), C.byref(err)), err)
    for ch, x in (tol or {}).items():
        check(L.mech.mech_compare_map_tol(C.byref(m), ("%s=%r" % (ch, float(x))).encode("utf-8"), C.byref(err)), err)
    if window is not None:
        a, b = window
        check(L.mech.mech_compare_map_window(C.byref(m), ("%r,%r" % (float(a), float(b))).encode(), C.byref(err)), err)
    if dt is not None:
        if not float(dt) > 0:
            raise ArgumentError("dt must be > 0")
        m.dt = float(dt)
    if max_lag is not None:
        if not float(max_lag) >= 0:
            raise ArgumentError("max_lag must be >= 0")
        m.max_lag = float(max_lag)
    return m


def _text(c):
    """A char[] field (ctypes gives bytes) or an element of a char[][] (a c_char array) => str."""
    return (c if isinstance(c, bytes) else c.value).decode("utf-8", "replace")


class Comparison(L.Owner):
    """Result of compare(): ``lag`` (s; measured(t) = run(t - lag)), ``dt`` (the grid step), ``t`` (the grid, in the
    measured record's time), ``measured`` and ``predicted`` (Tables: channel -> array on the grid, in the run's units,
    keyed by the run channel), ``channels`` (a list of dicts as compare.json's: nrmse, rms, bias, peaks, lag,
    tol, verdict), ``report`` (the whole as a dict), ``impacts(channel)``, ``loops(name)`` and ``residual(run)``."""

    def __init__(self, ptr, source):
        self._init_lock()
        self._p = ptr
        c = ptr.contents
        n, self.source = c.n, source
        self.lag, self.dt = c.lag, c.h
        self.t = np.ctypeslib.as_array(c.t, shape=(n,)).copy()
        m = c.map
        self._names = [_text(m.ch[k].run) for k in range(m.n)]
        self.measured = Table((self._names[k], np.ctypeslib.as_array(c.meas[k], shape=(n,)).copy()) for k in range(m.n))
        self.predicted = Table((self._names[k], np.ctypeslib.as_array(c.pred[k], shape=(n,)).copy())
                               for k in range(m.n))
        self.units = {self._names[k]: _text(c.run_unit[k]) for k in range(m.n)}
        self.channels = []
        for k in range(m.n):
            R = c.res[k]
            d = {"measured": _text(m.ch[k].meas), "run": self._names[k], "unit": self.units[self._names[k]],
                 "measured_unit": _text(m.ch[k].unit), "factor": c.factor[k], "impact": bool(m.ch[k].impact)}
            for f in ("nrmse", "norm", "rms", "bias", "peak_err", "peak_rel", "lag", "tol", "peak_tol"):
                d[f] = getattr(R, f)
            d.update({"max_abs_error": R.max_abs_err, "t_max_abs_error": R.t_max_abs_err, "peak_measured": R.peak_meas,
                      "t_peak_measured": R.t_peak_meas, "peak_predicted": R.peak_pred,
                      "t_peak_predicted": R.t_peak_pred,
                      "verdict": "none" if R.verdict < 0 else "pass" if R.verdict else "fail"})
            self.channels.append(d)
        self.method = ("xcorr", "event", "none")[m.align]
        self.loop_names = [_text(m.loop[i].name) for i in range(m.nloop)]

    def _free(self):
        L.mech.mech_compare_free(self._p)

    def __repr__(self):
        return "Comparison(lag %.6g ms, %d samples of %.4g ms, %s)" % (
            1e3 * self.lag, self.t.size, 1e3 * self.dt,
            ", ".join("%s NRMSE %.3g" % (c["run"], c["nrmse"]) for c in self.channels))

    @property
    def report(self) -> dict:
        """The comparison as a dict (compare.json's alignment, grid and channels)."""
        return {"alignment": {"method": self.method, "lag": self.lag},
                "grid": {"dt": self.dt, "t_start": float(self.t[0]), "t_end": float(self.t[-1]),
                         "samples": int(self.t.size)},
                "channels": [dict(c) for c in self.channels]}

    def impacts(self, channel, threshold=None) -> dict:
        """(run channel, threshold (default 5 % of the measured peak |value|, as mech compare)) => {"measured":
        Table, "predicted": Table} of the episodes (t_start, t_end, t_peak, peak, impulse) on the grid."""
        if channel not in self.measured:
            raise ArgumentError("no channel '%s' in the comparison" % channel)
        k = self._names.index(channel)
        th = 0.05 * abs(self.channels[k]["peak_measured"]) if threshold is None else float(threshold)
        out = {}
        for side, v in (("measured", self.measured[channel]), ("predicted", self.predicted[channel])):
            buf = (L.CompareImpact * 256)()
            cnt = L.mech.mech_compare_impacts(self.t.ctypes.data_as(L.dbl_p), v.ctypes.data_as(L.dbl_p), v.size, th,
                                              buf, 256)
            rows = [buf[i] for i in range(min(cnt, 256))]
            out[side] = Table((f, np.array([getattr(r, f) for r in rows], dtype=np.float64))
                              for f, _ in L.CompareImpact._fields_)
        return out

    def loops(self, name) -> tuple:
        """(element name of the map's "loops") => (Loops of the measured loop, Loops of the predicted one), cut with
        the measured record's threshold (hyst loops' analysis)."""
        if name not in self.loop_names:
            raise ArgumentError("no loop '%s' (the map's loops: %s)" % (name, ", ".join(self.loop_names) or "none"))
        a, b, err = L.Loops(), L.Loops(), L.Err()
        with self._use():
            check(L.mech.mech_compare_loops(self._p, self.loop_names.index(name), C.byref(a), C.byref(b),
                                            C.byref(err)), err)
        try:
            return Loops(a, None, None), Loops(b, None, None)
        finally:
            L.hyst.hy_loops_free(C.byref(a))
            L.hyst.hy_loops_free(C.byref(b))

    def residual(self, run, units=None) -> np.ndarray:
        """(another run: a DockRun / BeamRun in memory, a dict of arrays with "t" (units: channel -> unit), or a
        path) => the
        residual vector on this comparison's grid and lag, channel after channel: (run(t - lag) - measured) /
        (range sqrt(n)); each channel's block has sum of squares NRMSE^2."""
        err = L.Err()
        with self._use():
            n = L.mech.mech_compare_nresid(self._p)
            r = np.empty(n)
            rec, fr = _record(run, self._names, None, None, "run", units)
            try:
                check(L.mech.mech_compare_residual(self._p, C.byref(rec.rec), r.ctypes.data_as(L.dbl_p),
                                                   C.byref(err)), err)
            finally:
                if fr:
                    rec.free()
        return r


def _record(x, names, t_col, t_unit, what, units=None):
    """(a path, a run object or a dict of arrays) => (record, whether it must be freed)."""
    if _runlike(x):
        h, u = _pick(x.history, x.units, names)
        return _MemRec(h, u, what), False
    if isinstance(x, dict):
        h, u = _pick(x, units or {}, names)
        return _MemRec(h, u, what), False
    path = str(os.fspath(x))
    if what == "run":
        buf, err = C.create_string_buffer(4200), L.Err()
        check(L.mech.mech_compare_run_table(_b(path), buf, 4200, C.byref(err)), err)
        path = buf.value.decode("utf-8")
    fr = _FileRec(path, t_col or "t", t_unit, names)
    if fr.rc != 0:
        fr.free()
        check(fr.rc, fr.err)
    return fr, True


def compare(run, measured, *, map=None, channels=None, align=None, tol=None, dt=None, max_lag=None, window=None,
            run_units=None, measured_units=None) -> Comparison:
    """(run: a mech dock folder / HDF5 log / mech beam sim output path, a DockRun or BeamRun, or a dict of arrays
    with "t" (units in run_units); measured: a CSV or FILE.h5:/DSET path, or a dict of arrays with the map's time
    column (units in measured_units)) => Comparison, as `mech compare` computes it (the same library functions).
    map: a mech-compare-map file, dict or JSON text; channels: names both records have (instead of a map); align:
    a measured channel, "event" or "none"; tol: {channel: NRMSE tolerance}; dt, max_lag: the grid step and the
    largest |lag| searched (s); window: (t0, t1), the part of the measured record compared (its time)."""
    _need_mech()
    m = _map(map, channels, align, tol, dt, max_lag, window)
    rn = [_text(m.ch[k].run) for k in range(m.n)]
    mn = [_text(m.ch[k].meas) for k in range(m.n)]
    t_col, t_unit = _text(m.time) or "t", _text(m.time_unit) or None
    rr, rfree = _record(run, rn, "t", "s", "run", run_units)
    try:
        if isinstance(measured, dict):
            h = dict(measured)
            if t_col != "t":
                h["t"] = h.pop(t_col)
            mr, mfree = _record(h, mn, None, None, "measured", measured_units)
        else:
            mr, mfree = _record(measured, mn, t_col, t_unit, "measured")
        try:
            p, err = C.POINTER(L.Compare)(), L.Err()
            check(L.mech.mech_compare_new(C.byref(m), C.byref(rr.rec), C.byref(mr.rec), C.byref(p), C.byref(err)), err)
            return Comparison(p, str(measured) if not isinstance(measured, dict) else "measured")
        finally:
            if mfree:
                mr.free()
    finally:
        if rfree:
            rr.free()
