"""Probe-cone docking (mech/dock.h, docs/dock.md): a `mech dock` scenario from a dict, JSON text or file, run in
memory (history, element records and the summary as arrays and a dict, no files) or stepped by the caller for
co-simulation (DockSim.step, DockSim.state).

Lifetime: a DockSim keeps its DockScenario (configuration, laws and compiled model) alive; closing a scenario that
a live simulation still uses raises ClosedError."""
import ctypes as C
import json
import math
import os
import weakref

import numpy as np

from . import _lib as L
from .errors import ClosedError, check

__all__ = ["DockScenario", "DockSim", "DockRun", "run_dock", "CHANNELS", "ELEMENTS"]


def _need_mech():
    if L.mech is None:
        raise ImportError("hystkit: the simulators need libmech: " + L.mech_error)


def _names():
    if L.mech is None:
        return [], [], [], []
    ch, units, el, eu = [], [], [], []
    k = 0
    while L.mech.mech_dock_channel_name(k):
        ch.append(L.mech.mech_dock_channel_name(k).decode())
        units.append(L.mech.mech_dock_channel_unit(k).decode())
        k += 1
    k = 0
    while k < 64 and L.mech.mech_dock_element_name(k):
        el.append(L.mech.mech_dock_element_name(k).decode())
        eu.append((L.mech.mech_dock_element_unit_q(k).decode(), L.mech.mech_dock_element_unit_Q(k).decode()))
        k += 1
    return ch, units, el, eu


CHANNELS, CHANNEL_UNITS, ELEMENTS, ELEMENT_UNITS = _names()
NCH, NEL = len(CHANNELS), len(ELEMENTS)
DEG = math.pi / 180


class DockScenario(L.Owner):
    """A parsed `mech-dock` configuration with its laws loaded and its model compiled.

    source: a dict, JSON text, or a path to a scenario file. Relative law paths resolve against the file's folder
    (or ``base_dir`` for a dict or text; default: the current directory). ``config`` is the configuration as a
    dict, every key resolved (mech_dock_config_print)."""

    def __init__(self, source, *, base_dir=None, name=None):
        _need_mech()
        if isinstance(source, str) and source.lstrip()[:1] == "{":
            source = source.encode()
        if isinstance(source, dict):
            text, name = json.dumps(source).encode(), name or source.get("name", "<dict>")
        elif isinstance(source, bytes) and source.lstrip()[:1] == b"{":
            text, name = source, name or "<string>"
        else:
            path = os.fspath(source)
            with open(path, "rb") as f:
                text = f.read()
            name = name or path
            base_dir = base_dir or (os.path.dirname(path) or ".")
        self.name = name
        self._cfg, self._model = C.c_void_p(), C.c_void_p()
        self._sims = weakref.WeakSet()
        err = L.Err()
        check(L.mech.mech_dock_config_new(text, len(text), name.encode(),
                                          os.fsencode(base_dir) if base_dir else None, C.byref(self._cfg),
                                          C.byref(err)), err)
        rc = L.mech.mech_dock_model_new(L.mech.mech_dock_config_params(self._cfg), C.byref(self._model),
                                        C.byref(err))
        if rc:
            L.mech.mech_dock_config_delete(self._cfg)
            self._cfg = None
            check(rc, err)
        self.config = json.loads(L.take_string(L.mech.mech_dock_config_print(self._cfg, C.byref(err))))

    def _handle(self):
        if not self._model:
            raise ClosedError("the docking scenario %s is closed" % self.name)
        return self._model

    def close(self):
        """Frees the model and the configuration. ClosedError while a DockSim still uses them."""
        live = [s for s in self._sims if s._sim]
        if live:
            raise ClosedError("the docking scenario %s is used by %d simulation(s); close them first" %
                              (self.name, len(live)))
        if self._model:
            L.mech.mech_dock_model_free(self._model)
            self._model = C.c_void_p()
        if self._cfg:
            L.mech.mech_dock_config_delete(self._cfg)
            self._cfg = None

    def element_used(self, e):
        """(element index) => True when a run of this scenario drives it (the cover only with the stand option)"""
        return bool(L.mech.mech_dock_element_used(L.mech.mech_dock_model_params(self._handle()), e))

    @property
    def step_size(self):
        return self.config["step"]

    @property
    def duration(self):
        return self.config["duration"]

    def sim(self):
        return DockSim(self)

    def run(self, **kw):
        return run_dock(self, **kw)


