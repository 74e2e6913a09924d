"""Hysteresis models (hyst/model.h, hyst/element.h): model files loaded and saved, and an element's state driven
sample by sample (step, trial/commit/revert) or in batches in C (simulate).

Lifetime: the C model is shared by every Model made from it (copies) and freed when the last one is closed or
garbage-collected; an element can never outlive its model. Using a closed Model raises ClosedError."""
import ctypes as C
import json
import os

import numpy as np

from . import _lib as L
from .errors import ClosedError, StateError, check, from_code
from .loops import as_f64

__all__ = ["Model", "load_model", "parse_model"]


class _CModel:
    """Owns one hy_model; freed when the last Python reference goes."""

    def __init__(self):
        self.m = L.Model()
        self.ok = False

    def __del__(self):
        if self.ok:
            self.ok = False
            L.hyst.hy_model_free(C.byref(self.m))


def _closed(*args, **kw):
    raise ClosedError("the model is closed")


def _diag_error(rc, diag, where=""):
    buf = C.create_string_buffer(512)
    L.hyst.hy_diag_format(C.byref(diag), buf, len(buf))
    return from_code(rc, where + buf.value.decode("utf-8", "replace"))


def _writable_out(out, n, name="out"):
    """A caller's output array: float64, C-contiguous, n samples and writeable (a read-only array, e.g. an
    np.memmap opened with mode "r", would be written through by C: refused)."""
    if not (isinstance(out, np.ndarray) and out.dtype == np.float64 and out.flags.c_contiguous and out.size == n):
        raise ValueError("%s must be a contiguous float64 array of %d samples" % (name, n))
    if not out.flags.writeable:
        raise ValueError("%s is read-only (flags.writeable is False): C would write into it" % name)
    return out


def _same_length(q, other, name):
    if other is not None and other.size != q.size:
        raise ValueError("%s has %d samples, q has %d: they must have the same length" % (name, other.size, q.size))


