"""The shared libraries and their C declarations (ctypes), mirrored from libhyst/include and libmech/include.

Where the libraries are found, first match wins:
  1. $HYSTKIT_LIBDIR (a folder holding libhyst.so.0 and libmech.so.0);
  2. the package's own folder (a wheel-like copy);
  3. <prefix>/lib for a package installed by ``make install`` into <prefix>/lib/python3.X/dist-packages;
  4. the source tree's build/lib (python/hystkit used in place after ``make``);
  5. the dynamic loader's search path (ldconfig, LD_LIBRARY_PATH).
The struct layouts below must match the headers; tests/test_abi.py compares every sizeof with the C compiler's.
"""
import ctypes as C
import os
import threading
from pathlib import Path

SO_MAJOR = 0
_here = Path(__file__).resolve().parent


def _find(name):
    soname = "lib%s.so.%d" % (name, SO_MAJOR)
    dirs = []
    if os.environ.get("HYSTKIT_LIBDIR"):
        dirs.append(Path(os.environ["HYSTKIT_LIBDIR"]))
    dirs += [_here, _here.parents[2], _here.parents[1] / "build" / "lib"]
    for d in dirs:
        if (d / soname).exists():
            return str(d / soname)
    return soname


def _load(name):
    path = _find(name)
    try:
        return C.CDLL(path, mode=C.RTLD_GLOBAL)
    except OSError as e:
        raise ImportError("hystkit: cannot load %s (%s); build it with `make` or set HYSTKIT_LIBDIR to the folder "
                          "that holds it" % (path, e)) from None


hyst = _load("hyst")
try:
    mech = _load("mech")
except ImportError as _e:   # the simulators are optional; the hysteresis functions work without them
    mech = None
    mech_error = str(_e)

dbl_p = C.POINTER(C.c_double)
size_p = C.POINTER(C.c_size_t)
int_p = C.POINTER(C.c_int)

HY_MSG_LEN = 512


class Owner:
    """Base of the Python objects that own C memory (docs/python.md "Ownership and threads").

    A subclass defines ``_free()`` (frees the C memory, called exactly once) and reaches its C memory only inside
    ``with self._use():`` (or, for the short per-sample calls, under ``self._lock``). ``close()`` is idempotent and
    safe from any thread: a call running in another thread finishes normally and the memory is freed when it
    returns (never a use after free); calls after close() raise ClosedError. The object closes when collected and
    works as a context manager (``with ... as x:``). Copies and pickles are refused (TypeError) unless the subclass
    defines them."""

    _closed = False
    _freed = False
    _busy = 0
    _lock = None

    def _init_lock(self):
        self._lock = threading.Lock()

    def _free(self):
        raise NotImplementedError

    def _closed_error(self):
        from .errors import ClosedError
        return ClosedError("the %s is closed" % type(self).__name__)

    def _use(self):
        """Context manager around a call into C memory: refuses a closed object, defers close() until it ends."""
        return _Use(self)

    def close(self) -> None:
        """Frees the C memory now, or when a call running in another thread returns. Idempotent."""
        lk = self._lock
        if lk is None:              # construction failed before the lock existed
            if not self._freed:
                self._freed = True
                self._free()
            return
        with lk:
            if self._closed:
                return
            self._closed = True
            if self._busy == 0:
                self._freed = True
                self._free()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __copy__(self):
        raise TypeError("%s owns C memory that cannot be copied (docs/python.md \"Ownership and threads\")" %
                        type(self).__name__)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        raise TypeError("%s owns C memory and cannot be pickled (docs/python.md \"Ownership and threads\")" %
                        type(self).__name__)


class _Use:
    __slots__ = ("o",)

    def __init__(self, o):
        self.o = o

    def __enter__(self):
        o = self.o
        with o._lock:
            if o._closed:
                raise o._closed_error()
            o._busy += 1
        return o

    def __exit__(self, *exc):
        o = self.o
        with o._lock:
            o._busy -= 1
            if o._closed and o._busy == 0 and not o._freed:
                o._freed = True
                o._free()


class Err(C.Structure):
    _fields_ = [("code", C.c_int), ("msg", C.c_char * HY_MSG_LEN)]


class Diag(C.Structure):
    _fields_ = [("code", C.c_int), ("state", C.c_int), ("q", C.c_double), ("qdot", C.c_double),
                ("rule", C.c_char * 200)]


# ---- records (hyst/series.h, hyst/csvread.h) ----
WARN_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_char_p)


