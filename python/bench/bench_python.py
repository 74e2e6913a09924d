#!/usr/bin/python3
"""Figures of the Python bindings (docs/python.md): the cost of one model step called from Python, and a batched
simulate(q_array) against the same drive in C (build/bench/bench_drive, hy_element_drive). CPU time of this
thread, best of REPS. Run from the top of the tree after `make` and `make build/bench/bench_drive`:

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 python/bench/bench_python.py [BUILD]
"""
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
BUILD = Path(sys.argv[1]) if len(sys.argv) > 1 else TOP / "build"
os.environ.setdefault("HYSTKIT_LIBDIR", str(BUILD / "lib"))
sys.path.insert(0, str(TOP / "python"))
import numpy as np  # noqa: E402

import hystkit as hk  # noqa: E402

REPS = 7
CASES = [("fixtures/models/pwl-constant.json", 7.5), ("fixtures/models/paper-damper-full.json", 0.5)]
N_BATCH, N_STEP = 1_000_000, 200_000


def drive(amp, n):
    i = np.arange(n, dtype=np.float64)
    return amp * np.sin(2 * math.pi * i / 200) * (1 + 0.3 * np.sin(2 * math.pi * i / 20000)) / 1.3


def best(f):
    b = math.inf
    for _ in range(REPS):
        t0 = time.thread_time()
        f()
        b = min(b, time.thread_time() - t0)
    return b


def c_figure(path, amp, n):
    exe = BUILD / "bench" / "bench_drive"
    out = subprocess.run([str(exe), path, str(amp), str(n)], cwd=TOP, capture_output=True, text=True,
                         check=True).stdout
    return float(re.search(r"([0-9.]+) ns/sample", out).group(1))


for path, amp in CASES:
    name = Path(path).name
    q = drive(amp, N_BATCH)
    out = np.empty_like(q)

    def batch():
        m = hk.load_model(TOP / path)
        m.simulate(q, out=out)
    t_py = best(batch) / N_BATCH * 1e9
    t_c = c_figure(path, amp, N_BATCH)
    print("simulate %-24s %d samples: Python %.2f ns/sample, C %.2f ns/sample: %+.1f %%"
          % (name, N_BATCH, t_py, t_c, 100 * (t_py / t_c - 1)))

    qs = q[:N_STEP].tolist()

    def steps():
        m = hk.load_model(TOP / path)
        st = m.step
        for x in qs:
            st(x)
    t_step = best(steps) / N_STEP * 1e6
    print("step     %-24s %d calls:   %.3f us/call from Python, of which the model's own step %.3f us: "
          "overhead %.3f us/call" % (name, N_STEP, t_step, t_c / 1000, t_step - t_c / 1000))
