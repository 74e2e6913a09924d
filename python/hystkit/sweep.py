"""Studies (`mech sweep`, docs/sweep.md): a plan run by the program itself (its workers, journal, --resume,
statistics and figures are the one implementation), its table read back as arrays."""
import json
import os
import tempfile

from . import programs
from .table import read_table

__all__ = ["Sweep", "run_sweep", "read_sweep"]


class Sweep:
    """A sweep's outputs: ``results`` (results.csv as a Table: run, the varied and derived keys, status, the metrics
    of the plan's simulator - a dock plan's captured, capture_time, cone_contacts, peak_axial, ..., steps; a beam,
    friction or pendulum plan's own, docs/sweep.md "Simulators" - and message; numbers as float64 arrays),
    ``summary`` (the dict of summary.json: counts, capture probability with its interval for a dock plan,
    sensitivities, worst runs) and ``folder``
    (where the files are). ``to_pandas()`` gives the results as a DataFrame; in Jupyter they show as HTML."""

    def __init__(self, folder):
        self.folder = os.fspath(folder)
        self.results = read_table(os.path.join(self.folder, "results.csv"))
        with open(os.path.join(self.folder, "summary.json")) as f:
            self.summary = json.load(f)

    def __len__(self):
        return len(self.results)

    def to_pandas(self):
        """results.csv as a pandas DataFrame."""
        return self.results.to_pandas()

    def __repr__(self):
        s = self.summary
        cf = (s.get("capture_fraction") or {}).get("p")
        return "Sweep(%r, %d runs, %d failed%s)" % (self.folder, s.get("runs", len(self)), s.get("failed", 0),
                                                   "" if cf is None else ", capture fraction %.3g" % cf)

    def _repr_html_(self):
        return "<p>%s</p>%s" % (repr(self).replace("<", "&lt;"), self.results._repr_html_())


def read_sweep(folder) -> Sweep:
    """(the output folder of a finished `mech sweep`) => Sweep."""
    return Sweep(folder)


def run_sweep(plan, out=None, *, jobs: int = 1, resume: bool = False, force: bool = False, plots: bool = False,
              base_dir=None) -> Sweep:
    """(plan: a "mech-sweep" file, or a dict with ``base_dir`` for its relative scenario path) => Sweep, run by
    `mech sweep PLAN --out OUT -j JOBS` (docs/sweep.md). ``out``: the output folder (default: a new temporary
    folder, kept: its path is ``Sweep.folder``); ``resume``: continue an interrupted sweep there; ``force``: more
    runs than the plan's max_runs; ``plots``: the figures too. A bad plan raises ProgramError with the program's
    message (the plan file and the key)."""
    jobs = int(jobs)
    if jobs < 1:
        raise ValueError("jobs: expected at least 1 worker, got %d" % jobs)
    tmp = None
    if isinstance(plan, dict):
        d = dict(plan)
        base = os.path.abspath(base_dir or ".")
        if "scenario" in d and not os.path.isabs(d["scenario"]):
            d["scenario"] = os.path.join(base, d["scenario"])
        tmp = tempfile.mkdtemp(prefix="hystkit-plan-")
        path = os.path.join(tmp, (d.get("name") or "plan") + ".json")
        with open(path, "w") as f:
            json.dump(d, f)
        plan = path
    elif not os.path.exists(plan):
        raise FileNotFoundError(2, "No such file or directory", os.fspath(plan))
    if out is None:
        out = tempfile.mkdtemp(prefix="hystkit-sweep-")
    args = ["sweep", os.path.abspath(plan), "--out", os.path.abspath(out), "-j", str(jobs), "-q"]
    args += (["--resume"] if resume else []) + (["--force"] if force else []) + ([] if plots else ["--no-plots"])
    try:
        programs.run_program("mech", args)
    finally:
        if tmp:
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)
    return Sweep(out)