class Series(C.Structure):
    _fields_ = [("n", C.c_size_t), ("cap", C.c_size_t), ("t", dbl_p), ("q", dbl_p), ("Q", dbl_p),
                ("line", size_p), ("t_name", C.c_char * 64), ("q_name", C.c_char * 64), ("Q_name", C.c_char * 64),
                ("t_unit", C.c_char * 32), ("q_unit", C.c_char * 32), ("Q_unit", C.c_char * 32),
                ("source", C.c_char * 256), ("skipped_rows", C.c_size_t)]


class CsvOpts(C.Structure):
    _fields_ = [("x_col", C.c_char_p), ("y_col", C.c_char_p), ("t_col", C.c_char_p), ("x_scale", C.c_double),
                ("y_scale", C.c_double), ("skip_bad_rows", C.c_int), ("delimiter", C.c_char), ("header", C.c_int),
                ("units_row", C.c_int), ("require_time_increasing", C.c_int), ("no_force", C.c_int),
                ("warn", WARN_FN), ("warn_ctx", C.c_void_p)]


# ---- loops (hyst/loops.h) ----
class LoopsOpts(C.Structure):
    _fields_ = [("threshold", C.c_double), ("amp_tol", C.c_double), ("center", C.c_double)]


class Reversal(C.Structure):
    _fields_ = [("i", C.c_size_t), ("kind", C.c_int), ("major", C.c_int)]


class InnerLoop(C.Structure):
    _fields_ = [("i0", C.c_size_t), ("i_turn", C.c_size_t), ("i1", C.c_size_t), ("kind", C.c_int),
                ("range", C.c_double), ("energy", C.c_double), ("cycle", C.c_size_t)]


class HalfCycle(C.Structure):
    _fields_ = [("i0", C.c_size_t), ("i1", C.c_size_t), ("dir", C.c_int), ("range", C.c_double),
                ("energy", C.c_double)]


class Cycle(C.Structure):
    _fields_ = [("i0", C.c_size_t), ("i1", C.c_size_t)] + [(k, C.c_double) for k in (
        "amp_pos", "amp_neg", "Q_max", "Q_min", "energy", "cum_energy", "k_sec", "e_strain", "xi_eq")] + \
        [("i_qmax", C.c_size_t), ("i_qmin", C.c_size_t), ("n_inner", C.c_size_t)]


class Curve(C.Structure):
    _fields_ = [("n", C.c_size_t), ("q", dbl_p), ("Q", dbl_p)]


class Branches(C.Structure):
    _fields_ = [("fwd_pos", Curve), ("bwd_pos", Curve), ("fwd_neg", Curve), ("bwd_neg", Curve),
                ("cycles_pos", C.c_size_t), ("cycles_neg", C.c_size_t), ("amp_pos", C.c_double),
                ("amp_neg", C.c_double)]


class Loops(C.Structure):
    _fields_ = [("n", C.c_size_t), ("threshold", C.c_double), ("n_rev", C.c_size_t), ("rev", C.POINTER(Reversal)),
                ("n_major", C.c_size_t), ("n_inner", C.c_size_t), ("inner", C.POINTER(InnerLoop)),
                ("n_half", C.c_size_t), ("half", C.POINTER(HalfCycle)), ("n_cyc", C.c_size_t),
                ("cyc", C.POINTER(Cycle)), ("center", C.c_double), ("cycle_rule", C.c_int),
                ("cycle_side", C.c_int), ("total_energy", C.c_double), ("backbone_pos", Curve),
                ("backbone_neg", Curve), ("threshold_rule", C.c_int), ("noise", C.c_double),
                ("noise_factor", C.c_double), ("noise_ratio", C.c_double), ("range", C.c_double)]


# ---- models and elements (hyst/model.h, hyst/element.h) ----
class Model(C.Structure):
    _fields_ = [("type", C.c_int), ("pwl", C.c_void_p), ("kin", C.c_void_p), ("bw", C.c_void_p),
                ("iwan", C.c_void_p), ("clough", C.c_void_p), ("unit_q", C.c_char * 32), ("unit_Q", C.c_char * 32), ("extra", C.c_void_p)]


TRIAL_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_double, C.c_double, dbl_p, dbl_p, C.POINTER(Diag))
SELF_FN = C.CFUNCTYPE(None, C.c_void_p)
RESET_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_double, C.c_double, C.POINTER(Err))
STATE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p)


