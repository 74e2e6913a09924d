# %% [markdown]
# # hystkit from Python, end to end
#
# A notebook as a script (the `# %%` cells open as a notebook in Jupyter with jupytext, in VS Code and in
# Spyder; `python3 docs/python-walkthrough.py [OUT]` runs it whole). From the top of the source tree after `make`,
# or anywhere once the package is installed (docs/python.md "Install"): identify a model from a bench record,
# validate it on another test, plot the loops, run a docking scenario in memory and a small study.
# `python/tests/test_walkthrough.py` runs this file and checks the numbers it prints.

# %%
import os
import sys
from pathlib import Path

import matplotlib
matplotlib.use(os.environ.get("MPLBACKEND", "Agg"))   # files, no window (a notebook shows the figures inline)
import matplotlib.pyplot as plt
import numpy as np

import hystkit as hk

TOP = Path(__file__).resolve().parents[1]
FIX = TOP / "fixtures"
OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "out/walkthrough")
OUT.mkdir(parents=True, exist_ok=True)

# %% [markdown]
# ## 1. Fit: one record, two families

# %%
rec = hk.read_csv(FIX / "synthetic" / "pwl_double_loop_fit.csv", t="t")
L = rec.loops()
print("record:", rec)
print("cycles:", len(L), "energy per cycle:", np.round(L.energies, 1))
pwl, report = hk.fit_pwl(rec)
bw = hk.fit_bw(rec, n=1).model
print("pwl fit, NRMSE on its own record: %.4f %%" % (100 * report["replay"]["nrmse"]))

# %% [markdown]
# ## 2. Replay: validate on a second test of the same specimen

# %%
val = hk.read_csv(FIX / "synthetic" / "pwl_double_loop_val.csv", t="t")
res = hk.replay({"fitted-pwl": pwl, "fitted-bw": bw,
                 "true": hk.load_model(FIX / "synthetic" / "pwl_double_loop.json")}, val)
for name, r in res.items():
    print("replay %-10s NRMSE %.4f %%  energy ratio %.4f" % (name, 100 * r["nrmse"], r["energy_ratio"]))
res["fitted-pwl"]["cycles"]          # a Table: shows as HTML in a notebook, .to_pandas() for a DataFrame

# %% [markdown]
# ## 3. Plot: measured against predicted

# %%
fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
hk.plot.plot_loops(rec, loops=L, ax=a)
hk.plot.plot_replay(val.q, val.Q, res, ax=b)
fig.savefig(OUT / "loops-replay.png", dpi=80)
print("figure:", OUT / "loops-replay.png")

# %% [markdown]
# ## 4. A docking run in memory: S2 (Soyuz, 0.10 m miss, variant A), its first 2 s

# %%
run = hk.run_dock(FIX / "mech" / "dock" / "s2-A.json", duration=2)
s = run.summary
print("dock S2-A to 2 s: %d steps, captured %s at %s s, peak axial %.1f N" % (
    s["steps"], s["captured"], s["capture_time"], s["peak_axial_force"]))
axes = hk.plot.plot_history(run, ("head_axial", "stroke"))
axes[0].figure.savefig(OUT / "dock-s2a.png", dpi=80)
axial = run.elements["axial"]
print("axial element: %d samples, dissipated %.3f J" % (len(axial["q"]), hk.loops(axial["q"], axial["Q"]).total_energy))

# %% [markdown]
# ## 5. A small study: pitch x closing speed (`mech sweep`), its table as arrays

# %%
sw = hk.run_sweep(FIX / "mech" / "sweep" / "test-grid.json", OUT / "sweep")
t = sw.results
print("sweep: %d runs, capture fraction %.3f" % (len(sw), sw.summary["capture_fraction"]["p"]))
for i in range(len(t)):
    print("  pitch %4.1f deg  speed %.2f m/s  captured %d  peak axial %7.1f N" % (
        t["initial.pitch_deg"][i], t["initial.closing_speed"][i], t["captured"][i], t["peak_axial"][i]))
print("done")
