#!/usr/bin/env python3
"""Checks of a `mech view` page of a docking run in Debian's headless Chromium (tests/e2e/test_view.sh; docs/view.md).

  view_check.py PAGE RUN_DIR [--max-load-ms MS] [--max-bytes N] [--shots DIR]

Chromium is run once per view (its command line: --dump-dom or --screenshot, --enable-logging=stderr --v=0 so that
every console message reaches its standard error). The page is opened at #t=T (the fragment sets the time). Checks,
each printed as "ok - ..." or "not ok - ...":
  - no console error and no uncaught exception (Chromium's stderr; the page's own count in body[data-errors]);
  - the page's kept rows (its JSON block) against RUN_DIR/history.csv: every change of a contact flag and the row
    before it kept, every episode's peak of each contact force kept with its value;
  - the slider: at a kept row's time and between two kept rows the cursor shows the last kept row at or before the
    time, and every value of the panels (cells with data-ch, data-v) equals history.csv at that row to the page's 7
    significant digits;
  - screenshots at t = 0, at the first head contact and at the end: no contact red at the head before the first
    contact, the head drawn red while it touches (a disc of at least half its drawn area near its drawn centre), and
    the scene at the end differs from t = 0;
  - the page's load time (body[data-load-ms], from navigation start to drawn) and its size.
Exit status 0 when every check passed."""
import csv, html, json, os, re, subprocess, sys, tempfile, time
from PIL import Image

W, H = 1500, 1100
fails = 0


def ok(name, cond, detail=""):
    global fails
    if cond:
        print("ok - " + name)
    else:
        fails += 1
        print("not ok - " + name + (" (" + detail + ")" if detail else ""))


def chromium(page, t, mode, out=None):
    """(page, time, 'dom' or 'shot', screenshot path) => (stdout, stderr lines of console messages and errors, s)"""
    args = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--force-device-scale-factor=1", "--window-size=%d,%d" % (W, H), "--enable-logging=stderr", "--v=0",
            "--no-first-run", "--disable-extensions", "--user-data-dir=" + PROFILE]
    args += ["--dump-dom"] if mode == "dom" else ["--screenshot=" + out]
    t0 = time.time()
    r = subprocess.run(args + ["file://" + os.path.abspath(page) + "#t=%.17g" % t], capture_output=True, text=True,
                       timeout=60)
    dt = time.time() - t0
    console = [l for l in r.stderr.splitlines() if "CONSOLE" in l or "Uncaught" in l]
    return r.stdout, console, dt


def attr(dom, elem_id, name):
    m = re.search(r'<[^>]*\bid="%s"[^>]*>' % re.escape(elem_id), dom)
    if not m:
        return None
    a = re.search(r'\b%s="([^"]*)"' % re.escape(name), m.group(0))
    return html.unescape(a.group(1)) if a else None


def body_attr(dom, name):
    m = re.search(r"<body[^>]*>", dom)
    a = re.search(r'\b%s="([^"]*)"' % re.escape(name), m.group(0)) if m else None
    return a.group(1) if a else None


def cells(dom):
    """{channel: value} of every panel cell"""
    out = {}
    for m in re.finditer(r'<td[^>]*data-ch="([^"]+)"[^>]*data-v="([^"]*)"', dom):
        out[m.group(1)] = m.group(2)
    return out