class ElementOps(C.Structure):
    _fields_ = [("family", C.c_char_p), ("trial", TRIAL_FN), ("commit", SELF_FN), ("revert", SELF_FN),
                ("reset", RESET_FN), ("state_code", STATE_FN), ("destroy", SELF_FN)]


class Element(C.Structure):
    _fields_ = [("ops", C.POINTER(ElementOps)), ("self", C.c_void_p)]


# ---- fitting (hyst/pwlfit.h, hyst/kinfit.h) ----
class PwlfitOpts(C.Structure):
    _fields_ = [("segments_F", C.c_int), ("segments_B", C.c_int), ("tol", C.c_double), ("max_segments", C.c_int),
                ("backlash_mode", C.c_int), ("backlash", C.c_double), ("symmetric", C.c_int), ("kind", C.c_int),
                ("grid", C.c_size_t), ("replay", C.c_int), ("amp_tol_auto", C.c_int), ("loops", LoopsOpts)]


class KinfitOpts(C.Structure):
    _fields_ = [("rule", C.c_int), ("k", C.c_int), ("m", C.c_int), ("max_k", C.c_int), ("max_m", C.c_int),
                ("smooth", C.c_int), ("max_degree", C.c_int), ("branches", C.c_int), ("min_branch", C.c_double),
                ("rcond", C.c_double), ("constrain", C.c_int), ("attract_margin", C.c_double),
                ("select_tol", C.c_double), ("select_abs", C.c_double), ("prune", C.c_int),
                ("prune_tol", C.c_double), ("refine", C.c_int), ("refine_iter", C.c_int), ("loops", LoopsOpts)]


# ---- replay (hyst/replay.h) ----
class ReplayCycle(C.Structure):
    _fields_ = [("i0", C.c_size_t), ("i1", C.c_size_t)] + [(k, C.c_double) for k in (
        "q_min", "q_max", "energy_measured", "energy_model", "energy_ratio", "Q_max_measured", "Q_max_model",
        "Q_min_measured", "Q_min_model", "Q_max_error", "Q_min_error", "rms_error")]


class ReplayMetrics(C.Structure):
    _fields_ = [("n", C.c_size_t), ("Q_ptp", C.c_double), ("mean_error", C.c_double), ("rms_error", C.c_double),
                ("nrmse", C.c_double), ("max_abs_error", C.c_double), ("max_abs_index", C.c_size_t)] + \
        [(k, C.c_double) for k in ("energy_measured", "energy_model", "energy_ratio", "work_measured",
                                   "work_model")] + [("n_cyc", C.c_size_t), ("cyc", C.POINTER(ReplayCycle))]


# ---- docking (mech/dock.h) ----
class Vec3(C.Structure):
    _fields_ = [("x", C.c_double), ("y", C.c_double), ("z", C.c_double)]


class DockSummary(C.Structure):
    _fields_ = [("captured", C.c_int), ("capture_time", C.c_double), ("failed", C.c_int),
                ("cone_contacts", C.c_int)] + [(k, C.c_double) for k in (
                    "first_contact_time", "peak_axial", "peak_lateral", "peak_limiter", "limiter_tilt",
                    "stroke_max", "swing_max", "e_initial", "e_residual_max")] + \
        [("momentum0", Vec3), ("momentum", Vec3), ("ang_momentum0", Vec3), ("ang_momentum", Vec3),
         ("latch_time", C.c_double * 4)] + \
        [(k, C.c_double) for k in ("tilt_max", "tilt_end", "roll_closed", "latch_roll_closed")] + \
        [("latches_closed", C.c_int)] + \
        [(k, C.c_double) for k in ("latches_all_time", "limiter_clearance", "limiter_lead", "frt1_restored",
                                   "frt1_pusher_share", "restore_t0", "restore_t1", "restore_gap_max",
                                   "restore_gap_min", "slip1_prev", "restore_w_push", "restore_w_lim")]


# the whole docking process (mech/dock_process.h)
SEQ_LOG = 32


class SeqEvent(C.Structure):
    _fields_ = [("t", C.c_double), ("from", C.c_int), ("to", C.c_int), ("cause", C.c_int)]


class FaultState(C.Structure):   # mech_dock_fault_state (the fault monitor, docs/dock-process.md §2a)
    _fields_ = [("kind", C.c_int), ("t", C.c_double), ("v", C.c_double * 4)] + \
        [(k, C.c_double) for k in ("t_jam", "t_open")] + [("met", C.c_int), ("shut", C.c_int)] + \
        [(k, C.c_double) for k in ("slip_prev", "t_prev", "limit_time")]


