"""Tables: named columns of equal length as NumPy arrays (a dict subclass), with a short repr, an HTML repr for
Jupyter and ``to_pandas()`` where pandas is installed. Loop and replay cycle tables, the sweep's results.csv and
``fit_all``'s ranking are Tables; ``read_table`` reads a CSV table written by the programs (results.csv,
cycles CSV) with numbers as float64 columns."""
import csv
import html
import os

import numpy as np

__all__ = ["Table", "read_table"]


class Table(dict):
    """Column name -> 1-d NumPy array, every column as long as the others (insertion order is the column order).

    ``len(t)`` is the number of rows, ``t.columns`` the names, ``t.row(i)`` one row as a dict, ``t.to_pandas()`` a
    pandas DataFrame (ImportError naming the Debian package when pandas is missing), ``t.to_dict()`` plain lists;
    in Jupyter it shows as an HTML table of its first rows."""

    @property
    def columns(self) -> list:
        """The column names, in order."""
        return list(self.keys())

    def __len__(self):
        for v in self.values():
            return len(v)
        return 0

    @property
    def shape(self) -> tuple:
        """(rows, columns)."""
        return (len(self), dict.__len__(self))

    def row(self, i: int) -> dict:
        """Row i as a dict column -> value."""
        return {k: v[i] for k, v in self.items()}

    def to_dict(self) -> dict:
        """Column -> list of plain Python values (for json.dump)."""
        return {k: v.tolist() for k, v in self.items()}

    def to_pandas(self):
        """The table as a pandas DataFrame (Debian: python3-pandas)."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("to_pandas() needs pandas (Debian: apt-get install python3-pandas)") from e
        return pd.DataFrame({k: v for k, v in self.items()})

    def __repr__(self):
        cols = self.columns
        shown = ", ".join(cols[:8]) + (", ..." if len(cols) > 8 else "")
        return "Table(%d rows x %d columns: %s)" % (len(self), len(cols), shown)

    def _repr_html_(self, max_rows: int = 20) -> str:
        cols = self.columns
        n = len(self)
        fmt = lambda v: html.escape("%.6g" % v if isinstance(v, (float, np.floating)) else str(v))
        head = "".join("<th>%s</th>" % html.escape(str(c)) for c in cols)
        body = "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % fmt(self[c][i]) for c in cols)
                       for i in range(min(n, max_rows)))
        more = "<p>%d of %d rows shown</p>" % (max_rows, n) if n > max_rows else ""
        return "<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table>%s" % (head, body, more)


def _column(cells):
    """Cells (strings) => float64 array when every non-empty cell is a number (empty: NaN; a column of empty cells
    only is text), else a str array."""
    if all(c == "" for c in cells):
        return np.array(cells, dtype=str)
    try:
        return np.array([float(c) if c != "" else np.nan for c in cells], dtype=np.float64)
    except ValueError:
        return np.array(cells, dtype=str)


def read_table(path: "str | os.PathLike") -> Table:
    """(a CSV table with a header row: the sweep's results.csv, `hyst loops --cycles-csv`) => Table; numeric
    columns as float64 (an empty cell is NaN), the others as str arrays. A missing file raises
    FileNotFoundError."""
    with open(path, newline="") as f:
        rd = csv.reader(f)
        rows = [(rd.line_num, r) for r in rd if r]
    if not rows:
        raise ValueError("%s: no header row" % os.fspath(path))
    head, data = rows[0][1], [r for _, r in rows[1:]]
    for line, r in rows[1:]:
        if len(r) != len(head):
            raise ValueError("%s:%d: %d cells, expected %d (the header's)" % (os.fspath(path), line, len(r), len(head)))
    return Table((h, _column([r[i] for r in data])) for i, h in enumerate(head))
