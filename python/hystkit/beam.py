"""The jointed-beam spacecraft (mech/beam.h, docs/beam.md): a `mech beam` configuration from a dict, JSON text or
file, run in memory as `mech beam sim` runs it: the history (the CSV's columns), one t, q, Q record per hinge and
the summary (the dict `--summary` writes), no files.

The run is one C call (mech_beam_run) that writes into NumPy arrays allocated here: the configuration is parsed
and its hinge models loaded (mech_beam_config_parse / _load), the model compiled, run and freed inside run_beam,
so nothing outlives the call but the arrays."""
import ctypes as C
import json
import operator
import os
import warnings

import numpy as np

from . import _lib as L
from .errors import ClosedError, HystError, check, from_code
from .table import Table

__all__ = ["BeamRun", "BeamSim", "run_beam"]

COLUMN_UNITS = {"t": "s", "w_tip": "m", "theta": "rad", "theta_dot": "rad/s", "U": "V", "F": "N"}


class BeamRun:
    """Result of run_beam:
      history  a Table (dict column -> array): t, w_tip, theta, theta_dot, dtheta_1, M_1, ..., U, F (the CSV's columns and
               order; one sample at t = 0 and one per accepted Newmark step)
      units    dict column -> unit (the CSV's units row)
      hinges   dict "hinge1", ... -> {"t", "q" (dtheta_j, rad), "Q" (M_j, N m), "unit_q", "unit_Q"} (views of
               history, the records of --hinge-records and the HDF5 log's /records/hingeJ)
      summary  dict as `mech beam sim --summary` writes it (same keys and numbers)
      ok       False when a step failed: the samples before it are kept and summary["error"] says why."""

    def __init__(self, history, units, hinges, summary):
        self.history, self.units, self.hinges, self.summary = history, units, hinges, summary
        self.ok = "error" not in summary

    def __repr__(self):
        return "BeamRun(%s, %d steps, %d hinge(s))" % ("ok" if self.ok else "failed", self.summary["steps"],
                                                       len(self.hinges))

    def to_pandas(self):
        """The history as a pandas DataFrame (the CSV's columns)."""
        return self.history.to_pandas()


def _need_mech():
    if L.mech is None:
        raise ImportError("hystkit: the simulators need libmech: " + L.mech_error)


def _config(source, base_dir, name):
    """(dict, JSON text or path) => (BeamConfig with its models and force history loaded, name for messages)."""
    c, err = L.BeamConfig(), L.Err()
    if isinstance(source, str) and source.lstrip()[:1] == "{":
        source = source.encode()
    if isinstance(source, (dict, bytes)):
        text = json.dumps(source).encode() if isinstance(source, dict) else source
        name = name or (source.get("name") if isinstance(source, dict) else None) or "<config>"
        rc = L.mech.mech_beam_config_parse(text, len(text), name.encode(),
                                           os.fsencode(base_dir) if base_dir else None, C.byref(c), C.byref(err))
        if rc == 0:
            rc = L.mech.mech_beam_config_load(C.byref(c), name.encode(), C.byref(err))
        if rc != 0:
            L.mech.mech_beam_config_free(C.byref(c))
            check(rc, err)
    else:
        path = os.fspath(source)
        name = name or path
        # mech_beam_config_read frees the configuration itself on error
        check(L.mech.mech_beam_config_read(os.fsencode(path), C.byref(c), C.byref(err)), err)
    return c, name


def _peak(v, t):
    i = int(np.argmax(np.abs(v))) if len(v) else 0    # the first largest |v|, as cmd_beam.c's strict '>'
    return i, abs(float(v[i])), float(v[i]), float(t[i])