class DockProcess(C.Structure):
    _fields_ = [("state", C.c_int), ("n_log", C.c_int), ("n_lost", C.c_int), ("log", SeqEvent * SEQ_LOG)] + \
        [(k, C.c_double) for k in ("t_retract", "t_align", "t_closed", "t_end", "drive_work", "drive_limit_time",
                                   "retract_force_max", "stroke_end", "gap_min", "pusher_force_max",
                                   "plane_force_max", "roller_force_max")] + \
        [("roller_impacts", C.c_ulong), ("pad_force_max", C.c_double), ("pad_impacts", C.c_ulong),
         ("roller_steps", C.c_ulong), ("roller_all", C.c_ulong)] + \
        [(k, C.c_double) for k in ("frt1_slip_max", "frt1_slip_end", "e_residual_rel", "pad_arm_mean", "pad_arm_min",
                                   "pad_arm_max", "pad_m_int", "pad_f_int", "pad_m_prev", "pad_f_prev",
                                   "pad_t_prev")] + [("fault", FaultState)] + \
        [(k, C.c_double) for k in ("roll_closed", "tilt_closed", "gap_closed_max")] + \
        [("guide_n", C.c_int)] + [(k, C.c_double) for k in ("guide_t_enter", "guide_roll_enter", "guide_force_max")] + \
        [("guide_miss_steps", C.c_ulong)]


class DockHooksParams(C.Structure):   # mech_dock_hooks_params (mech/dock_process_params.h)
    _fields_ = [("n", C.c_int)] + [(k, C.c_double) for k in (
        "radius", "psi0", "capture_range", "speed", "stiffness", "damping", "shear_stiffness", "shear_damping",
        "preload", "force_max", "preload_min", "roll_tol", "tilt_tol", "contact_gap")]


class DockHooks(C.Structure):   # mech_dock_hooks_summary (mech/dock_hooks.h)
    _fields_ = [("t_start", C.c_double), ("engaged", C.c_int), ("missed", C.c_int), ("roll_start", C.c_double),
                ("miss_max", C.c_double), ("locked", C.c_int)] + \
        [(k, C.c_double) for k in ("t_locked", "t_docked", "tension_min", "tension_max", "tension_peak", "work",
                                   "gap_rods", "roll", "tilt")] + \
        [("unmet", C.c_int), ("t_fail", C.c_double), ("p", DockHooksParams)]


class DockLimiter(C.Structure):   # mech_dock_limiter_summary (variant C)
    _fields_ = [("first_contact", C.c_double), ("before_capture", C.c_int), ("last_change", C.c_double),
                ("impacts", C.c_ulong), ("touching", C.c_int)] + \
        [(k, C.c_double) for k in ("x_max", "x_end", "force_max", "friction_max", "friction_work")] + \
        [(k, C.c_ulong) for k in ("loaded_steps", "stuck_steps", "stick_events", "breakaways")] + \
        [("p_prev", C.c_double), ("t_prev", C.c_double)]


# ---- jointed beam (mech/beam.h) ----
BEAM_MAX_HINGES = 16
BEAM_PATH_LEN = 1024


class BeamHinge(C.Structure):
    _fields_ = [("position", C.c_double), ("k", C.c_double), ("mass", C.c_double), ("clearance", C.c_double),
                ("law", C.c_int), ("model", C.POINTER(Model)), ("q_scale", C.c_double), ("Q_scale", C.c_double),
                ("law_scale", C.c_double)]


class BeamMfc(C.Structure):
    _fields_ = [("enabled", C.c_int)] + [(k, C.c_double) for k in (
        "start", "length", "width", "thickness", "e_eff", "electrode")] + \
        [("add_structure", C.c_int), ("density", C.c_double), ("E1", C.c_double)]


class BeamParams(C.Structure):
    _fields_ = [(k, C.c_double) for k in ("E", "rho", "length", "width", "thickness", "r0", "J1")] + \
        [("n_elem", C.c_int), ("n_modes", C.c_int), ("attachment_modes", C.c_int), ("load_position", C.c_double),
         ("n_hinges", C.c_int), ("hinge", BeamHinge * BEAM_MAX_HINGES), ("mfc", BeamMfc)]