def main():
    global PROFILE
    a = sys.argv[1:]
    page, run = a[0], a[1]
    max_load = float(a[a.index("--max-load-ms") + 1]) if "--max-load-ms" in a else 2000
    max_bytes = int(a[a.index("--max-bytes") + 1]) if "--max-bytes" in a else None
    shots = a[a.index("--shots") + 1] if "--shots" in a else tempfile.mkdtemp()
    PROFILE = tempfile.mkdtemp()
    name = os.path.basename(os.path.normpath(run))
    text = open(page, encoding="utf-8").read()
    data = json.loads(re.search(r'<script type="application/json" id="run-data">(.*?)</script>', text, re.S).group(1))
    with open(os.path.join(run, "history.csv")) as f:
        rows = list(csv.reader(f))
    names, hist = rows[0], [[float(x) for x in r] for r in rows[2:]]
    ht = [r[0] for r in hist]
    kept_t = data["data"][0]
    col = {n: k for k, n in enumerate(names)}
    kept_set = set(kept_t)

    # ---- decimation: flags' changes and the forces' peaks ----------------------------------------------------
    flags = [c for c in ["cone_contact", "socket_contact", "bottom_contact", "latch_contact", "limiter_contact",
                         "capture", "seq_state"] if c in col]
    missing = [ht[i] for i in range(1, len(hist)) for c in flags
               if hist[i][col[c]] != hist[i - 1][col[c]] and not (ht[i] in kept_set and ht[i - 1] in kept_set)]
    nchg = sum(1 for i in range(1, len(hist)) for c in flags if hist[i][col[c]] != hist[i - 1][col[c]])
    ok("%s: every contact flag change (%d) kept with the row before it" % (name, nchg), not missing,
       "missing at t = %s" % missing[:3])
    bad, npk = [], 0
    for c in ["head_axial", "head_lateral", "limiter_f", "roller_f1", "roller_f2", "roller_f3", "pad_wall_f",
              "pusher_f", "plane_f"]:
        if c not in col:
            continue
        k, page_col = col[c], data["data"][data["channels"].index(c)]
        pv = {t: v for t, v in zip(kept_t, page_col)}
        i = 0
        while i < len(hist):
            if hist[i][k] == 0:
                i += 1
                continue
            j, pk = i, i
            while j < len(hist) and hist[j][k] != 0:
                if abs(hist[j][k]) > abs(hist[pk][k]):
                    pk = j
                j += 1
            npk += 1
            v = pv.get(ht[pk])
            if v is None or abs(v - hist[pk][k]) > 5e-7 * abs(hist[pk][k]):
                bad.append((c, ht[pk]))
            i = j
    ok("%s: every contact force episode's peak (%d) kept with its value" % (name, npk), not bad, str(bad[:3]))

    # ---- opens without errors; load time; size ------------------------------------------------------------------
    dom, console, wall = chromium(page, 0, "dom")
    ok("%s: page drawn (body data-ready)" % name, body_attr(dom, "data-ready") == "1")
    errs = [l for l in console if "Uncaught" in l or ":ERROR:CONSOLE" in l or "Error" in l]
    ok("%s: no console errors" % name, not errs and body_attr(dom, "data-errors") == "0", "; ".join(errs[:2]))
    load = float(body_attr(dom, "data-load-ms") or 1e9)
    print("# %s: load %.0f ms (navigation start to drawn), chromium --dump-dom %.2f s wall, page %d bytes, %d of %d rows"
          % (name, load, wall, len(text.encode()), data["rows"], data["rows_in"]))
    ok("%s: opens in under %.0f ms (%.0f ms)" % (name, max_load, load), load < max_load)
    if max_bytes:
        ok("%s: page under %d bytes (%d)" % (name, max_bytes, len(text.encode())), len(text.encode()) < max_bytes)

    # ---- the slider: values at a time equal the history's -------------------------------------------------------
    def check_time(treq, label):
        dom, console, _ = chromium(page, treq, "dom")
        tshown = float(attr(dom, "cursor", "data-t"))
        expect = max(t for t in kept_t if t <= treq) if treq >= kept_t[0] else kept_t[0]
        ok("%s: %s: cursor at the last kept row at or before t = %.6g (%.9g)" % (name, label, treq, tshown),
           tshown == expect, "expected %.17g" % expect)
        r = hist[ht.index(tshown)] if tshown in ht else None
        vals = cells(dom)
        wrong = [(c, v, r[col[c]]) for c, v in vals.items()
                 if r is None or c not in col or abs(float(v) - r[col[c]]) > 5e-7 * abs(r[col[c]]) + 1e-300]
        ok("%s: %s: %d panel values equal history.csv at t = %.9g" % (name, label, len(vals), tshown),
           r is not None and len(vals) >= 10 and not wrong, str(wrong[:3]))
    mid = len(kept_t) // 2
    check_time(kept_t[mid], "a kept row")
    check_time(0.5 * (kept_t[mid] + kept_t[mid + 1]), "between kept rows")

    # ---- screenshots: the contact red at the head ------------------------------------------------------------------
    hc = [col[c] for c in ["cone_contact", "socket_contact", "bottom_contact", "latch_contact"]]
    first = next(t for t, r in zip(ht, hist) if any(r[k] for k in hc))
    reds = {}
    for label, t in [("t0", 0.0), ("first-contact", first), ("end", ht[-1])]:
        dom, _, _ = chromium(page, t, "dom")
        shot = os.path.join(shots, "%s-%s.png" % (name, label))
        chromium(page, t, "shot", shot)
        im = Image.open(shot).convert("RGB")
        bx, by, bw, bh = [float(v) for v in attr(dom, "scene-ld", "data-box").split(",")]
        cx, cy, r = [float(v) for v in attr(dom, "scene-ld", "data-head").split(",")]
        px = im.load()
        red = near = 0
        for y in range(int(by), int(by + bh)):
            for x in range(int(bx), int(bx + bw)):
                p = px[x, y]
                if p[0] > 190 and p[1] < 60 and p[2] < 60:
                    red += 1
                    near += (x - cx) ** 2 + (y - cy) ** 2 <= (r + 3) ** 2
        reds[label] = (red, near, r, im.crop((int(bx), int(by), int(bx + bw), int(by + bh))),
                       attr(dom, "scene-ld", "data-head-contact"))
    r0, r1 = reds["t0"], reds["first-contact"]
    ok("%s: t = 0: no contact red in the scene" % name, r0[0] == 0 and r0[4] == "0", "%d red pixels" % r0[0])
    area = 3.14159 * r1[2] ** 2
    ok("%s: first contact t = %.6g: the head red (%d red pixels at it, drawn area %.0f)" % (name, first, r1[1], area),
       r1[4] == "1" and r1[1] >= 0.5 * area, "")
    a0, a2 = r0[3], reds["end"][3]
    diff = sum(1 for p, q in zip(a0.getdata(), a2.getdata()) if p != q) if a0.size == a2.size else 10 ** 9
    ok("%s: the scene at the end differs from t = 0 (%d pixels)" % (name, diff), diff > 200)
    if reds["end"][4] == "1":
        ok("%s: end: the head red while it touches (%d red pixels at it)" % (name, reds["end"][1]),
           reds["end"][1] >= 0.5 * 3.14159 * reds["end"][2] ** 2)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
