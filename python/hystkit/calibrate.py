"""Calibration of a docking scenario from measured runs (docs/calibrate.md): ``calibrate`` runs `mech calibrate`
(the one implementation: the library's mech_calib_solve behind the program), and returns its report as NumPy
arrays and the calibrated scenario as a dict."""
import json
import os
import tempfile

import numpy as np

from . import programs

__all__ = ["Calibration", "calibrate"]


class Calibration:
    """The report of `mech calibrate` (calibration.json) in ``folder``:
      keys         list of key paths ("stand.k", ...)
      value, se    NumPy arrays: the calibrated values and their standard errors (the keys' order)
      start        the start values; ``bounds`` an (n, 2) array of [min, max]
      correlation  (n, n) NumPy array of the keys' correlation at the optimum
      runs         list of dicts: "measured", "validation", "channels" (name, channel, offset, gain, nrmse,
                   noise_floor, nrmse_over_floor, nrmse_start, ...), as in the JSON
      fit          dict: residuals, parameters, cost, iterations, converged, reason, simulated_runs, cpu_s, wall_s
      scenario     the calibrated scenario (calibrated.json) as a dict; ``scenario_path`` its file
      report       the whole calibration.json as a dict"""

    def __init__(self, folder):
        self.folder = os.fspath(folder)
        with open(os.path.join(self.folder, "calibration.json")) as f:
            self.report = json.load(f)
        self.scenario_path = os.path.join(self.folder, "calibrated.json")
        with open(self.scenario_path) as f:
            self.scenario = json.load(f)
        ks = self.report["keys"]
        nan = float("nan")
        self.keys = [k["key"] for k in ks]
        self.value = np.array([k["value"] for k in ks], dtype=float)
        self.se = np.array([nan if k["se"] is None else k["se"] for k in ks], dtype=float)
        self.start = np.array([k["start"] for k in ks], dtype=float)
        self.bounds = np.array([[k["min"], k["max"]] for k in ks], dtype=float)
        self.correlation = np.array([[nan if v is None else v for v in row] for row in self.report["correlation"]],
                                    dtype=float).reshape(len(ks), len(ks))
        self.runs = self.report["runs"]
        self.fit = self.report["fit"]

    def __repr__(self):
        return "Calibration(%s)" % ", ".join("%s=%.6g+-%.2g" % (k, v, s) for k, v, s in
                                             zip(self.keys, self.value, self.se))


def calibrate(config, out=None, *, base_dir=None, jobs=1) -> Calibration:
    """(config: a "mech-calibrate" file, or a dict with ``base_dir`` for its relative paths) => Calibration, by
    `mech calibrate CONFIG -o OUT -j JOBS -q`. ``out``: the output folder (default: a new temporary folder, kept: its
    path is ``Calibration.folder``). ``jobs``: processes computing each Jacobian's key columns (the same result for
    any number). Bad input raises ProgramError with the program's message (the file and the key, or the option)."""
    tmp = None
    if isinstance(config, dict):
        d = json.loads(json.dumps(config))
        base = os.path.abspath(base_dir or ".")
        if "scenario" in d and not os.path.isabs(d["scenario"]):
            d["scenario"] = os.path.join(base, d["scenario"])
        for sec in ("runs", "validation"):
            for r in d.get(sec, []):
                if isinstance(r, dict) and isinstance(r.get("measured"), str) and not os.path.isabs(r["measured"]):
                    r["measured"] = os.path.join(base, r["measured"])
        tmp = tempfile.mkdtemp(prefix="hystkit-cal-")
        path = os.path.join(tmp, "calibration-config.json")
        with open(path, "w") as f:
            json.dump(d, f)
        config = path
    elif not os.path.exists(config):
        raise FileNotFoundError(2, "No such file or directory", os.fspath(config))
    if out is None:
        out = tempfile.mkdtemp(prefix="hystkit-calibrate-")
    try:
        programs.run_program("mech", ["calibrate", os.path.abspath(config), "-o", os.path.abspath(out),
                                      "-j", str(jobs), "-q"])
    finally:
        if tmp:
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)
    return Calibration(out)