class DockSim(L.Owner):
    """A docking simulation at t = 0 (mech_dock_sim): ``step()`` one accepted RK4 step, ``run(n)`` many in C;
    ``time``, ``steps``, ``state`` (channel name -> value), ``channels`` (array, CHANNELS order), ``element(name)``,
    ``summary`` (the dict `mech dock` writes as summary.json)."""

    def __init__(self, scenario):
        if not isinstance(scenario, DockScenario):
            scenario = DockScenario(scenario)
        self.scenario = scenario            # keeps the model and its laws alive
        self._sim = C.c_void_p()
        err = L.Err()
        check(L.mech.mech_dock_sim_new(scenario._handle(), C.byref(self._sim), C.byref(err)), err)
        scenario._sims.add(self)
        self.failed, self.error = False, None

    def _h(self):
        if not self._sim:
            raise ClosedError("the docking simulation is closed")
        return self._sim

    def close(self):
        if self._sim:
            L.mech.mech_dock_sim_free(self._sim)
            self._sim = C.c_void_p()

    def step(self):
        """One accepted step (none once the run is done: a run of at most one step of the one run function,
        mech_dock_run); on failure the state stays at the last accepted step and StateError/NumericError
        carries the C message ("t = ... s: <element or contact>: <what>; hint: ...")."""
        err = L.Err()
        rc = L.mech.mech_dock_sim_run(self._h(), 1, None, None, None, C.byref(err))
        if rc:
            self.failed, self.error = True, err.msg.decode("utf-8", "replace")
        check(rc, err)
        return self

    def run(self, n, *, hist=None, rec=None):
        """Up to n steps in C, channels after each step into hist[n, NCH] and each element's (q, Q) into
        rec[n, NEL, 2] (float64 C-contiguous arrays, written in place, or None). Returns the steps done; a failing
        step raises as step() does (the rows before it are filled)."""
        for a, shape in ((hist, (n, NCH)), (rec, (n, NEL, 2))):
            if a is not None and not (isinstance(a, np.ndarray) and a.dtype == np.float64 and a.flags.c_contiguous
                                      and a.shape == shape):
                raise ValueError("expected a contiguous float64 array of shape %s" % (shape,))
        done, err = C.c_size_t(), L.Err()
        rc = L.mech.mech_dock_sim_run(self._h(), n, None if hist is None else hist.ctypes.data_as(L.dbl_p),
                                      None if rec is None else rec.ctypes.data_as(L.dbl_p), C.byref(done),
                                      C.byref(err))
        self._done = done.value
        if rc:
            self.failed, self.error = True, err.msg.decode("utf-8", "replace")
        check(rc, err)
        return done.value

    @property
    def time(self):
        return L.mech.mech_dock_sim_time(self._h())

    @property
    def done(self):
        """True once the run reached its end: the duration, or the end (or a failure state) of the whole process."""
        return bool(L.mech.mech_dock_sim_done(self._h()))

    @property
    def steps(self):
        return L.mech.mech_dock_sim_steps(self._h())

    @property
    def channels(self):
        """Channel values at the last accepted state (a copy), CHANNELS order."""
        return np.ctypeslib.as_array(L.mech.mech_dock_sim_channels(self._h()), shape=(NCH,)).copy()

    @property
    def state(self):
        """Channel name -> value at the last accepted state."""
        return dict(zip(CHANNELS, self.channels.tolist()))

    def element(self, el):
        """(element name or index) => dict q, Q (SI), state, work (J booked so far)."""
        i = ELEMENTS.index(el) if isinstance(el, str) else int(el)
        if not 0 <= i < NEL:
            raise IndexError("element index %d outside 0..%d" % (i, NEL - 1))
        q, Q, st, w = C.c_double(), C.c_double(), C.c_int(), C.c_double()
        L.mech.mech_dock_sim_element(self._h(), i, C.byref(q), C.byref(Q), C.byref(st), C.byref(w))
        return {"q": q.value, "Q": Q.value, "state": st.value, "work": w.value}

    @property
    def process(self):
        """The whole docking process (scenarios with a "process" section; docs/dock-process.md §8) as summary.json's
        "process" object: the sequencer's log and final state, phase times (None: not reached), drive, pushers,
        planes, rollers, limiter pads on the cone wall, FrT1, the energy residual relative to KE0 + drive work."""
        ps = L.mech.mech_dock_sim_process(self._h()).contents
        name = lambda k: L.mech.mech_dock_seq_state_name(k).decode()
        nn = lambda v: v if math.isfinite(v) else None
        seq = [{"t": e.t, "from": name(getattr(e, "from")), "to": name(e.to),
                "cause": L.mech.mech_dock_seq_cause_name(e.cause).decode()} for e in ps.log[:ps.n_log]]
        d = {"final_state": name(ps.state), "completed": name(ps.state) in ("end", "closed"), "sequence": seq}
        if ps.n_lost:
            d["sequence_events_not_logged"] = ps.n_lost
        d.update({"t_retract": nn(ps.t_retract), "t_align": nn(ps.t_align), "t_closed": nn(ps.t_closed),
                  "t_end": nn(ps.t_end), "drive_work": ps.drive_work, "drive_limit_time": ps.drive_limit_time,
                  "retract_force_max": ps.retract_force_max, "stroke_end": ps.stroke_end,
                  "plane_gap_min": nn(ps.gap_min), "pusher_force_max": ps.pusher_force_max,
                  "plane_force_max": ps.plane_force_max, "roller_force_max": ps.roller_force_max,
                  "roller_steps": ps.roller_steps, "roller_impacts": ps.roller_impacts,
                  "limiter_pad_force_max": ps.pad_force_max, "limiter_pad_impacts": ps.pad_impacts,
                  "limiter_pad_arm_mean": nn(ps.pad_arm_mean), "limiter_pad_arm_min": nn(ps.pad_arm_min),
                  "limiter_pad_arm_max": nn(ps.pad_arm_max),
                  "roller_all_touch_steps": ps.roller_all, "frt1_slip_max": ps.frt1_slip_max,
                  "frt1_slip_end": ps.frt1_slip_end, "energy_residual_relative": ps.e_residual_rel})
        return d

    @property
    def movable_limiter(self):
        """Variant C's movable limiter (docs/dock-process.md §8.5) as summary.json's "movable_limiter" object: its
        first contact with the cone (None: none) and whether it came before capture, the last change of its pad
        contact, impacts, stroke (largest, end), pad force, guide friction (largest, work), steps loaded and stuck,
        stick events. None for A and B."""
        if self.scenario.config.get("variant") != "C":
            return None
        ls = L.mech.mech_dock_sim_limiter(self._h()).contents
        nn = lambda v: v if math.isfinite(v) else None
        return {"first_contact": nn(ls.first_contact), "contact_before_capture": bool(ls.before_capture),
                "last_contact_change": nn(ls.last_change), "impacts": ls.impacts, "stroke_max": ls.x_max,
                "stroke_end": ls.x_end, "pad_force_max": ls.force_max, "guide_friction_max": ls.friction_max,
                "guide_friction_work": ls.friction_work, "loaded_steps": ls.loaded_steps,
                "stuck_steps": ls.stuck_steps, "stick_events": ls.stick_events, "breakaways": ls.breakaways}

    @property
    def summary(self):
        """The summary as `mech dock` writes summary.json (same keys and numbers; no "record" file names)."""
        u = L.mech.mech_dock_sim_summary(self._h()).contents
        c = self.scenario.config
        ch = self.channels
        nn = lambda v: v if math.isfinite(v) else None
        vec = lambda v: [v.x, v.y, v.z]
        norm = lambda v: math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z)
        drift = lambda a, b: math.sqrt((b.x - a.x) ** 2 + (b.y - a.y) ** 2 + (b.z - a.z) ** 2)
        d = {"scenario": self.scenario.name, "variant": c["variant"], "status": "failed" if self.failed else "ok"}
        integ = c.get("integration", {})
        tol = integ.get("tolerance", 0)
        if self.failed:
            d["error"] = self.error
        d.update({"active": c["vehicles"]["active"]["name"], "passive": c["vehicles"]["passive"]["name"],
                  "closing_speed": c["initial"]["closing_speed"], "step": c["step"], "tolerance": tol,
                  "method": integ.get("method", "dopri5") if tol > 0 else "fixed",
                  "control": integ.get("control", "standard") if tol > 0 else "fixed", "steps": self.steps,
                  "time": self.time, "captured": bool(u.captured),
                  "capture_time": nn(u.capture_time if u.captured else math.nan),
                  "latch_times": [nn(t) for t in u.latch_time], "failure_to_dock": bool(u.failed),
                  "capture_timeout": c["capture_timeout"], "first_contact_time": nn(u.first_contact_time),
                  "cone_contacts": u.cone_contacts, "peak_axial_force": u.peak_axial,
                  "peak_lateral_force": u.peak_lateral, "peak_limiter_force": u.peak_limiter,
                  "stroke_max": u.stroke_max, "swing_max": u.swing_max, "swing_max_deg": u.swing_max / DEG,
                  "limiter_tilt": nn(u.limiter_tilt), "limiter_tilt_deg": nn(u.limiter_tilt / DEG)})
        en = {"initial": u.e_initial}
        i0 = CHANNELS.index("e_kin_vehicles") if "e_kin_vehicles" in CHANNELS else None
        if i0 is not None:
            i1 = CHANNELS.index("e_residual")
            en.update({CHANNELS[k]: float(ch[k]) for k in range(i0, i1 + 1)})
        en["residual_max"] = u.e_residual_max
        en["residual_max_percent"] = nn(100 * u.e_residual_max / u.e_initial if u.e_initial > 0 else math.nan)
        d["energy"] = en
        n0 = norm(u.momentum0)
        d["momentum"] = {"linear_initial": vec(u.momentum0), "linear_final": vec(u.momentum),
                         "linear_drift_relative": nn(drift(u.momentum0, u.momentum) / n0 if n0 > 0 else math.nan),
                         "angular_initial": vec(u.ang_momentum0), "angular_final": vec(u.ang_momentum),
                         "angular_drift": drift(u.ang_momentum0, u.ang_momentum)}
        if "process" in c:
            d["process"] = self.process
        if c.get("variant") == "C":
            d["movable_limiter"] = self.movable_limiter
        els = []
        for e in range(NEL):
            if not self.scenario.element_used(e):
                continue
            r = self.element(e)
            els.append({"name": ELEMENTS[e], "unit_q": ELEMENT_UNITS[e][0], "unit_Q": ELEMENT_UNITS[e][1],
                        "work": r["work"], "q_final": r["q"], "Q_final": r["Q"]})
        d["elements"] = els
        return d


