"""What scripts/rp2-study.py and scripts/rp2-study-c.py both read and print (docs/rp2-parameters.md): a number from a
CSV or JSON field (NaN where there is none), its table text, and a run's history.csv as columns."""
import csv


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


def fmt(x, f="%.3g"):
    return "—" if x != x else f % x


def history(path):
    """history.csv of a run as {channel: [values]} (the second line is the units)"""
    with open(path) as f:
        rd = csv.reader(f)
        head = next(rd)
        next(rd)
        cols = {h: [] for h in head}
        for row in rd:
            for h, v in zip(head, row):
                cols[h].append(num(v))
    return cols
