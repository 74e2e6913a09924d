"""The `hyst` and `mech` programs, for the jobs whose one implementation is a program: the Bouc-Wen and Iwan fits
with their report, `hyst fit all`'s ranking, `mech sweep` (workers, journal, --resume, statistics). Python runs the
program itself, so its numbers are the program's by construction (no second copy of the report or of the sweep).

Where a program is found, first match wins: the package's own ``bin/`` folder (a wheel built by `make wheel`
carries both), ``<prefix>/bin`` for a package installed by `make install` under ``<prefix>/lib/python3.X/``,
the source tree's ``bin/`` (python/hystkit used in place after `make`), then ``PATH``. ``$HYSTKIT_BINDIR`` (a
folder) comes first when set (the tests of another build tree use it)."""
import os
import shutil
import subprocess
from pathlib import Path

from .errors import ArgumentError, HystError, from_code

__all__ = ["find_program", "ProgramError"]

_here = Path(__file__).resolve().parent


class ProgramError(HystError, RuntimeError):
    """A program (`hyst`, `mech`) exited with a failure: ``message`` is its one-line error (file, line or key),
    ``program`` the command, ``returncode`` its exit status, ``stderr`` all it wrote there."""


def find_program(name: str) -> str:
    """("hyst" or "mech") => the path of the program (see the module's docstring for the search order);
    FileNotFoundError when none is found."""
    dirs = []
    if os.environ.get("HYSTKIT_BINDIR"):
        dirs.append(Path(os.environ["HYSTKIT_BINDIR"]))
    installed = len(_here.parents) > 3 and _here.parents[1].name.startswith("python") and _here.parents[2].name == "lib"
    dirs += [_here / "bin", _here.parents[3] / "bin" if installed else None, _here.parents[1] / "bin"]
    for d in dirs:
        if d is not None and (d / name).is_file() and os.access(d / name, os.X_OK):
            return str(d / name)
    p = shutil.which(name)
    if p:
        return p
    raise FileNotFoundError("hystkit: the program %r was not found (package bin/, <prefix>/bin, the source tree's "
                            "bin/ after make, PATH)" % name)


def run_program(name, args, cwd=None):
    """Runs `name args...` and returns its CompletedProcess; a failure raises ProgramError (exit 1) or
    ArgumentError (exit 2, bad usage) carrying the program's error line, or the i/o error class of its message."""
    cmd = [find_program(name)] + [os.fspath(a) for a in args]
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        lines = [ln for ln in p.stderr.splitlines() if ln.strip() and ": warning: " not in ln]
        msg = lines[-1] if lines else "%s exited with status %d" % (name, p.returncode)
        # "hyst fit bw: FILE: what" => "FILE: what", as the library's messages read
        sub = " ".join([os.path.basename(cmd[0])] + [a for a in args[:2] if not str(a).startswith("-")])
        for prefix in (sub + ": ", name + ": "):
            if msg.startswith(prefix):
                msg = msg[len(prefix):]
                break
        if p.returncode == 2:
            e = ArgumentError(msg, 1)
        else:
            e = from_code(2, msg)
            if not isinstance(e, (FileNotFoundError, PermissionError, IsADirectoryError)):
                e = ProgramError(msg)
        e.program, e.returncode, e.stderr = cmd, p.returncode, p.stderr
        raise e
    return p


def warn_from(p, stacklevel=3):
    """The program's warning lines ("prog: warning: what") as Python UserWarnings."""
    import warnings
    for ln in p.stderr.splitlines():
        if ": warning: " in ln:
            warnings.warn(ln.split(": warning: ", 1)[1], stacklevel=stacklevel)


def write_record(rec, folder):
    """(Record, folder) => the name of a CSV file written there with its t, q, Q columns (numbers printed with 17
    significant digits: read back exactly) and its units row, and the reader options that name them."""
    import numpy as np
    base = os.path.basename(str(rec.source)) if rec.source and not str(rec.source).startswith("<") else ""
    name = base if base.endswith(".csv") and "/" not in base else "record.csv"
    cols = ([("t", rec.t)] if rec.t is not None else []) + [("q", rec.q), ("Q", rec.Q)]
    units = [rec.units.get(k, "") for k, _ in cols]
    with open(os.path.join(folder, name), "w") as f:
        f.write(",".join(k for k, _ in cols) + "\n")
        if any(units):
            f.write(",".join(units) + "\n")
        np.savetxt(f, np.column_stack([a for _, a in cols]), fmt="%.17g", delimiter=",")
    i = 2 if rec.t is not None else 1
    opts = ["--x", str(i), "--y", str(i + 1)] + (["--t", "1"] if rec.t is not None else [])
    opts += ["--units-row"] if any(units) else ["--no-units-row"]
    return name, opts
