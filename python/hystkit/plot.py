"""Plots through Matplotlib (optional: Debian's python3-matplotlib). Imported lazily: hystkit works without it."""

__all__ = ["plot_loops", "plot_replay", "plot_history"]


def _plt():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("hystkit.plot needs Matplotlib (Debian: apt-get install python3-matplotlib)") from e
    return plt


def _ax(ax):
    if ax is None:
        _, ax = _plt().subplots()
    return ax


def plot_loops(data, Q=None, *, loops=None, ax=None, units=None, label=None):
    """(Record or q, Q) => the Q(q) curve, with the reversal points of ``loops`` (a Loops) marked; returns the
    Axes."""
    from .record import Record
    if isinstance(data, Record):
        q, Q, units = data.q, data.Q, units or data.units
    else:
        q = data
    ax = _ax(ax)
    ax.plot(q, Q, lw=0.8, label=label)
    if loops is not None and len(loops.reversals["i"]):
        i = loops.reversals["i"].astype(int)
        ax.plot(q[i], Q[i], "o", ms=3, label="reversals")
    u = units or {}
    ax.set_xlabel("q" + (" [%s]" % u["q"] if u.get("q") else ""))
    ax.set_ylabel("Q" + (" [%s]" % u["Q"] if u.get("Q") else ""))
    ax.grid(True, alpha=0.3)
    return ax


def plot_replay(q, Q, results, *, ax=None):
    """(q, measured Q, replay() result) => measured and predicted loops on one Axes."""
    ax = _ax(ax)
    ax.plot(q, Q, "k", lw=1.2, label="measured")
    for name, r in results.items():
        ax.plot(q, r["Q"], lw=0.8, label="%s (NRMSE %.3g)" % (name, r["nrmse"]))
    ax.legend()
    ax.grid(True, alpha=0.3)
    return ax


def plot_history(run, channels=("head_axial", "stroke"), *, axes=None):
    """(DockRun, channel names) => one Axes per channel against time."""
    plt = _plt()
    if axes is None:
        _, axes = plt.subplots(len(channels), 1, sharex=True, squeeze=False)
        axes = axes[:, 0]
    for ax, ch in zip(axes, channels):
        ax.plot(run.history["t"], run.history[ch], lw=0.8)
        ax.set_ylabel("%s [%s]" % (ch, run.units[ch]))
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("t [s]")
    return axes
