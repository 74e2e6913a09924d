"""Bench records: a CSV file read by libhyst's reader (hyst/csvread.h), or a table of an HDF5 log
(``FILE.h5:/records/X``, hyst/h5log.h), into NumPy arrays with names and units."""
import ctypes as C
import os
import warnings

import numpy as np

from . import _lib as L
from .errors import check

__all__ = ["Record", "read_csv", "read_record"]


class Record:
    """A record: q (displacement), Q (force) and optionally t, with column names, units and the source lines.

    Arrays are plain float64 NumPy arrays (C order); ``lines[i]`` is the 1-based line of sample i in the source
    file, which error messages and fit reports use."""

    def __init__(self, q, Q, t=None, *, names=None, units=None, source="<array>", lines=None):
        self.q = np.ascontiguousarray(q, dtype=np.float64)
        self.Q = np.ascontiguousarray(Q, dtype=np.float64)
        self.t = None if t is None else np.ascontiguousarray(t, dtype=np.float64)
        if self.Q.shape != self.q.shape or self.q.ndim != 1 or (self.t is not None and self.t.shape != self.q.shape):
            raise ValueError("q, Q (and t) must be 1-d arrays of the same length")
        self.names = {"t": "t" if t is not None else "", "q": "q", "Q": "Q"}
        self.names.update(names or {})
        self.units = {"t": "", "q": "", "Q": ""}
        self.units.update(units or {})
        for k in list(self.names) + list(self.units):
            if k not in ("t", "q", "Q"):
                raise ValueError("names and units: keys are t, q and Q, got %r" % (k,))
        self.source = source
        self.lines = None if lines is None else np.ascontiguousarray(lines, dtype=np.uintp)

    def __len__(self):
        return self.q.shape[0]

    def __repr__(self):
        return "Record(%r, n=%d, q=%s [%s], Q=%s [%s]%s)" % (
            self.source, len(self), self.names["q"], self.units["q"], self.names["Q"], self.units["Q"],
            ", t" if self.t is not None else "")

    def _series(self):
        """A hy_series viewing this record's arrays (no copy); valid while self lives."""
        s = L.Series()
        s.n = s.cap = len(self)
        s.q = self.q.ctypes.data_as(L.dbl_p)
        s.Q = self.Q.ctypes.data_as(L.dbl_p)
        s.t = self.t.ctypes.data_as(L.dbl_p) if self.t is not None else None
        s.line = self.lines.ctypes.data_as(L.size_p) if self.lines is not None else None
        for k in ("t", "q", "Q"):
            setattr(s, k + "_name", (self.names.get(k) or "").encode()[:63])
            setattr(s, k + "_unit", (self.units.get(k) or "").encode()[:31])
        s.source = self.source.encode()[:255]
        return s

    def loops(self, **options):
        """The loop analysis of this record (see hystkit.loops)."""
        from .loops import loops
        return loops(self.q, self.Q, **options)


def _col(v):
    return None if v is None else str(v).encode()


def read_csv(path, *, q=None, Q=None, t=None, q_scale=1.0, Q_scale=1.0, skip_bad_rows=False, delimiter=None,
             header=None, units_row=None) -> Record:
    """(CSV path, columns by name or 1-based index) => Record. The reader is libhyst's (`hyst` reads the same way):
    header and units row detected, separators ',' ';' tab detected, comments '#', '-' for stdin. Skipped rows
    are reported as warnings (UserWarning). Errors raise ParseError / HystIOError / DataError with the file, line
    and column.

    ``FILE.h5:/DATASET`` reads that table of an HDF5 log instead (as the `hyst` commands do, docs/formats.md
    "HDF5 logs"): the same columns, scales and checks; a path that exists as a whole file name is always CSV."""
    o = L.CsvOpts()
    L.hyst.hy_csv_opts_default(C.byref(o))
    o.x_col, o.y_col, o.t_col = _col(q), _col(Q), _col(t)
    o.x_scale, o.y_scale = float(q_scale), float(Q_scale)
    o.skip_bad_rows = int(bool(skip_bad_rows))
    if delimiter is not None:
        o.delimiter = delimiter.encode()
    if header is not None:
        o.header = int(bool(header))
    if units_row is not None:
        o.units_row = int(bool(units_row))
    collected = []
    cb = L.WARN_FN(lambda ctx, msg: collected.append(msg.decode("utf-8", "replace")))
    o.warn = cb
    s, err = L.Series(), L.Err()
    # FILE:/DSET (FILE not itself an existing file of the whole name): the HDF5 reader, as tools/hyst/cli_data.c
    raw = os.fsencode(path)
    h5file, dset = C.create_string_buffer(len(raw) + 1), C.c_char_p()
    if L.hyst.hy_h5_split_path(raw, h5file, len(h5file), C.byref(dset)):
        check(L.hyst.hy_h5_read_series(h5file.value, dset.value, C.byref(o), C.byref(s), C.byref(err)), err)
    else:
        check(L.hyst.hy_csv_read(raw, C.byref(o), C.byref(s), C.byref(err)), err)
    try:
        n = s.n
        arr = lambda p, dt=np.float64: np.ctypeslib.as_array(p, shape=(n,)).astype(dt, copy=True) if n else \
            np.empty(0, dt)
        t_arr = arr(s.t) if s.t else None
        rec = Record(arr(s.q), arr(s.Q), t_arr, source=s.source.decode(),
                     names={k: getattr(s, k + "_name").decode() for k in ("t", "q", "Q")},
                     units={k: getattr(s, k + "_unit").decode() for k in ("t", "q", "Q")},
                     lines=arr(s.line, np.uintp))
        rec.skipped_rows = s.skipped_rows
    finally:
        L.hyst.hy_series_free(C.byref(s))
    for w in collected:
        warnings.warn(w, stacklevel=2)
    return rec


def read_record(path, **options) -> Record:
    """(a bench CSV, or ``FILE.h5:/records/X`` for a table of an HDF5 log) => Record; the options of read_csv."""
    return read_csv(path, **options)
