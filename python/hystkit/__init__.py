"""hystkit: hysteresis models, identification, loop analysis and mechanism simulators from Python.

A thin ctypes layer over libhyst.so and libmech.so (the C libraries of the `hyst` and `mech` programs): NumPy
arrays cross without copies where the C side takes pointers, C errors become exceptions carrying the C message.

    import hystkit as hk
    rec = hk.read_csv("SPC1.csv")
    model, report = hk.fit_pwl(rec)
    L = hk.loops(rec.q, rec.Q)

See docs/python.md."""
from .errors import (ArgumentError, ClosedError, DataError, HystError, HystFileNotFoundError, HystIOError,
                     HystIsADirectoryError, HystMemoryError, HystPermissionError, ModelError, NumericError, ParseError,
                     RangeError, StateError)
from .record import Record, read_csv, read_record
from .loops import Loops, loops
from .model import Model, load_model, parse_model
from .fit import Fit, FitAll, fit_all, fit_bw, fit_bwbn, fit_clough, fit_iwan, fit_kin, fit_pwl
from .replay import replay
from .dock import DockRun, DockScenario, DockSim, run_dock
from .beam import BeamRun, BeamSim, run_beam
from .table import Table, read_table
from .programs import ProgramError, find_program
from .sweep import Sweep, read_sweep, run_sweep
from .compare import Comparison, compare
from .calibrate import Calibration, calibrate
from . import plot

__version__ = "0.1.0"

__all__ = ["ArgumentError", "ClosedError", "DataError", "HystError", "HystFileNotFoundError", "HystIOError",
           "HystIsADirectoryError", "HystMemoryError", "HystPermissionError", "ModelError", "NumericError",
           "ParseError", "RangeError", "StateError", "ProgramError", "Record", "read_csv", "read_record", "Loops",
           "loops", "Model", "load_model", "parse_model", "Fit", "FitAll", "fit_pwl", "fit_kin", "fit_bw", "fit_bwbn", "fit_iwan", "fit_clough",
           "fit_all", "replay", "DockRun", "DockScenario", "DockSim", "run_dock", "BeamRun", "BeamSim", "run_beam",
           "Table", "read_table", "Sweep", "run_sweep", "read_sweep", "find_program", "plot", "Comparison",
           "compare", "Calibration", "calibrate"]
