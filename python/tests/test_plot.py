"""The optional Matplotlib helpers (skipped where python3-matplotlib is not installed)."""
import numpy as np
import pytest

import hystkit as hk
from conftest import FIX

mpl = pytest.importorskip("matplotlib", reason="python3-matplotlib is not installed (plots are optional)")
mpl.use("Agg")


def test_plot_loops_and_replay(tmp_path):
    rec = hk.read_csv(FIX / "synthetic" / "pwl_double_loop_fit.csv")
    L = rec.loops()
    ax = hk.plot.plot_loops(rec, loops=L)
    x, y = ax.lines[0].get_data()
    assert np.array_equal(x, rec.q) and np.array_equal(y, rec.Q)
    assert len(ax.lines[1].get_xdata()) == len(L.reversals["i"])
    res = hk.replay({"true": hk.load_model(FIX / "synthetic" / "pwl_double_loop.json")}, rec)
    ax2 = hk.plot.plot_replay(rec.q, rec.Q, res)
    assert len(ax2.lines) == 2
    ax.figure.savefig(tmp_path / "l.png")
    assert (tmp_path / "l.png").stat().st_size > 1000