def _summary(h, cfg, nm, hist, dth, M):
    """The summary of `mech beam sim --summary` (tools/mech/cmd_beam.c, summary()) from the run's arrays."""
    from .loops import loops
    n = h.n
    t = hist["t"]
    s = {"format": "mech-beam-summary", "steps": n - 1, "dt": cfg.solver.dt,
         "coordinates": "physical" if cfg.solver.physical else "modal",
         "update": "iterated" if cfg.solver.update == 1 else "lagged", "modes": nm, "peaks": {}, "hinges": []}
    for k in ("w_tip", "theta", "theta_dot", "U"):
        _, a, v, tm = _peak(hist[k], t)
        s["peaks"][k] = {"max_abs": a, "value": v, "time": tm}
    # the tip's settling time (libmech's mech_beam_peaks_settling, beam_peaks.c): the time of the last sample with
    # |w_tip| above 5 % of its peak, None when the last sample is above it (not settled within the run)
    aw = np.abs(np.asarray(hist["w_tip"], dtype=float))
    above = np.nonzero(aw > 0.05 * aw.max())[0] if len(aw) else np.array([], dtype=int)
    s["peaks"]["w_tip"]["settling_time"] = (float(t[0]) if above.size == 0 else
                                            None if above[-1] == len(aw) - 1 else float(t[above[-1]]))
    for j in range(cfg.params.n_hinges):
        hp = cfg.params.hinge[j]
        _, aq, _, tq = _peak(dth[j], t)
        _, aM, _, tM = _peak(M[j], t)
        o = {"position": hp.position, "clearance": hp.clearance, "dtheta_max_abs": aq, "dtheta_time": tq,
             "M_max_abs": aM, "M_time": tM, "contact_fraction": h.contact[j] / n,
             "contact_onsets": h.contact_onsets[j], "turning_points": h.turning_points[j], "work": h.W_j[j],
             "energy_per_cycle": []}
        if n >= 3:
            try:   # energy per cycle of the hinge's dtheta-M loop, hyst's loop analysis with its defaults
                lp = loops(dth[j], M[j])
                o["energy_per_cycle"] = [float(e) for e in lp.cycles["energy"]]
                o["loops_total_energy"] = lp.total_energy
            except HystError:
                pass
        s["hinges"].append(o)
    s["energy"] = {"work_external": h.W_ext, "work_hinges": h.W_hinge, "kinetic_final": h.T,
                   "elastic_final": h.V_beam, "balance_max_abs": h.balance_max}
    s["angular_momentum_final"] = h.h
    return s


def _override(cfg, duration, dt, F0, clearance, physical, iterated):
    """the program's options on a parsed configuration (run_beam and BeamSim)"""
    s = cfg.solver
    if duration is not None:
        s.duration = float(duration)
    if dt is not None:
        s.dt = float(dt)
    if F0 is not None:
        cfg.load.F0 = float(F0)
    if clearance is not None:
        if not clearance >= 0:
            raise ValueError("clearance must be >= 0 rad, got %r" % (clearance,))
        for j in range(cfg.params.n_hinges):
            cfg.params.hinge[j].clearance = float(clearance)
    if physical:
        s.physical = 1
    if iterated:
        s.update = 1