class BeamSolver(C.Structure):
    _fields_ = [("beta", C.c_double), ("gamma", C.c_double), ("dt", C.c_double), ("duration", C.c_double),
                ("update", C.c_int), ("tol", C.c_double), ("max_iter", C.c_int), ("theta_torque", C.c_int),
                ("physical", C.c_int), ("linear", C.c_int)]


class BeamLoad(C.Structure):
    _fields_ = [("F0", C.c_double), ("t0", C.c_double), ("width", C.c_double), ("edges", C.c_int),
                ("n_hist", C.c_size_t), ("t_hist", dbl_p), ("F_hist", dbl_p)]


class BeamConfig(C.Structure):
    _fields_ = [("params", BeamParams), ("solver", BeamSolver), ("load", BeamLoad),
                ("model_path", (C.c_char * BEAM_PATH_LEN) * BEAM_MAX_HINGES), ("models", Model * BEAM_MAX_HINGES),
                ("history_path", C.c_char * BEAM_PATH_LEN), ("history_t", C.c_char * 64),
                ("history_F", C.c_char * 64), ("hist", dbl_p), ("control_enabled", C.c_int),
                ("control_design", C.c_int), ("control_Q", C.c_double), ("control_R", C.c_double),
                ("control_u_max", C.c_double), ("output_rate", C.c_double),
                ("output_events", C.c_int)]


class BeamInfo(C.Structure):
    _fields_ = [("n_elem", C.c_size_t), ("n_node", C.c_size_t), ("ndof", C.c_size_t), ("nm", C.c_size_t),
                ("J", C.c_double), ("k_ref", C.c_double)] + [(k, dbl_p) for k in (
                    "x_node", "omega", "Phi", "Mhat", "Khat", "H", "tip", "dphi", "b_u", "f_load")] + \
        [("ortho_err", C.c_double)]


class BeamHistory(C.Structure):
    _fields_ = [("cap", C.c_size_t)] + [(k, dbl_p) for k in (
        "t", "w_tip", "theta", "theta_dot", "U", "F", "dtheta", "M")] + \
        [("n", C.c_size_t), ("failed", C.c_int)] + [(k, C.c_double) for k in (
            "W_ext", "W_hinge", "T", "V_beam", "h", "balance_max")] + \
        [("W_j", C.c_double * BEAM_MAX_HINGES), ("contact", C.c_long * BEAM_MAX_HINGES),
         ("contact_onsets", C.c_long * BEAM_MAX_HINGES), ("turning_points", C.c_long * BEAM_MAX_HINGES),
         ("progress", C.c_void_p), ("progress_ctx", C.c_void_p), ("sample", C.c_void_p),
         ("sample_ctx", C.c_void_p)]


class BeamObs(C.Structure):
    _fields_ = ([(k, C.c_double) for k in ("t", "w_tip", "theta", "theta_dot", "U", "F", "h", "T", "V_beam", "W_hinge",
                                           "W_ext", "E_lin")] +
                [("dtheta", dbl_p), ("M", dbl_p), ("iterations", C.c_int), ("events", C.c_int), ("q", dbl_p),
                 ("nq", C.c_size_t)])


# mech/compare.h (issue 45, docs/compare.md)
CMP_MAX_CH, CMP_NAME, CMP_UNIT, CMP_MAX_LOOPS = 32, 64, 32, 8


class CompareRec(C.Structure):
    _fields_ = [("n", C.c_size_t), ("cap", C.c_size_t), ("t", dbl_p), ("nch", C.c_int), ("v", dbl_p * CMP_MAX_CH),
                ("name", (C.c_char * CMP_NAME) * CMP_MAX_CH), ("unit", (C.c_char * CMP_UNIT) * CMP_MAX_CH),
                ("line", size_p), ("source", C.c_char * 512), ("bad_ch", C.c_int)]


class CompareFilter(C.Structure):
    _fields_ = [("order", C.c_int), ("cutoff", C.c_double)]


class CompareChan(C.Structure):
    _fields_ = [("meas", C.c_char * CMP_NAME), ("run", C.c_char * CMP_NAME), ("unit", C.c_char * CMP_UNIT),
                ("scale", C.c_double), ("tol", C.c_double), ("impact", C.c_int), ("key", C.c_char * 32),
                ("peak_tol", C.c_double), ("derivative", C.c_int), ("filter", CompareFilter)]


class CompareLoop(C.Structure):
    _fields_ = [("name", C.c_char * CMP_NAME), ("q", C.c_int), ("Q", C.c_int)]


