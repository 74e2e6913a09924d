"""Probe-cone docking (mech/dock.h, docs/dock.md): a `mech dock` scenario from a dict, JSON text or file, run in
memory (history, element records and the summary as arrays and a dict, no files) or stepped by the caller for
co-simulation (DockSim.step, DockSim.state).

Lifetime: a DockSim keeps its DockScenario (configuration, laws and compiled model) alive; closing a scenario that
a live simulation still uses raises ClosedError."""
import ctypes as C
import json
import math
import operator
import os
import weakref

import numpy as np

from . import _lib as L
from .errors import ClosedError, check
from .table import Table

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
    (or ``base_dir`` for a dict or text; default: the current directory). ``duration`` (s) replaces the file's, as
    `mech dock --duration` does (mech_dock_config_set_duration: after parsing, so outputs.view_times past it are
    accepted and never reached). ``config`` is the configuration as a dict, every key resolved
    (mech_dock_config_print). A missing file raises FileNotFoundError.

    Copies (copy.copy, copy.deepcopy) and pickles are new scenarios parsed from the printed configuration (law paths
    resolved to absolute paths, so a pickle loads where those files exist)."""

    def __init__(self, source, *, base_dir=None, name=None, duration=None):
        _need_mech()
        self._init_lock()
        self._cfg, self._model = C.c_void_p(), C.c_void_p()
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
        self._sims = weakref.WeakSet()
        err = L.Err()
        check(L.mech.mech_dock_config_new(text, len(text), name.encode(),
                                          os.fsencode(base_dir) if base_dir else None, C.byref(self._cfg),
                                          C.byref(err)), err)
        try:
            self._text = L.take_string(L.mech.mech_dock_config_print(self._cfg, C.byref(err)))  # before the override
            if self._text is None:
                check(err.code or 9, err)
            self._duration = None
            if duration is not None:
                self._duration = float(duration)
                check(L.mech.mech_dock_config_set_duration(self._cfg, self._duration, C.byref(err)), err)
            check(L.mech.mech_dock_model_new(L.mech.mech_dock_config_params(self._cfg), C.byref(self._model),
                                             C.byref(err)), err)
            self.config = json.loads(L.take_string(L.mech.mech_dock_config_print(self._cfg, C.byref(err))))
        except BaseException:
            self.close()
            raise

    def _handle(self):
        if not self._model or self._closed:
            raise ClosedError("the docking scenario %s is closed" % self.name)
        return self._model

    def _free(self):
        if self._model:
            L.mech.mech_dock_model_free(self._model)
            self._model = C.c_void_p()
        if self._cfg:
            L.mech.mech_dock_config_delete(self._cfg)
            self._cfg = None

    def close(self) -> None:
        """Frees the model and the configuration. ClosedError while a DockSim still uses them."""
        live = [s for s in self._sims if not s._closed]
        if live:
            raise ClosedError("the docking scenario %s is used by %d simulation(s); close them first" %
                              (self.name, len(live)))
        L.Owner.close(self)

    def __copy__(self) -> "DockScenario":
        return DockScenario(self._text, name=self.name, duration=self._duration)

    def __deepcopy__(self, memo) -> "DockScenario":
        return self.__copy__()

    def __reduce__(self):
        return (_unpickle_scenario, (self._text, self.name, self._duration))

    def __repr__(self):
        if self._closed:
            return "DockScenario(%r, closed)" % self.name
        return "DockScenario(%r, variant %s, step %g s, duration %g s)" % (
            self.name, self.config.get("variant"), self.step_size, self.duration)

    def with_duration(self, duration: float) -> "DockScenario":
        """A new scenario of the same configuration with another duration (as `mech dock --duration`)."""
        return DockScenario(self._text, name=self.name, duration=duration)

    def element_used(self, e: int) -> bool:
        """(element index) => True when a run of this scenario drives it (the cover only with the stand option)"""
        return bool(L.mech.mech_dock_element_used(L.mech.mech_dock_model_params(self._handle()), e))

    @property
    def step_size(self) -> float:
        """The step h (s), or the first trial step of an error-controlled run."""
        return self.config["step"]

    @property
    def duration(self) -> float:
        """The simulated time (s)."""
        return self.config["duration"]

    def sim(self) -> "DockSim":
        """A new DockSim of this scenario at t = 0."""
        return DockSim(self)

    def run(self, **kw) -> "DockRun":
        """run_dock(self, **kw)."""
        return run_dock(self, **kw)


def _unpickle_scenario(text, name, duration):
    return DockScenario(text, name=name, duration=duration)


class DockSim(L.Owner):
    """A docking simulation at t = 0 (mech_dock_sim): ``step()`` one accepted RK4 step, ``run(n)`` many in C;
    ``time``, ``steps``, ``state`` (channel name -> value), ``channels`` (array, CHANNELS order), ``element(name)``,
    ``summary`` (the dict `mech dock` writes as summary.json)."""

    def __init__(self, scenario):
        self._init_lock()
        self._sim = C.c_void_p()
        if not isinstance(scenario, DockScenario):
            scenario = DockScenario(scenario)
        self.scenario = scenario            # keeps the model and its laws alive
        err = L.Err()
        with scenario._use():
            check(L.mech.mech_dock_sim_new(scenario._handle(), C.byref(self._sim), C.byref(err)), err)
        scenario._sims.add(self)
        self.failed, self.error = False, None
        self._done = 0

    def _h(self):
        if not self._sim or self._closed:
            raise ClosedError("the docking simulation is closed")
        return self._sim

    def _free(self):
        if self._sim:
            L.mech.mech_dock_sim_free(self._sim)
            self._sim = C.c_void_p()

    def close(self) -> None:
        """Frees the simulation (when a run() in another thread returns, if one runs). Idempotent."""
        L.Owner.close(self)

    def __repr__(self):
        if self._closed:
            return "DockSim(%r, closed)" % self.scenario.name
        return "DockSim(%r, t=%.6g s, %d steps%s)" % (self.scenario.name, self.time, self.steps,
                                                      ", done" if self.done else "")

    def step(self) -> "DockSim":
        """One accepted step (none once the run is done: a run of at most one step of the one run function,
        mech_dock_run); on failure the state stays at the last accepted step and StateError/NumericError
        carries the C message ("t = ... s: <element or contact>: <what>; hint: ...")."""
        err = L.Err()
        with self._use():
            rc = L.mech.mech_dock_sim_run(self._h(), 1, None, None, None, C.byref(err))
        if rc:
            self.failed, self.error = True, err.msg.decode("utf-8", "replace")
        check(rc, err)
        return self

    def run(self, n: int, *, hist=None, rec=None) -> int:
        """Up to n >= 0 steps in C, channels after each step into hist[n, NCH] and each element's (q, Q) into
        rec[n, NEL, 2] (writeable float64 C-contiguous arrays, written in place, or None). Returns the steps done
        (fewer at the end of the run); a failing step raises as step() does (the rows before it are filled)."""
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError("n: expected a whole number of steps, got %r" % (n,)) from None
        if n < 0:
            raise ValueError("n: expected a number of steps >= 0, got %d" % n)
        for nm, a, shape in (("hist", hist, (n, NCH)), ("rec", rec, (n, NEL, 2))):
            if a is not None and not (isinstance(a, np.ndarray) and a.dtype == np.float64 and a.flags.c_contiguous
                                      and a.shape == shape):
                raise ValueError("%s: expected a contiguous float64 array of shape %s" % (nm, shape))
            if a is not None and not a.flags.writeable:
                raise ValueError("%s is read-only (flags.writeable is False): C would write into it" % nm)
        done, err = C.c_size_t(), L.Err()
        with self._use():
            rc = L.mech.mech_dock_sim_run(self._h(), n, None if hist is None else hist.ctypes.data_as(L.dbl_p),
                                          None if rec is None else rec.ctypes.data_as(L.dbl_p), C.byref(done),
                                          C.byref(err))
        self._done = done.value
        if rc:
            self.failed, self.error = True, err.msg.decode("utf-8", "replace")
        check(rc, err)
        return done.value

    @property
    def time(self) -> float:
        """Simulated time of the last accepted state, s."""
        with self._use():
            return L.mech.mech_dock_sim_time(self._h())

    @property
    def done(self) -> bool:
        """True once the run reached its end: the duration, or the end (or a failure state) of the whole process."""
        with self._use():
            return bool(L.mech.mech_dock_sim_done(self._h()))

    @property
    def steps(self) -> int:
        """Accepted steps so far."""
        with self._use():
            return L.mech.mech_dock_sim_steps(self._h())

    @property
    def channels(self):
        """Channel values at the last accepted state (a copy), CHANNELS order."""
        with self._use():
            return np.ctypeslib.as_array(L.mech.mech_dock_sim_channels(self._h()), shape=(NCH,)).copy()

    @property
    def state(self) -> dict:
        """Channel name -> value at the last accepted state."""
        return dict(zip(CHANNELS, self.channels.tolist()))

    def element(self, el) -> dict:
        """(element name or index) => dict q, Q (SI), state, work (J booked so far). ValueError for an unknown
        name (the message lists the names), IndexError for an index outside 0..NEL-1."""
        if isinstance(el, str):
            if el not in ELEMENTS:
                raise ValueError("element %r: expected one of %s" % (el, ", ".join(ELEMENTS)))
            i = ELEMENTS.index(el)
        else:
            i = operator.index(el)
        if not 0 <= i < NEL:
            raise IndexError("element index %d outside 0..%d" % (i, NEL - 1))
        q, Q, st, w = C.c_double(), C.c_double(), C.c_int(), C.c_double()
        with self._use():
            L.mech.mech_dock_sim_element(self._h(), i, C.byref(q), C.byref(Q), C.byref(st), C.byref(w))
        return {"q": q.value, "Q": Q.value, "state": st.value, "work": w.value}

    @property
    def process(self):
        """The whole docking process (scenarios with a "process" section; docs/dock-process.md §8) as summary.json's
        "process" object: the sequencer's log and final state, phase times (None: not reached), drive, pushers,
        planes, rollers, limiter pads on the cone wall, FrT1, the energy residual relative to KE0 + drive work."""
        with self._use():
            ps = L.mech.mech_dock_sim_process(self._h()).contents
            hs = L.mech.mech_dock_sim_hooks(self._h()).contents
            return self._process(ps, hs)

    def _process(self, ps, hs):
        name = lambda k: L.mech.mech_dock_seq_state_name(k).decode()
        nn = lambda v: v if math.isfinite(v) else None
        seq = [{"t": e.t, "from": name(getattr(e, "from")), "to": name(e.to),
                "cause": L.mech.mech_dock_seq_cause_name(e.cause).decode()} for e in ps.log[:ps.n_log]]
        # the end of the process is a state (issue 44): "end" is entered only in the docked state
        d = {"final_state": name(ps.state), "completed": name(ps.state) == "end",
             "fault": self._fault(ps.fault)}
        d["sequence"] = seq
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
                  "frt1_slip_end": ps.frt1_slip_end, "energy_residual_relative": ps.e_residual_rel,
                  "at_closed": {"roll": nn(ps.roll_closed), "tilt": nn(ps.tilt_closed),
                                "rod_gap_max": nn(ps.gap_closed_max)},
                  "hooks": self._hooks(hs, name(ps.state) == "fail-hooks")})
        if ps.guide_n > 0:   # the roll guides (docs/dock-process.md §9a), as summary.json has them
            d["roll_guides"] = {"t_enter": nn(ps.guide_t_enter),
                                "roll_enter_deg": nn(ps.guide_roll_enter / DEG),
                                "force_max": ps.guide_force_max, "miss_steps": ps.guide_miss_steps}
        return d

    def _fault(self, f):
        """The fault monitor's trip as summary.json's "process" "fault" (None: no fault)."""
        if f.kind == 0:
            return None
        buf = C.create_string_buffer(300)
        variant = {"A": 0, "B": 1, "C": 1}.get(self.scenario.config.get("variant"), 0)
        L.mech.mech_dock_fault_reason(C.byref(f), variant, buf, 300)
        vals = {}
        for k in range(4):
            nm = L.mech.mech_dock_fault_value_name(f.kind, k)
            if nm:
                vals[nm.decode()] = f.v[k] if math.isfinite(f.v[k]) else None
        return {"name": L.mech.mech_dock_fault_name(f.kind).decode(),
                "state": L.mech.mech_dock_seq_state_name(L.mech.mech_dock_fault_seq_state(f.kind)).decode(),
                "t": f.t, "reason": buf.value.decode(), "values": vals}

    @staticmethod
    def _hooks(hs, failed):
        """summary.json's "process"."hooks" (docs/dock-process.md §9): the structural hooks and the docked state"""
        nn = lambda v: v if math.isfinite(v) else None
        deg = lambda v: v * 180 / math.pi if math.isfinite(v) else None
        p = hs.p
        reason = L.mech.mech_dock_docked_reason(hs.unmet).decode()
        h = {"t_start": nn(hs.t_start), "links": p.n, "engaged": hs.engaged, "missed": hs.missed,
             "roll_start_deg": deg(hs.roll_start), "catch_offset_max_start": nn(hs.miss_max), "locked": hs.locked,
             "t_locked": nn(hs.t_locked), "t_docked": nn(hs.t_docked), "tension_min": nn(hs.tension_min),
             "tension_max": nn(hs.tension_max), "tension_peak": hs.tension_peak, "drive_work": hs.work,
             "rod_gap_max_end": nn(hs.gap_rods), "roll_end_deg": deg(hs.roll), "tilt_end_deg": deg(hs.tilt),
             "docked_end": hs.unmet == 0, "docked_end_reason": reason}
        if failed:
            why = ("hooks missed their catches (roll or offset beyond the catch's half-width at the start)"
                   if hs.missed > 0 else reason)
            h["failure"] = {"name": "hooks not closed in time", "t": nn(hs.t_fail), "reason": why, "values": {
                "locked": hs.locked, "missed": hs.missed, "roll_start_deg": deg(hs.roll_start),
                "catch_offset_max_start": nn(hs.miss_max), "catch_half_width": p.roll_tol * p.radius,
                "tension_min": nn(hs.tension_min), "preload_min": p.preload_min, "rod_gap_max": nn(hs.gap_rods),
                "contact_gap": p.contact_gap, "roll_deg": deg(hs.roll), "roll_tol_deg": deg(p.roll_tol),
                "tilt_deg": deg(hs.tilt), "tilt_tol_deg": deg(p.tilt_tol)}}
        return h

    @property
    def movable_limiter(self):
        """Variant C's movable limiter (docs/dock-process.md §8.5) as summary.json's "movable_limiter" object: its
        first contact with the cone (None: none) and whether it came before capture, the last change of its pad
        contact, impacts, stroke (largest, end), pad force, guide friction (largest, work), steps loaded and stuck,
        stick events. None for A and B."""
        if self.scenario.config.get("variant") != "C":
            return None
        with self._use():
            ls = L.mech.mech_dock_sim_limiter(self._h()).contents
            return self._limiter(ls)

    def _limiter(self, ls):
        nn = lambda v: v if math.isfinite(v) else None
        return {"first_contact": nn(ls.first_contact), "contact_before_capture": bool(ls.before_capture),
                "last_contact_change": nn(ls.last_change), "impacts": ls.impacts, "stroke_max": ls.x_max,
                "stroke_end": ls.x_end, "pad_force_max": ls.force_max, "guide_friction_max": ls.friction_max,
                "guide_friction_work": ls.friction_work, "loaded_steps": ls.loaded_steps,
                "stuck_steps": ls.stuck_steps, "stick_events": ls.stick_events, "breakaways": ls.breakaways}

    @property
    def summary(self):
        """The summary as `mech dock` writes summary.json (same keys and numbers; no "record" file names)."""
        with self._use():
            return self._summary(L.mech.mech_dock_sim_summary(self._h()).contents)

    def _summary(self, u):
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
        if "process" in c:   # the drive: its motors' work (an input) and what it holds (docs/dock-process.md §8)
            en.update({k: float(ch[CHANNELS.index(k)]) for k in ("e_drive", "e_drive_stored")})
        en["residual_max"] = u.e_residual_max
        en["residual_max_percent"] = nn(100 * u.e_residual_max / u.e_initial if u.e_initial > 0 else math.nan)
        d["energy"] = en
        n0 = norm(u.momentum0)
        d["momentum"] = {"linear_initial": vec(u.momentum0), "linear_final": vec(u.momentum),
                         "linear_drift_relative": nn(drift(u.momentum0, u.momentum) / n0 if n0 > 0 else math.nan),
                         "angular_initial": vec(u.ang_momentum0), "angular_final": vec(u.ang_momentum),
                         "angular_drift": drift(u.ang_momentum0, u.ang_momentum)}
        # the docked state's measures (issue 44; docs/dock-process.md §8.6), as mech dock writes them
        d["docked"] = {"tilt_max": nn(u.tilt_max), "tilt_max_deg": nn(u.tilt_max / DEG), "tilt_end": nn(u.tilt_end),
                       "roll_closed": nn(u.roll_closed), "roll_closed_deg": nn(u.roll_closed / DEG),
                       "latch_roll_closed": nn(u.latch_roll_closed),
                       "latch_roll_closed_deg": nn(u.latch_roll_closed / DEG),
                       "latches_closed": u.latches_closed if u.latches_closed >= 0 else None,
                       "latches_all_time": nn(u.latches_all_time), "limiter_clearance": nn(u.limiter_clearance),
                       "limiter_lead": nn(u.limiter_lead), "frt1_restored": u.frt1_restored,
                       "frt1_pusher_share": nn(u.frt1_pusher_share), "restore_t0": nn(u.restore_t0),
                       "restore_t1": nn(u.restore_t1), "restore_gap_max": nn(u.restore_gap_max),
                       "restore_gap_min": nn(u.restore_gap_min)}
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
    """Result of run_dock: ``history`` (a Table: channel name -> array, one row per accepted step plus t = 0, "t" first),
    ``units`` (channel name -> unit), ``elements`` (name -> dict t, q, Q arrays and units), ``summary`` (dict as
    summary.json), ``ok`` (False when a step failed; ``summary["error"]`` says why)."""

    def __init__(self, history, units, elements, summary):
        self.history, self.units, self.elements, self.summary = history, units, elements, summary
        self.ok = summary["status"] == "ok"

    def __repr__(self):
        return "DockRun(%s, %d steps, captured=%s)" % (self.summary["status"], self.summary["steps"],
                                                      self.summary["captured"])

    def to_pandas(self):
        """The history as a pandas DataFrame (one row per accepted step plus t = 0)."""
        return self.history.to_pandas()