class DockRun:
    """Result of run_dock: ``history`` (channel name -> array, one row per accepted step plus t = 0, "t" first),
    ``units`` (channel name -> unit), ``elements`` (name -> dict t, q, Q arrays and units), ``summary`` (dict as
    summary.json), ``ok`` (False when a step failed; ``summary["error"]`` says why)."""

    def __init__(self, history, units, elements, summary):
        self.history, self.units, self.elements, self.summary = history, units, elements, summary
        self.ok = summary["status"] == "ok"

    def __repr__(self):
        return "DockRun(%s, %d steps, captured=%s)" % (self.summary["status"], self.summary["steps"],
                                                      self.summary["captured"])


def run_dock(scenario, *, base_dir=None, duration=None, records=True):
    """(scenario: DockScenario, dict, JSON text or file) => DockRun, in memory: the steps `mech dock` takes
    (lround(duration / step)), batched in C. A failing step ends the run (as `mech dock`: everything before it is
    kept and the summary's status is "failed")."""
    if not isinstance(scenario, DockScenario):
        scenario = DockScenario(scenario, base_dir=base_dir)
    dur = scenario.duration if duration is None else float(duration)
    adaptive = scenario.config.get("integration", {}).get("tolerance", 0) > 0
    if adaptive and duration is not None and dur != scenario.duration:
        # an error-controlled run ends at the model's own duration: a copy of the configuration with the new one (the
        # printed configuration names its laws by resolved paths)
        scenario = DockScenario(dict(scenario.config, duration=dur), name=scenario.name)
    # fixed steps: exactly lround(duration / step) steps, as mech dock; error-controlled: the steps are not known
    # ahead, so chunks until the run ends (the duration, or the end of the whole process)
    n = int(math.floor(dur / scenario.step_size + 0.5)) if not adaptive else 16384
    with DockSim(scenario) as sim:
        hist = np.empty((n + 1, NCH))
        rec = np.empty((n + 1, NEL, 2)) if records else None
        hist[0] = sim.channels
        if records:
            for e in range(NEL):
                r = sim.element(e)
                rec[0, e] = (r["q"], r["Q"])
        k = 1
        while True:
            m = hist.shape[0] - k
            try:
                done = sim.run(m, hist=hist[k:], rec=None if rec is None else rec[k:])
            except Exception:
                done = sim._done
                k += done
                break
            k += done
            if not adaptive or sim.done or done < m:
                break
            hist = np.concatenate([hist, np.empty((hist.shape[0], NCH))])
            if rec is not None:
                rec = np.concatenate([rec, np.empty((rec.shape[0], NEL, 2))])
        history = {name: hist[:k, i].copy() for i, name in enumerate(CHANNELS)}
        elements = {}
        if records:
            for e, name in enumerate(ELEMENTS):
                if not scenario.element_used(e):
                    continue
                elements[name] = {"t": history["t"], "q": rec[:k, e, 0].copy(), "Q": rec[:k, e, 1].copy(),
                                  "unit_q": ELEMENT_UNITS[e][0], "unit_Q": ELEMENT_UNITS[e][1]}
        summary = sim.summary
    return DockRun(history, dict(zip(CHANNELS, CHANNEL_UNITS)), elements, summary)