def run_beam(config, *, base_dir=None, name=None, duration=None, dt=None, F0=None, clearance=None, physical=None,
             iterated=None) -> BeamRun:
    """(config: dict, JSON text or a "mech-beam" file) => BeamRun, in memory, as `mech beam sim` runs it.

    Relative paths in the configuration (hinge models, load.history) resolve against the file's folder, or
    ``base_dir`` for a dict or text (default: the current directory). The keyword overrides are the program's
    options: duration, dt (s), F0 (N), clearance (rad, every hinge), physical, iterated (True). Errors raise with
    the C message (the file and the key); a failing step does not raise: BeamRun.ok is False."""
    _need_mech()
    cfg, name = _config(config, base_dir, name)
    model = C.c_void_p()
    try:
        s = cfg.solver
        _override(cfg, duration, dt, F0, clearance, physical, iterated)
        err, n = L.Err(), C.c_size_t()
        check(L.mech.mech_beam_samples(C.byref(s), C.byref(n), C.byref(err)), err)
        rc = L.mech.mech_beam_model_new(C.byref(cfg.params), C.byref(model), C.byref(err))
        if rc:   # as the program: the configuration's name, then the parameter
            raise from_code(rc, "%s: %s" % (name, err.msg.decode("utf-8", "replace")))
        info = L.BeamInfo()
        L.mech.mech_beam_model_info(model, C.byref(info))
        nh, n = cfg.params.n_hinges, n.value
        buf = np.empty((6 + 2 * nh, n))   # t, w_tip, theta, theta_dot, U, F, dtheta_1..nh, M_1..nh (C writes here)
        ptr = lambda i: buf[i].ctypes.data_as(L.dbl_p)
        h = L.BeamHistory(cap=n, t=ptr(0), w_tip=ptr(1), theta=ptr(2), theta_dot=ptr(3), U=ptr(4), F=ptr(5),
                          dtheta=ptr(6) if nh else None, M=ptr(6 + nh) if nh else None)
        rc = L.mech.mech_beam_run(model, C.byref(s), C.byref(cfg.load), None, C.byref(h), C.byref(err))
        if rc and not h.failed:
            check(rc, err)
        k = h.n
        col = dict(zip(("t", "w_tip", "theta", "theta_dot", "U", "F"), buf[:6, :k]))
        dth, M = buf[6:6 + nh, :k], buf[6 + nh:, :k]
        history, units = Table(), {}
        for c in ("t", "w_tip", "theta", "theta_dot"):
            history[c], units[c] = col[c], COLUMN_UNITS[c]
        for j in range(nh):
            history["dtheta_%d" % (j + 1)], units["dtheta_%d" % (j + 1)] = dth[j], "rad"
            history["M_%d" % (j + 1)], units["M_%d" % (j + 1)] = M[j], "N m"
        for c in ("U", "F"):
            history[c], units[c] = col[c], COLUMN_UNITS[c]
        hinges = {"hinge%d" % (j + 1): {"t": col["t"], "q": history["dtheta_%d" % (j + 1)],
                                        "Q": history["M_%d" % (j + 1)], "unit_q": "rad", "unit_Q": "N m"}
                  for j in range(nh)}
        summary = _summary(h, cfg, info.nm, history, dth, M)
        if h.failed:
            summary["error"] = err.msg.decode("utf-8", "replace")
        if h.W_ext != 0 and h.balance_max > 0.01 * abs(h.W_ext):   # the program's warning, as a UserWarning
            warnings.warn("the energy balance is off by %.2g %% of the work put in%s" % (
                100 * h.balance_max / abs(h.W_ext), " (the paper's lagged update with a hinge gap that opens: use "
                "iterated=True or solver.update = \"iterated\")" if s.update == 0 else "; reduce solver.dt"),
                stacklevel=2)
        return BeamRun(history, units, hinges, summary)
    finally:
        if model:
            L.mech.mech_beam_model_free(model)
        L.mech.mech_beam_config_free(C.byref(cfg))