class CompareMap(C.Structure):
    _fields_ = [("n", C.c_int), ("ch", CompareChan * CMP_MAX_CH), ("time", C.c_char * CMP_NAME),
                ("time_unit", C.c_char * CMP_UNIT), ("align", C.c_int), ("align_ch", C.c_char * CMP_NAME),
                ("lag", C.c_double), ("max_lag", C.c_double), ("event_level", C.c_double), ("dt", C.c_double),
                ("tol", C.c_double), ("nloop", C.c_int), ("loop", CompareLoop * CMP_MAX_LOOPS),
                ("source", C.c_char * 256), ("window", C.c_double * 2)]


class CompareResult(C.Structure):
    _fields_ = [("n", C.c_size_t)] + [(k, C.c_double) for k in (
        "range", "norm", "nrmse", "rms", "bias", "max_abs_err", "t_max_abs_err", "peak_meas", "peak_pred",
        "t_peak_meas", "t_peak_pred", "peak_err", "peak_rel", "lag", "tol")] + [("verdict", C.c_int),
                                                                                 ("peak_tol", C.c_double)]


class Compare(C.Structure):
    _fields_ = [("map", CompareMap), ("lag", C.c_double), ("h", C.c_double), ("n", C.c_size_t), ("t0", C.c_double),
                ("t", dbl_p), ("meas", dbl_p * CMP_MAX_CH), ("pred", dbl_p * CMP_MAX_CH),
                ("factor", C.c_double * CMP_MAX_CH), ("run_unit", (C.c_char * CMP_UNIT) * CMP_MAX_CH),
                ("res", CompareResult * CMP_MAX_CH), ("span_run", C.c_double * 2), ("span_meas", C.c_double * 2),
                ("run_unit0", (C.c_char * CMP_UNIT) * CMP_MAX_CH)]


class CompareImpact(C.Structure):
    _fields_ = [(k, C.c_double) for k in ("t_start", "t_end", "t_peak", "peak", "impulse")]