def run_dock(scenario, *, base_dir=None, duration=None, records=True) -> DockRun:
    """(scenario: DockScenario, dict, JSON text or file) => DockRun, in memory: the steps `mech dock` takes
    (lround(duration / step)), batched in C. ``duration`` replaces the scenario's as `mech dock --duration` does
    (view times past it are accepted). A failing step ends the run (as `mech dock`: everything before it is
    kept and the summary's status is "failed")."""
    if not isinstance(scenario, DockScenario):
        scenario = DockScenario(scenario, base_dir=base_dir, duration=duration)
    elif duration is not None and float(duration) != scenario.duration:
        scenario = scenario.with_duration(duration)     # the run ends at the model's own duration
    dur = scenario.duration
    adaptive = scenario.config.get("integration", {}).get("tolerance", 0) > 0
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
        history = Table((name, hist[:k, i].copy()) for i, name in enumerate(CHANNELS))
        elements = {}
        if records:
            for e, name in enumerate(ELEMENTS):
                if not scenario.element_used(e):
                    continue
                elements[name] = {"t": history["t"], "q": rec[:k, e, 0].copy(), "Q": rec[:k, e, 1].copy(),
                                  "unit_q": ELEMENT_UNITS[e][0], "unit_Q": ELEMENT_UNITS[e][1]}
        summary = sim.summary
    return DockRun(history, dict(zip(CHANNELS, CHANNEL_UNITS)), elements, summary)