class BeamSim(L.Owner):
    """A jointed-beam response stepped from Python (mech_beam_data): the configuration, its hinge models, the
    compiled model and the Newmark data, owned together. ``step()`` one Newmark step, ``run(n)`` n of them in a C
    loop of single steps; ``time``, ``steps``, ``observe(energy=False)`` (dict: t, w_tip, theta, theta_dot, U, F and
    arrays dtheta, M per hinge; with energy also h, T, V_beam, W_hinge, W_ext, E_lin), ``state`` (x, x' as arrays,
    reduced or physical coordinates). The same steps as run_beam and `mech beam sim` take (tests/test_beam.py). A
    failing step raises with the C message (time, hinge, hint) and the state stays at the last accepted step.
    Keyword overrides as run_beam: duration, dt, F0, clearance, physical, iterated."""

    def __init__(self, config, *, base_dir=None, name=None, duration=None, dt=None, F0=None, clearance=None,
                 physical=None, iterated=None):
        _need_mech()
        self._init_lock()
        self._model, self._data, self._cfg = C.c_void_p(), C.c_void_p(), None
        self._cfg, self.name = _config(config, base_dir, name)
        s = self._cfg.solver
        err = L.Err()
        try:
            _override(self._cfg, duration, dt, F0, clearance, physical, iterated)
            rc = L.mech.mech_beam_model_new(C.byref(self._cfg.params), C.byref(self._model), C.byref(err))
            if rc:
                raise from_code(rc, "%s: %s" % (self.name, err.msg.decode("utf-8", "replace")))
            check(L.mech.mech_beam_data_new(self._model, C.byref(s), C.byref(self._cfg.load), None, None, None,
                                            C.byref(self._data), C.byref(err)), err)
        except Exception:
            self.close()
            raise
        self.n_hinges = self._cfg.params.n_hinges
        self._obs = L.BeamObs()

    def _handle(self):
        if not self._data or self._closed:
            raise ClosedError("the beam simulation %s is closed" % self.name)
        return self._data

    def close(self) -> None:
        """Frees the data, the model and the configuration (when a run() in another thread returns, if one runs).
        Idempotent."""
        L.Owner.close(self)

    def __repr__(self):
        if self._closed:
            return "BeamSim(%r, closed)" % self.name
        return "BeamSim(%r, t=%.6g s, %d steps, %d hinge(s))" % (self.name, self.time, self.steps, self.n_hinges)

    def _free(self):
        if getattr(self, "_data", None):
            L.mech.mech_beam_data_free(self._data)
            self._data = C.c_void_p()
        if getattr(self, "_model", None):
            L.mech.mech_beam_model_free(self._model)
            self._model = C.c_void_p()
        if getattr(self, "_cfg", None) is not None:
            L.mech.mech_beam_config_free(C.byref(self._cfg))
            self._cfg = None

    def step(self) -> float:
        """One Newmark step; returns the time reached."""
        err = L.Err()
        with self._use():
            check(L.mech.mech_beam_step(self._handle(), C.byref(err)), err)
        return self.time

    def run(self, n: int) -> float:
        """n >= 0 steps in one C call (mech_beam_step_n; a failing step raises, the steps before it are kept);
        returns the time reached."""
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError("n: expected a whole number of steps, got %r" % (n,)) from None
        if n < 0:
            raise ValueError("n: expected a number of steps >= 0, got %d" % n)
        done, err = C.c_long(), L.Err()
        with self._use():
            check(L.mech.mech_beam_step_n(self._handle(), n, C.byref(done), C.byref(err)), err)
        return self.time

    @property
    def steps(self) -> int:
        """Newmark steps taken."""
        with self._use():
            return L.mech.mech_beam_steps(self._handle())

    @property
    def time(self) -> float:
        """Time of the last accepted state, s."""
        with self._use():
            L.mech.mech_beam_observe(self._handle(), C.byref(self._obs))
            return self._obs.t

    def observe(self, energy: bool = False) -> dict:
        """The last accepted state: t, w_tip, theta, theta_dot, U, F and arrays dtheta, M per hinge; with
        ``energy`` also h, T, V_beam, W_hinge, W_ext, E_lin."""
        with self._use():
            return self._observe(energy)

    def _observe(self, energy):
        o = self._obs
        (L.mech.mech_beam_observe_energy if energy else L.mech.mech_beam_observe)(self._handle(), C.byref(o))
        nh = self.n_hinges
        r = {k: getattr(o, k) for k in ("t", "w_tip", "theta", "theta_dot", "U", "F")}
        r["dtheta"] = np.array(o.dtheta[:nh]) if nh else np.empty(0)
        r["M"] = np.array(o.M[:nh]) if nh else np.empty(0)
        if energy:
            r.update({k: getattr(o, k) for k in ("h", "T", "V_beam", "W_hinge", "W_ext", "E_lin")})
        return r

    @property
    def state(self):
        """(x, x'): the coordinates [theta; q] and their rates as arrays (reduced or physical)."""
        rate, n = L.dbl_p(), C.c_size_t()
        with self._use():
            x = L.mech.mech_beam_state(self._handle(), C.byref(rate), C.byref(n))
            m = n.value + 1
            return np.array(x[:m]), np.array(rate[:m])