class Model(L.Owner):
    """A hysteresis model and the state of one element of it (at rest at the origin when made).

    ``family`` is "pwl", "kin", "bw", "iwan" or "clough", ``units`` the q and Q units of its file, ``info`` the file's other
    keys (name, source, the fit report under "fit").

    Ownership (docs/python.md): the C model is immutable and shared by a Model and its copies (freed with the last
    one); each Model owns its element. ``copy.copy`` and ``copy.deepcopy`` make an independent element with the
    same state (hy_element_copy); pickling carries the model file text (a Model at rest only: a driven element's
    state is not a file). ``close()`` from another thread while ``simulate`` runs frees the element when it returns."""

    def __init__(self, _cmodel):
        self._init_lock()
        self._cm = _cmodel
        self._e = L.Element()
        self._has_trial = False
        self._driven = False
        self._new_element()

    # ---- construction ----
    @classmethod
    def load(cls, path: "str | os.PathLike") -> "Model":
        """(model file path) => Model; errors name the file and the JSON line:column or key."""
        cm, err = _CModel(), L.Err()
        check(L.hyst.hy_model_read(os.fsencode(path), C.byref(cm.m), C.byref(err)), err)
        cm.ok = True
        return cls(cm)

    @classmethod
    def parse(cls, text: "str | bytes | dict", name: str = "<string>") -> "Model":
        """(JSON text or dict, name for messages) => Model."""
        if not isinstance(text, (str, bytes)):
            text = json.dumps(text)
        if isinstance(text, str):
            text = text.encode()
        cm, err = _CModel(), L.Err()
        check(L.hyst.hy_model_parse(text, name.encode(), C.byref(cm.m), C.byref(err)), err)
        cm.ok = True
        return cls(cm)

    def _new_element(self):
        err = L.Err()
        check(L.hyst.hy_model_element(C.byref(self._m()), C.byref(self._e), C.byref(err)), err)
        self._bind()
        self._q_last, self._Q_last = 0.0, 0.0

    def _bind(self):
        ops = self._e.ops.contents
        self._family = ops.family.decode()
        self._self = self._e.self
        self._trial, self._commit, self._revert = ops.trial, ops.commit, ops.revert
        self._state = ops.state_code
        self._Qv, self._kv, self._diag = C.c_double(), C.c_double(), L.Diag()
        self._pQ, self._pk, self._pd = C.pointer(self._Qv), C.pointer(self._kv), C.pointer(self._diag)

    def _m(self):
        if self._cm is None or self._closed:
            raise ClosedError("the model is closed")
        return self._cm.m

    def _free(self):
        if self._cm is not None:
            L.hyst.hy_element_free(C.byref(self._e))
            self._trial = self._commit = self._revert = self._state = _closed
            self._cm = None

    def close(self) -> None:
        """Frees this element (when a ``simulate`` running in another thread returns, if one does); the C model
        goes with the last Model that uses it. Idempotent; using the Model afterwards raises ClosedError."""
        L.Owner.close(self)

    # ---- copies and pickles ----
    def __copy__(self) -> "Model":
        return self.copy()

    def __deepcopy__(self, memo) -> "Model":
        # the C model is immutable: sharing it is indistinguishable from copying it; the mutable part, the element
        # state, is copied
        return self.copy()

    def __reduce__(self):
        with self._lock:
            if self._driven:
                raise TypeError("a driven Model cannot be pickled: its element state is not part of the model file "
                                "(pickle it after reset(), or pickle to_json())")
        return (_unpickle_model, (self.to_json(),))

    # ---- the file ----
    def to_json(self) -> str:
        """The model file's text (numbers printed so that they read back exactly)."""
        err = L.Err()
        with self._use():
            p = L.hyst.hy_model_print(C.byref(self._m()), C.byref(err))
        if not p:
            check(err.code or 9, err)
        return L.take_string(p)

    def as_dict(self) -> dict:
        """The model file as a dict (json.loads of to_json())."""
        return json.loads(self.to_json())

    def save(self, path, protect=None):
        """(path or "-", input file to protect or None) => model file written atomically (as `hyst` writes it)."""
        err = L.Err()
        check(L.hyst.hy_model_write(C.byref(self._m()), os.fsencode(path),
                                    None if protect is None else os.fsencode(protect), C.byref(err)), err)

    @property
    def family(self) -> str:
        """The model family: "pwl", "kin", "bw", "iwan" or "clough"."""
        self._m()
        return self._family

    @property
    def units(self) -> dict:
        """{"q": unit of the displacement, "Q": unit of the force} from the model file ("" when none)."""
        m = self._m()
        return {"q": m.unit_q.decode(), "Q": m.unit_Q.decode()}

    @property
    def info(self) -> dict:
        """The model file's keys other than the model itself: name, source, the fit report under "fit"."""
        d = self.as_dict()
        return {k: v for k, v in d.items() if k not in ("format", "version", "model", "units")}

    def __repr__(self):
        if self._cm is None or self._closed:
            return "Model(closed)"
        return "Model(%s, q=%g, Q=%g, state=%d)" % (self._family, self._q_last, self._Q_last, self.state)

    # ---- the element ----
    @property
    def state(self) -> int:
        """Committed state code (branch state for pwl, direction for kin)."""
        with self._lock:
            return self._state(self._self)

    @property
    def q(self) -> float:
        """The committed displacement."""
        return self._q_last

    @property
    def Q(self) -> float:
        """The committed force."""
        return self._Q_last

    def reset(self) -> None:
        """Element back at rest at the origin."""
        with self._use():
            L.hyst.hy_element_free(C.byref(self._e))
            self._new_element()
            self._has_trial = self._driven = False

    def copy(self) -> "Model":
        """A new Model sharing the (immutable) C model with a copy of this element's state (every family); the two
        then evolve independently."""
        other = Model.__new__(Model)
        other._init_lock()
        other._e = L.Element()
        err = L.Err()
        with self._use():
            other._cm = self._cm
            check(L.hyst.hy_element_copy(C.byref(self._e), C.byref(other._e), C.byref(err)), err)
            other._bind()
            other._q_last, other._Q_last = self._q_last, self._Q_last
            other._has_trial, other._driven = False, self._driven
        return other

    def trial(self, q: float, qdot: "float | None" = None) -> "tuple[float, float]":
        """(q, qdot (default q - committed q)) => (Q, dQ/dq) at a trial point; the committed state is unchanged."""
        q = float(q)
        with self._lock:
            rc = self._trial(self._self, q, q - self._q_last if qdot is None else float(qdot), self._pQ, self._pk,
                             self._pd)
            if rc:
                raise _diag_error(rc, self._diag)
            self._q_trial = q
            self._has_trial = True
            return self._Qv.value, self._kv.value

    def commit(self) -> None:
        """The last trial becomes the committed state. StateError when there is no trial to commit."""
        with self._lock:
            if self._closed:
                raise ClosedError("the model is closed")
            if not self._has_trial:
                raise StateError("commit: no trial to commit (call trial(q) first; a trial is committed once)")
            self._commit(self._self)
            self._q_last, self._Q_last = self._q_trial, self._Qv.value
            self._has_trial, self._driven = False, True

    def revert(self) -> None:
        """The last trial is dropped (nothing happens without one)."""
        with self._lock:
            self._revert(self._self)
            self._has_trial = False

    def step(self, q: float, qdot: "float | None" = None) -> float:
        """(q, qdot (default q - committed q)) => Q: trial and commit in one call (the co-simulation step)."""
        with self._lock:
            if self._busy:
                raise StateError("step: a simulate() of this Model runs in another thread")
            rc = self._trial(self._self, q, q - self._q_last if qdot is None else qdot, self._pQ, self._pk,
                             self._pd)
            if rc:
                self._revert(self._self)
                raise _diag_error(rc, self._diag)
            self._commit(self._self)
            self._q_last = q
            self._Q_last = Q = self._Qv.value
            self._has_trial, self._driven = False, True
            return Q

    def simulate(self, q, t=None, *, out=None, states: bool = False):
        """(q[n], t[n] or None) => Q[n]: trial + commit sample by sample in C (hy_element_drive), from the current
        committed state, which then holds the last sample. qdot = dq/dt with t, else dq. ``out``: a writeable
        float64 contiguous array the forces are written into (no copy; it is returned; a read-only array raises
        ValueError). ``states=True`` returns (Q, state codes). On a model violation raises StateError/RangeError
        naming the sample; the state stays at the last sample that passed."""
        q = as_f64(q, "q")
        n = q.size
        if t is not None:
            t = as_f64(t, "t")
            _same_length(q, t, "t")
        out = np.empty(n) if out is None else _writable_out(out, n)
        st = np.empty(n, dtype=np.intc) if states else None
        done, diag = C.c_size_t(), L.Diag()
        with self._use():
            if self._has_trial:
                self._revert(self._self)
                self._has_trial = False
            rc = L.hyst.hy_element_drive(C.byref(self._e), self._q_last,
                                         None if t is None else t.ctypes.data_as(L.dbl_p), q.ctypes.data_as(L.dbl_p),
                                         n, out.ctypes.data_as(L.dbl_p),
                                         None if st is None else st.ctypes.data_as(L.int_p), C.byref(done),
                                         C.byref(diag))
            k = done.value
            if k:
                self._q_last, self._Q_last = float(q[k - 1]), float(out[k - 1])
                self._driven = True
        if rc:
            raise _diag_error(rc, diag, "sample %d: " % k)
        return (out, st) if states else out

    def replay(self, q, t=None):
        """(q[n], t[n] or None) => Q[n] of a fresh element at rest at the origin (hy_replay_drive, as `hyst replay`);
        this Model's own state is not touched. ValueError when t is not as long as q."""
        q = as_f64(q, "q")
        t = None if t is None else as_f64(t, "t")
        _same_length(q, t, "t")
        out = np.empty(q.size)
        row, diag, err = C.c_size_t(), L.Diag(), L.Err()
        with self._use():
            check(L.hyst.hy_replay_drive(C.byref(self._m()), None if t is None else t.ctypes.data_as(L.dbl_p),
                                         q.ctypes.data_as(L.dbl_p), q.size, out.ctypes.data_as(L.dbl_p), None,
                                         C.byref(row), C.byref(diag), C.byref(err)), err)
        return out


def _unpickle_model(text):
    return Model.parse(text, "<pickle>")


def load_model(path: "str | os.PathLike") -> Model:
    """(model file) => Model."""
    return Model.load(path)


def parse_model(text: "str | bytes | dict", name: str = "<string>") -> Model:
    """(JSON text or dict) => Model."""
    return Model.parse(text, name)