def _proto(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


E = C.POINTER(Err)
P = C.c_void_p
_proto(hyst, "hy_status_name", C.c_char_p, C.c_int)
_proto(hyst, "hy_csv_opts_default", None, C.POINTER(CsvOpts))
_proto(hyst, "hy_csv_read", C.c_int, C.c_char_p, C.POINTER(CsvOpts), C.POINTER(Series), E)
_proto(hyst, "hy_series_free", None, C.POINTER(Series))
_proto(hyst, "hy_h5_split_path", C.c_int, C.c_char_p, C.c_char_p, C.c_size_t, C.POINTER(C.c_char_p))
_proto(hyst, "hy_h5_read_series", C.c_int, C.c_char_p, C.c_char_p, C.POINTER(CsvOpts), C.POINTER(Series), E)
_proto(hyst, "hy_loops_opts_default", None, C.POINTER(LoopsOpts))
_proto(hyst, "hy_loops_analyze", C.c_int, dbl_p, dbl_p, C.c_size_t, C.POINTER(LoopsOpts), C.POINTER(Loops), E)
_proto(hyst, "hy_loops_free", None, C.POINTER(Loops))
_proto(hyst, "hy_loops_branches", C.c_int, dbl_p, dbl_p, C.c_size_t, C.POINTER(Loops), C.POINTER(LoopsOpts),
       C.POINTER(Branches), E)
_proto(hyst, "hy_branches_free", None, C.POINTER(Branches))
_proto(hyst, "hy_loops_rule_name", C.c_char_p, C.c_int)
_proto(hyst, "hy_loops_cycle_rule_name", C.c_char_p, C.c_int)
_proto(hyst, "hy_model_read", C.c_int, C.c_char_p, C.POINTER(Model), E)
_proto(hyst, "hy_model_parse", C.c_int, C.c_char_p, C.c_char_p, C.POINTER(Model), E)
_proto(hyst, "hy_model_print", C.c_void_p, C.POINTER(Model), E)
_proto(hyst, "hy_model_write", C.c_int, C.POINTER(Model), C.c_char_p, C.c_char_p, E)
_proto(hyst, "hy_model_element", C.c_int, C.POINTER(Model), C.POINTER(Element), E)
_proto(hyst, "hy_model_free", None, C.POINTER(Model))
_proto(hyst, "hy_element_drive", C.c_int, C.POINTER(Element), C.c_double, dbl_p, dbl_p, C.c_size_t, dbl_p, int_p,
       size_p, C.POINTER(Diag))
_proto(hyst, "hy_element_free", None, C.POINTER(Element))
_proto(hyst, "hy_element_copy", C.c_int, C.POINTER(Element), C.POINTER(Element), E)
_proto(hyst, "hy_model_copy", C.c_int, C.POINTER(Model), C.POINTER(Model), E)
_proto(hyst, "hy_diag_format", None, C.POINTER(Diag), C.c_char_p, C.c_size_t)
_proto(hyst, "hy_pwlfit_opts_default", None, C.POINTER(PwlfitOpts))
_proto(hyst, "hy_pwlfit_model", C.c_int, C.POINTER(Series), C.POINTER(PwlfitOpts), P, C.POINTER(Model), E)
_proto(hyst, "hy_kinfit_opts_default", None, C.POINTER(KinfitOpts))
_proto(hyst, "hy_kinfit_model", C.c_int, C.POINTER(Series), C.POINTER(KinfitOpts), P, C.POINTER(Model), E)
_proto(hyst, "hy_replay_drive", C.c_int, C.POINTER(Model), dbl_p, dbl_p, C.c_size_t, dbl_p, int_p, size_p,
       C.POINTER(Diag), E)
_proto(hyst, "hy_replay_metrics_compute", C.c_int, dbl_p, dbl_p, dbl_p, C.c_size_t, C.POINTER(Cycle), C.c_size_t,
       C.POINTER(ReplayMetrics), E)
_proto(hyst, "hy_replay_metrics_free", None, C.POINTER(ReplayMetrics))

libc = C.CDLL(None)
_proto(libc, "free", None, C.c_void_p)

if mech is not None:
    _proto(mech, "mech_dock_config_new", C.c_int, C.c_char_p, C.c_size_t, C.c_char_p, C.c_char_p,
           C.POINTER(P), E)
    _proto(mech, "mech_dock_config_delete", None, P)
    _proto(mech, "mech_dock_config_params", P, P)
    _proto(mech, "mech_dock_config_set_duration", C.c_int, P, C.c_double, E)
    _proto(mech, "mech_dock_config_print", C.c_void_p, P, E)
    _proto(mech, "mech_dock_model_new", C.c_int, P, C.POINTER(P), E)
    _proto(mech, "mech_dock_model_free", None, P)
    _proto(mech, "mech_dock_model_params", P, P)
    _proto(mech, "mech_dock_sim_new", C.c_int, P, C.POINTER(P), E)
    _proto(mech, "mech_dock_sim_free", None, P)
    _proto(mech, "mech_dock_sim_step", C.c_int, P, E)
    _proto(mech, "mech_dock_sim_run", C.c_int, P, C.c_size_t, dbl_p, dbl_p, size_p, E)
    _proto(mech, "mech_dock_sim_time", C.c_double, P)
    _proto(mech, "mech_dock_sim_steps", C.c_ulong, P)
    _proto(mech, "mech_dock_sim_channels", dbl_p, P)
    _proto(mech, "mech_dock_sim_element", None, P, C.c_int, dbl_p, dbl_p, int_p, dbl_p)
    _proto(mech, "mech_dock_sim_summary", C.POINTER(DockSummary), P)
    _proto(mech, "mech_dock_sim_process", C.POINTER(DockProcess), P)
    _proto(mech, "mech_dock_fault_name", C.c_char_p, C.c_int)
    _proto(mech, "mech_dock_fault_seq_state", C.c_int, C.c_int)
    _proto(mech, "mech_dock_fault_value_name", C.c_char_p, C.c_int, C.c_int)
    _proto(mech, "mech_dock_fault_reason", None, C.POINTER(FaultState), C.c_int, C.c_char_p, C.c_size_t)
    _proto(mech, "mech_dock_sim_limiter", C.POINTER(DockLimiter), P)
    _proto(mech, "mech_dock_sim_hooks", C.POINTER(DockHooks), P)
    _proto(mech, "mech_dock_docked_reason", C.c_char_p, C.c_int)
    _proto(mech, "mech_dock_sim_done", C.c_int, P)
    _proto(mech, "mech_dock_seq_state_name", C.c_char_p, C.c_int)
    _proto(mech, "mech_dock_seq_cause_name", C.c_char_p, C.c_int)
    _proto(mech, "mech_dock_channel_name", C.c_char_p, C.c_int)
    _proto(mech, "mech_dock_channel_unit", C.c_char_p, C.c_int)
    _proto(mech, "mech_dock_element_name", C.c_char_p, C.c_int)
    _proto(mech, "mech_dock_element_used", C.c_int, P, C.c_int)
    _proto(mech, "mech_dock_element_unit_q", C.c_char_p, C.c_int)
    _proto(mech, "mech_dock_element_unit_Q", C.c_char_p, C.c_int)
    BC = C.POINTER(BeamConfig)
    _proto(mech, "mech_beam_config_parse", C.c_int, C.c_char_p, C.c_size_t, C.c_char_p, C.c_char_p, BC, E)
    _proto(mech, "mech_beam_config_load", C.c_int, BC, C.c_char_p, E)
    _proto(mech, "mech_beam_config_read", C.c_int, C.c_char_p, BC, E)
    _proto(mech, "mech_beam_config_free", None, BC)
    _proto(mech, "mech_beam_model_new", C.c_int, C.POINTER(BeamParams), C.POINTER(P), E)
    _proto(mech, "mech_beam_model_free", None, P)
    _proto(mech, "mech_beam_model_info", None, P, C.POINTER(BeamInfo))
    _proto(mech, "mech_beam_samples", C.c_int, C.POINTER(BeamSolver), size_p, E)
    _proto(mech, "mech_beam_run", C.c_int, P, C.POINTER(BeamSolver), C.POINTER(BeamLoad), P,
           C.POINTER(BeamHistory), E)
    _proto(mech, "mech_beam_data_new", C.c_int, P, C.POINTER(BeamSolver), C.POINTER(BeamLoad), P, P, P,
           C.POINTER(P), E)
    _proto(mech, "mech_beam_data_free", None, P)
    _proto(mech, "mech_beam_step", C.c_int, P, E)
    _proto(mech, "mech_beam_step_n", C.c_int, P, C.c_long, C.POINTER(C.c_long), E)
    _proto(mech, "mech_beam_observe", None, P, C.POINTER(BeamObs))
    _proto(mech, "mech_beam_observe_energy", None, P, C.POINTER(BeamObs))
    _proto(mech, "mech_beam_steps", C.c_long, P)
    _proto(mech, "mech_beam_state", dbl_p, P, C.POINTER(dbl_p), size_p)
    CR, CM, CP = C.POINTER(CompareRec), C.POINTER(CompareMap), C.POINTER(Compare)
    _proto(mech, "mech_compare_rec_read", C.c_int, C.c_char_p, C.c_char_p, C.c_char_p, C.POINTER(C.c_char_p),
           C.c_int, CR, E)
    _proto(mech, "mech_compare_rec_free", None, CR)
    _proto(mech, "mech_compare_run_table", C.c_int, C.c_char_p, C.c_char_p, C.c_size_t, E)
    _proto(mech, "mech_compare_map_default", None, CM)
    _proto(mech, "mech_compare_map_parse", C.c_int, C.c_char_p, C.c_size_t, C.c_char_p, CM, E)
    _proto(mech, "mech_compare_map_read", C.c_int, C.c_char_p, CM, E)
    _proto(mech, "mech_compare_map_tol", C.c_int, CM, C.c_char_p, E)
    _proto(mech, "mech_compare_map_align", C.c_int, CM, C.c_char_p, E)
    _proto(mech, "mech_compare_map_window", C.c_int, CM, C.c_char_p, E)
    _proto(mech, "mech_compare_map_same_names", C.c_int, CM, C.POINTER(C.c_char_p), C.c_int, C.POINTER(C.c_char_p),
           C.c_int, E)
    _proto(mech, "mech_compare_new", C.c_int, CM, CR, CR, C.POINTER(CP), E)
    _proto(mech, "mech_compare_free", None, CP)
    _proto(mech, "mech_compare_nresid", C.c_size_t, CP)
    _proto(mech, "mech_compare_residual", C.c_int, CP, CR, dbl_p, E)
    _proto(mech, "mech_compare_impacts", C.c_size_t, dbl_p, dbl_p, C.c_size_t, C.c_double, C.POINTER(CompareImpact),
           C.c_size_t)
    _proto(mech, "mech_compare_loops", C.c_int, CP, C.c_int, C.POINTER(Loops), C.POINTER(Loops), E)


def take_string(ptr):
    """A malloc'd C string as str, freed."""
    if not ptr:
        return None
    try:
        return C.string_at(ptr).decode("utf-8")
    finally:
        libc.free(ptr)
