#!/usr/bin/python3
"""SPC1 (fixtures/real) analysed by the `hysteresis` package (C. Slotboom, where SPC1.csv comes from) and by
hystkit, side by side: reversal points, half-cycle areas, total energy, time (docs/python.md). Needs `hysteresis`
importable (it needs SciPy and Matplotlib; not a dependency of hystkit, not in the test suite):

    PYTHONPATH=/path/to/hysteresis-parent /usr/bin/python3 python/bench/compare_hysteresis.py
"""
import math
import os
import sys
import time
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
os.environ.setdefault("HYSTKIT_LIBDIR", str(TOP / "build" / "lib"))
sys.path.insert(0, str(TOP / "python"))
import numpy as np  # noqa: E402

import hystkit as hk  # noqa: E402

try:
    import matplotlib
    matplotlib.use("Agg")
    import hysteresis as hys
except ImportError as e:
    sys.exit("compare_hysteresis: the hysteresis package is not importable (%s)" % e)

F = TOP / "fixtures" / "real" / "SPC1.csv"


def best(f, n=7):
    b, r = math.inf, None
    for _ in range(n):
        t0 = time.thread_time()
        r = f()
        b = min(b, time.thread_time() - t0)
    return b, r


data = np.loadtxt(F, skiprows=2, delimiter=",")           # force, displacement
xy = np.column_stack([data[:, 1], data[:, 0]])
q, Q = np.ascontiguousarray(xy[:, 0]), np.ascontiguousarray(xy[:, 1])
t_h, H = best(lambda: hys.Hysteresis(xy))
t_k, L = best(lambda: hk.loops(q, Q))
t_rl, _ = best(lambda: np.loadtxt(F, skiprows=2, delimiter=","))
t_rk, rec = best(lambda: hk.read_csv(F))
for c in H.cycles:
    c.setArea()
area = np.array([c.getNetArea() for c in H.cycles])
print("reversal points: hysteresis %d (with the first and last sample), hystkit %d; the same samples: %s"
      % (len(H.reversalIndexes), len(L.reversals["i"]), np.array_equal(H.reversalIndexes[1:-1], L.reversals["i"])))
print("half-cycles: hysteresis %d, hystkit %d; largest |area difference| %.3g (largest area %.6g)"
      % (len(area), len(L.half_cycles["energy"]), np.max(np.abs(area - L.half_cycles["energy"])),
         np.max(np.abs(area))))
print("total energy (net area): hysteresis %.6f, hystkit %.6f" % (H.getNetArea(), L.total_energy))
print("hystkit also: %d cycles, energy of the first three %s, xi_eq %s"
      % (len(L), np.round(L.energies[:3], 4).tolist(), np.round(L.cycles["xi_eq"][:3], 4).tolist()))
print("time (CPU, best of 7): analysis hysteresis.Hysteresis %.2f ms, hystkit.loops %.2f ms; "
      "reading np.loadtxt %.1f ms, hystkit.read_csv %.1f ms" % (1e3 * t_h, 1e3 * t_k, 1e3 * t_rl, 1e3 * t_rk))
