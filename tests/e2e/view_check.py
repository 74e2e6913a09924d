#!/usr/bin/env python3
"""Checks of `mech view` pages in Debian's headless Chromium (tests/e2e/test_view.sh; docs/view.md).

  view_check.py [--shots DIR] [--max-load-ms MS] [--max-bytes N] TASK...
    dock:PAGE:RUN_DIR    a docking run's page against RUN_DIR/history.csv
    beam:PAGE:SIM.csv[:MODAL.csv:SHAPES.csv]   a beam response's page against the CSV; with the run's modal
                         coordinates (mech beam sim --modal) and the model's shapes (mech beam shapes) the deformed
                         beam the page draws against the library's w(x, t)
    links:PAGE           the page (as drawn) opens without errors and every link and image resolves
    hooks:PAGE:RUN_DIR   a docking run with the structural hooks (issue 44): the 8 hooks drawn at every frame from
                         the page's compact "hooks" against RUN_DIR/pose.csv (each link's base, catch, state and
                         tension at the shown row), open before the hook drive and red (bearing) once locked

One browser serves every task, driven through the DevTools protocol over --remote-debugging-pipe (cdp.py): a page
is opened by its file URL, #t=T sets its time (the page listens to hashchange), values are read from the DOM, and
screenshots come from Page.captureScreenshot. Checks print "ok - ..." or "not ok - ...":
  - no console error, no uncaught exception, no failed load (the tab's events); body[data-ready] = 1;
  - dock: the page's kept rows (its JSON block) against history.csv: every change of a contact flag kept with the
    row before it, every episode's peak of each contact force kept with its value (the columns expanded from
    their [value, count] runs); every value of every kept row equal to history.csv's (7 digits) and pose.csv's
    (5); when the page says the events passed --rows ("dropped"), every episode peaking above the largest peak
    left out kept, the page's counts against a recount of the history, and the header saying how many were left
    out;
  - dock: the slider: at a kept row's time and between two kept rows the cursor shows the last kept row at or before
    the time, and every panel value (cells with data-ch, data-v) equals history.csv at that row to the page's 7
    significant digits (relative 5e-7);
  - dock: screenshots at t = 0, at the first head contact and at the end: no contact red in the scene at t = 0,
    the head drawn red at the first contact (at least half its drawn disc, near its drawn centre), the end's scene
    differs from t = 0 (and, when the head touches then, it is red);
  - dock: load time (body[data-load-ms]: navigation start to drawn) and the page's size;
  - beam: a hinge is drawn red exactly while its moment is non-zero (at a time of each kind), values as for dock;
  - hooks: at a row before the hook drive starts, one while the jaws close and one where every link is locked, each
    link's marker in both projections (#hook-ld-J, #hook-top-J) carries the base the page computed from the port's
    frame (data-b, m), its catch, state and tension (data-c, data-state, data-f): the catch, state and tension equal
    pose.csv's hookJ_* at the shown row (the tension within 0.5 N: it is stored to the newton); the base lies on the
    active plane of pose.csv's port and pax, at RP-1's radius 0.55 m, at azimuths 22.5° + 45° j about pax from pey
    (docs/dock-process.md §9; within 5e-5 m: the page's poses hold 5 significant digits of the port and its frame,
    about 1e-5 m at the hook radius), and once locked within 2 mm of its catch (the link's preload stretch, 0.8 mm);
    and in the screenshot the marker's centre pixel in the view along the axis is red exactly when the link bears;
  - beam with --modal: the tip deflection from the modal coordinates, sum_i phi_i(l) eta_i(t), equals the simulator's
    w_tip at every row (both files' numbers are exact: the bound is the summation's rounding, 4 nm eps sum |phi eta|);
    at three times the drawn polyline, mapped back through the page's stated transform (origin, pixels per metre,
    exaggeration k, the hub angle theta), lies at the FE nodes (x) and at w = sum_i phi_i(x) eta_i of the shown
    row from the exact files, within the page's storage precision: eta to 7 and phi to 9 significant digits, so
    |dw| <= sum_i |phi_i eta_i| (5e-7 + 5e-9) (+1e-12 m for the pixel arithmetic).
Exit status 0 when every check passed."""
import csv, json, math, os, re, sys, tempfile
from html.parser import HTMLParser
from PIL import Image
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Chromium

fails = 0
RED = lambda p: p[0] > 190 and p[1] < 60 and p[2] < 60


def ok(name, cond, detail=""):
    global fails
    if cond:
        print("ok - " + name)
    else:
        fails += 1
        print("not ok - " + name + (" (" + detail + ")" if detail else ""))


def unrun(c):
    """a column as the page holds it: a run of equal values may be written [value, count] (docs/view.md §3)"""
    out = []
    for x in c:
        out.extend([x[0]] * x[1] if isinstance(x, list) else [x])
    return out


def page_data(page):
    text = open(page, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="run-data">(.*?)</script>', text, re.S)
    d = json.loads(m.group(1))
    if "data" in d:
        d["data"] = [unrun(c) for c in d["data"]]
    for k in d.get("pose", {}):
        d["pose"][k] = unrun(d["pose"][k])
    return d, len(text.encode())


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) for x in r] for r in rows[2:]]


_nonce = [0]


def set_time(b, t):
    # a new fragment each time (the n=K after it), so that the page hears a hashchange even for the same time
    _nonce[0] += 1
    b.eval("new Promise(r => { location.hash = 't=%.17g&n=%d'; "
           "setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => r(1))), 30); })" % (t, _nonce[0]))


def panel(b):
    return b.eval("JSON.stringify([...document.querySelectorAll('td[data-ch]')].map(e => [e.dataset.ch, e.dataset.v]))")


def open_page(b, page, name):
    b.open("file://" + os.path.abspath(page))
    ready = b.eval("document.body.dataset.ready")
    ok("%s: page drawn (body data-ready)" % name, ready == "1")
    errs = b.errors() + ([] if b.eval("document.body.dataset.errors") == "0" else ["the page counted errors"])
    ok("%s: no console errors" % name, not errs, "; ".join(errs[:3]))
    return float(b.eval("document.body.dataset.loadMs") or 1e9)


def check_values(b, name, label, treq, kept_t, names, hist):
    set_time(b, treq)
    tshown = float(b.eval("document.getElementById('cursor').dataset.t"))
    expect = max([t for t in kept_t if t <= treq] or [kept_t[0]])
    ok("%s: %s: cursor at the last kept row at or before t = %.6g (%.9g)" % (name, label, treq, tshown),
       tshown == expect, "expected %.17g" % expect)
    ht = [r[0] for r in hist]
    col = {n: k for k, n in enumerate(names)}
    r = hist[ht.index(tshown)] if tshown in ht else None
    vals = json.loads(panel(b))
    wrong = [(c, v) for c, v in vals if r is None or c not in col or v in ("null", "undefined")
             or abs(float(v) - r[col[c]]) > 5e-7 * abs(r[col[c]])]
    ok("%s: %s: %d panel values equal the history at t = %.9g" % (name, label, len(vals), tshown),
       r is not None and len(vals) >= 5 and not wrong, str(wrong[:3]))


def dock(b, page, run, shots, max_load, max_bytes):
    name = os.path.basename(os.path.normpath(run))
    data, size = page_data(page)
    names, hist = read_csv(os.path.join(run, "history.csv"))
    ht = [r[0] for r in hist]
    kept_t = data["data"][0]
    kept = set(kept_t)
    col = {n: k for k, n in enumerate(names)}
    # decimation: flags' changes and the forces' peaks
    flags = [c for c in ["cone_contact", "socket_contact", "bottom_contact", "latch_contact", "limiter_contact",
                         "capture", "seq_state", "hooks_locked"] if c in col]
    nchg, missing = 0, []
    for i in range(1, len(hist)):
        for c in flags:
            if hist[i][col[c]] != hist[i - 1][col[c]]:
                nchg += 1
                if not (ht[i] in kept and ht[i - 1] in kept):
                    missing.append(ht[i])
    ok("%s: every contact flag change (%d) kept with the row before it" % (name, nchg), nchg > 0 and not missing,
       "missing at t = %s" % missing[:3])
    # every value of every kept row (the columns expanded from their runs) is the history's at that row to the
    # page's 7 significant digits, and every pose pose.csv's to 5 (a run written for values that differ, or a
    # count off by one, moves a whole stretch of a column)
    hrow = {t: r for t, r in zip(ht, hist)}
    bad = [(c, t) for k, c in enumerate(data["channels"]) if c in col
           for t, v in zip(kept_t, data["data"][k])
           if v is None or abs(v - hrow[t][col[c]]) > 5e-7 * abs(hrow[t][col[c]])]
    ok("%s: every kept row's %d channels equal the history's (7 digits)" % (name, len(data["channels"])),
       len(data["data"]) == len(data["channels"]) and all(len(c) == len(kept_t) for c in data["data"]) and not bad,
       str(bad[:3]))
    pnames, prows = read_csv(os.path.join(run, "pose.csv"))
    prow = {r[0]: r for r in prows}
    pcol = {n: k for k, n in enumerate(pnames)}
    bad = [(c, t) for c, vals in data["pose"].items() for t, v in zip(kept_t, vals)
           if len(vals) != len(kept_t) or v is None or abs(v - prow[t][pcol[c]]) > 5e-5 * abs(prow[t][pcol[c]])]
    ok("%s: every kept row's %d pose columns equal pose.csv's (5 digits)" % (name, len(data["pose"])),
       all(len(v) == len(kept_t) for v in data["pose"].values()) and not bad, str(bad[:3]))
    # every episode of every contact force the decimation ranks (mech view's list: the flags' forces, the lateral
    # springs, the hooks' pairs): its peak kept with its value; when the page says the events passed --rows
    # ("dropped": how many episodes of how many, the largest peak left out, per channel), every episode peaking
    # above that peak kept, those not kept peaking at it or below, the page's counts of all and per channel equal
    # this recount of history.csv (docs/view.md §3)
    drop = data.get("dropped")
    lim = drop["peak"] if drop else -1.0
    bad, npk, nout, out_by, big = [], 0, 0, {}, 0.0
    for c in ["head_axial", "head_lateral", "limiter_f", "roller_f1", "roller_f2", "roller_f3", "pad_wall_f",
              "pusher_f", "plane_f", "chain1_f", "chain2_f", "hook_f1", "hook_f2", "hook_f3", "hook_f4"]:
        if c not in col:
            continue
        k = col[c]
        pv = dict(zip(kept_t, data["data"][data["channels"].index(c)]))
        i = 0
        while i < len(hist):
            if hist[i][k] == 0:
                i += 1
                continue
            j = pk = i
            while j < len(hist) and hist[j][k] != 0:
                if abs(hist[j][k]) > abs(hist[pk][k]):
                    pk = j
                j += 1
            npk += 1
            v = pv.get(ht[pk])
            if v is None or abs(v - hist[pk][k]) > 5e-7 * abs(hist[pk][k]):
                if abs(hist[pk][k]) > lim:
                    bad.append((c, ht[pk]))
                else:
                    nout += 1
                    out_by[c] = out_by.get(c, 0) + 1
                    big = max(big, abs(hist[pk][k]))
            i = j
    if not drop:
        ok("%s: every contact force episode's peak (%d) kept with its value" % (name, npk), npk > 0 and not bad,
           str(bad[:3]))
    else:
        ok("%s: every contact force episode peaking above %.3g (the largest left out for --rows) kept with its "
           "peak, %d of %d" % (name, lim, npk - nout, npk), npk > 0 and not bad, str(bad[:3]))
        # an episode left out may still have its peak row kept (a neighbour's or the time grid's row): the page's
        # count is at least this one's, per channel, and the largest peak left out is the page's
        ok("%s: the page's counts of the episodes (%d) and of those left out (%d, per channel %s) are the history's "
           "(%d, %d with the peak row not kept, per channel %s)" % (name, drop["of"], drop["episodes"], drop["by"],
                                                                    npk, nout, out_by),
           drop["of"] == npk and all(out_by.get(c, 0) <= n for c, n in drop["by"].items()) and
           set(out_by) <= set(drop["by"]) and sum(drop["by"].values()) == drop["episodes"] and big <= lim)
    load = open_page(b, page, name)
    info = b.eval("document.querySelector('header .info').textContent")
    said = "%d of %d force episodes" % (drop["episodes"], drop["of"]) if drop else "every contact onset and peak"
    ok("%s: the header says what the decimation kept ('%s')" % (name, said), said in info, info)
    print("# %s: drawn %.0f ms after navigation start; page %d bytes, %d of %d rows kept" %
          (name, load, size, data["rows"], data["rows_in"]))
    ok("%s: opens in under %.0f ms (%.0f ms)" % (name, max_load, load), load < max_load)
    if max_bytes:
        ok("%s: page under %d bytes (%d)" % (name, max_bytes, size), size < max_bytes)
    mid = len(kept_t) // 2
    check_values(b, name, "a kept row", kept_t[mid], kept_t, names, hist)
    # three quarters of the way to the next kept row: a page showing the nearest row would show the next one
    check_values(b, name, "between kept rows", kept_t[mid] + 0.75 * (kept_t[mid + 1] - kept_t[mid]), kept_t, names, hist)
    # keyboard stepping: PageDown from t = 0 goes to the first event, a row where a flag changes or a contact force
    # of the rollers, pads, pushers or planes switches on or off; a second PageDown to the next one
    evc = [col[c] for c in flags + ["limiter_f", "roller_f1", "roller_f2", "roller_f3", "pad_wall_f", "pusher_f",
                                    "plane_f", "hook_f1", "hook_f2", "hook_f3", "hook_f4"] if c in col]
    ev = [ht[i] for i in range(1, len(hist)) if any((hist[i][k] != 0) != (hist[i - 1][k] != 0) or
                                                     (k in [col[c] for c in flags] and hist[i][k] != hist[i - 1][k])
                                                     for k in evc)]
    set_time(b, 0.0)
    got = []
    for _ in range(2):
        b.eval("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'PageDown'}))")
        got.append(float(b.eval("document.getElementById('cursor').dataset.t")))
    ok("%s: PageDown steps to the first two events (t = %s)" % (name, ", ".join("%.6g" % t for t in got)),
       got == ev[:2], "expected %s" % ev[:2])

    # screenshots: the contact red at the head
    hc = [col[c] for c in ["cone_contact", "socket_contact", "bottom_contact", "latch_contact"]]
    first = next(t for t, r in zip(ht, hist) if any(r[k] for k in hc))
    shot = {}
    for label, t in [("t0", 0.0), ("first-contact", first), ("end", ht[-1])]:
        set_time(b, t)
        path = os.path.join(shots, "%s-%s.png" % (name, label))
        b.screenshot(path)
        box = [float(v) for v in b.eval("document.getElementById('scene-ld').dataset.box").split(",")]
        cx, cy, r = [float(v) for v in b.eval("document.getElementById('scene-ld').dataset.head").split(",")]
        touching = b.eval("document.getElementById('scene-ld').dataset.headContact") == "1"
        im = Image.open(path).convert("RGB")
        scene = im.crop((int(box[0]), int(box[1]), int(box[0] + box[2]), int(box[1] + box[3])))
        px, red, near = scene.load(), 0, 0
        for y in range(scene.size[1]):
            for x in range(scene.size[0]):
                if RED(px[x, y]):
                    red += 1
                    near += (x + int(box[0]) - cx) ** 2 + (y + int(box[1]) - cy) ** 2 <= (r + 3) ** 2
        shot[label] = (red, near, 3.14159 * r * r, scene, touching)
    s0, s1, s2 = shot["t0"], shot["first-contact"], shot["end"]
    ok("%s: t = 0: no contact red in the scene" % name, s0[0] == 0 and not s0[4], "%d red pixels" % s0[0])
    ok("%s: first head contact, t = %.6g: the head red (%d red pixels at it, its disc %.0f)" % (name, first, s1[1],
       s1[2]), s1[4] and s1[1] >= 0.5 * s1[2])
    diff = sum(1 for p, q in zip(s0[3].getdata(), s2[3].getdata()) if p != q) if s0[3].size == s2[3].size else 10**9
    ok("%s: the scene at the end differs from t = 0 (%d pixels)" % (name, diff), diff > 200)
    if s2[4]:
        ok("%s: end: the head red while it touches (%d red pixels at it)" % (name, s2[1]), s2[1] >= 0.5 * s2[2])


def beam_modal(b, name, data, names, hist, modal, shapes):
    """the deformed beam drawn from the modal coordinates against the library's w(x, t) (see the module's text)"""
    mnames, mrows = read_csv(modal)
    snames, srows = read_csv(shapes)
    nm = len(snames) - 1
    eps = 2.0 ** -52
    ok("%s: modal file: t, theta, eta_1..eta_%d (%d columns)" % (name, nm, len(mnames)),
       mnames[:2 + nm] == ["t", "theta"] + ["eta_%d" % (i + 1) for i in range(nm)])
    tip, iw = srows[-1][1:], names.index("w_tip")
    worst, bad = 0.0, []
    for k, (m, h) in enumerate(zip(mrows, hist)):
        w = 0.0
        for i in range(nm):
            w += tip[i] * m[2 + i]
        bound = 4 * nm * eps * sum(abs(tip[i] * m[2 + i]) for i in range(nm))
        worst = max(worst, abs(w - h[iw]))
        if m[0] != h[0] or abs(w - h[iw]) > bound:
            bad.append((k, m[0], w, h[iw]))
    ok("%s: sum phi_i(l) eta_i = w_tip at all %d rows (largest difference %.3g m)" % (name, len(hist), worst),
       not bad and len(mrows) == len(hist), "rows %s" % bad[:3])
    kept_t = data["data"][0]
    iw_page = data["channels"].index("w_tip")
    peak = max(range(len(kept_t)), key=lambda i: abs(data["data"][iw_page][i]))
    times = [kept_t[len(kept_t) // 3], kept_t[peak], 0.5 * (kept_t[-2] + kept_t[-1])]
    row_of = {r[0]: r for r in mrows}
    for treq in times:
        set_time(b, treq)
        got = json.loads(b.eval("(() => { const s = document.getElementById('scene-beam').dataset, "
                                "l = document.getElementById('beam-shape'); return JSON.stringify({k: +s.k, s: +s.s, "
                                "cx: +s.cx, cy: +s.cy, r0: +s.r0, th: +l.dataset.theta, row: +l.dataset.row, "
                                "pts: l.getAttribute('points')}); })()"))
        tshown = kept_t[got["row"]]
        m = row_of.get(tshown)
        if m is None:
            ok("%s: t = %.6g: the shown row t = %.17g is a row of the modal file" % (name, treq, tshown), False)
            continue
        ct, st = math.cos(got["th"]), math.sin(got["th"])
        pts = [tuple(map(float, p.split(","))) for p in got["pts"].split()]
        errs, xerr, dw, dtol = [], 0.0, 0.0, 0.0
        for (px, py), srow in zip(pts, srows):
            X, Y = (px - got["cx"]) / got["s"], (got["cy"] - py) / got["s"]
            xb, wk = X * ct + Y * st, -X * st + Y * ct
            terms = [srow[1 + i] * m[2 + i] for i in range(nm)]
            want = sum(terms)
            tol = sum(abs(v) for v in terms) * (5e-7 + 5e-9) + 1e-12
            xerr = max(xerr, abs(xb - got["r0"] - srow[0]))
            if abs(wk / got["k"] - want) > dw:
                dw, dtol = abs(wk / got["k"] - want), tol
            if abs(wk / got["k"] - want) > tol:
                errs.append((srow[0], wk / got["k"], want, tol))
        ok("%s: t = %.6g (row t = %.6g): the drawn beam is w = sum phi_i eta_i at its %d stations (theta %.4g rad, "
           "x within %.2g m, largest |dw| %.2g m where %.2g m allowed)" % (name, treq, tshown, len(pts), got["th"],
                                                                      xerr, dw, dtol), len(pts) == len(srows) and not errs and
           xerr < 2e-8 and abs(got["th"] - m[1]) <= 5e-7 * abs(m[1]) + 1e-300, "x error %g, %s" % (xerr, errs[:3]))


def beam(b, page, sim, modal=None, shapes=None):
    name = os.path.basename(page)
    data, size = page_data(page)
    names, hist = read_csv(sim)
    open_page(b, page, name)
    kept_t = data["data"][0]
    check_values(b, name, "a kept row", kept_t[len(kept_t) // 2], kept_t, names, hist)
    m = data["channels"].index("M_1")
    col = data["data"][m]
    seen = set()
    for i, (t, v) in enumerate(zip(kept_t, col)):
        kind = v != 0
        if kind in seen:
            continue
        seen.add(kind)
        set_time(b, t)
        fill = b.eval("document.querySelector('circle.hinge[data-hinge=\"1\"]').getAttribute('fill')")
        ok("%s: t = %.6g: hinge 1 %s while M_1 = %.4g" % (name, t, "red" if kind else "not red", v),
           (fill == "rgb(224,16,16)") == kind, "fill %s" % fill)
    ok("%s: hinge 1 seen carrying a moment and free" % name, seen == {True, False})
    if modal:
        ok("%s: the page holds the modal coordinates (--modal)" % name, "modal" in data)
        beam_modal(b, name, data, names, hist, modal, shapes)


def hooks(b, page, run, shots):
    """the structural hooks drawn at every frame (see the module's text)"""
    name = os.path.basename(os.path.normpath(run)) + " hooks"
    data, size = page_data(page)
    pnames, pose = read_csv(os.path.join(run, "pose.csv"))
    pc = {n: k for k, n in enumerate(pnames)}
    hk = data.get("hooks")
    ok("%s: the page holds the hooks (%s links)" % (name, hk and hk["n"]), bool(hk) and hk["n"] == 8)
    if not hk:
        return
    print("# %s: page %d bytes; its hooks %d bytes" % (name, size, len(json.dumps(hk, separators=(",", ":")))))
    open_page(b, page, name)
    kept_t = data["data"][0]
    prow = {r[0]: r for r in pose}
    st = lambda r: [int(r[pc["hook%d_state" % (j + 1)]]) for j in range(8)]
    first_closing = next(t for t in kept_t if any(s_ != 0 for s_ in st(prow[t])))
    locked = [t for t in kept_t if all(s_ == 2 for s_ in st(prow[t]))]
    closing = [t for t in kept_t if all(s_ == 1 for s_ in st(prow[t]))]
    before = [t for t in kept_t if t < first_closing]
    ok("%s: rows open, closing and locked on the page" % name, before and closing and locked)
    if not (before and closing and locked):
        return
    names = ["open", "closing", "locked", "missed"]
    for label, t in [("before the hook drive", before[len(before) // 2]), ("closing", closing[len(closing) // 2]),
                     ("locked", locked[-1])]:
        set_time(b, t)
        tshown = float(b.eval("document.getElementById('cursor').dataset.t"))
        r = prow.get(tshown)
        got = json.loads(b.eval("JSON.stringify([...Array(8).keys()].map(j => [1, 2].map(k => { const e = "
                                "document.getElementById((k === 1 ? 'hook-ld-' : 'hook-top-') + (j + 1)); if (!e) "
                                "return null; const q = e.getBoundingClientRect(); return [e.dataset.b, e.dataset.c, "
                                "e.dataset.state, +e.dataset.f, q.left + q.width / 2, q.top + q.height / 2]; })))"))
        path = os.path.join(shots, "%s-%s.png" % (name.replace(" ", "-"), label.replace(" ", "-")))
        b.screenshot(path)
        px = Image.open(path).convert("RGB").load()
        errs, reds = [], 0
        port = [r[pc["port_" + d]] for d in "xyz"]
        ex = [r[pc["pax_" + d]] for d in "xyz"]
        ey = [r[pc["pey_" + d]] for d in "xyz"]
        ez = [ex[1] * ey[2] - ex[2] * ey[1], ex[2] * ey[0] - ex[0] * ey[2], ex[0] * ey[1] - ex[1] * ey[0]]
        dot = lambda a, b: sum(x * y for x, y in zip(a, b))
        for j in range(8):
            J = "hook%d_" % (j + 1)
            want_c = [r[pc[J + "c" + d]] for d in "xyz"]
            want_s, want_f = names[int(r[pc[J + "state"]])], r[pc[J + "f"]]
            psi = math.radians(22.5 + 45 * j)
            want_b = [port[d] + 0.55 * (math.cos(psi) * ey[d] + math.sin(psi) * ez[d]) for d in range(3)]
            for g in got[j]:
                if g is None:
                    errs.append((j + 1, "not drawn"))
                    continue
                gb, gc = [float(v) for v in g[0].split(",")], [float(v) for v in g[1].split(",")]
                db = max(abs(x - y) for x, y in zip(gb, want_b))
                off = abs(dot([x - y for x, y in zip(gb, port)], ex))
                dc = max(abs(x - y) for x, y in zip(gc, want_c))
                bc = math.dist(gb, gc)
                if (db > 5e-5 or off > 5e-5 or dc > 1e-5 * max(1, max(map(abs, want_c))) or g[2] != want_s or
                        abs(g[3] - want_f) > 0.5 or (want_s == "locked" and bc > 2e-3)):
                    errs.append((j + 1, db, off, dc, bc, g[2], want_s, g[3], want_f))
            top = got[j][1]
            if top:
                red = RED(px[int(round(top[4])), int(round(top[5]))])
                reds += red
                if red != (want_f > 0):
                    errs.append((j + 1, "red" if red else "not red", want_f))
        states = ",".join(sorted(set(g[1][2] for g in got if g[1])))
        ok("%s: %s, t = %.6g: the 8 hooks drawn on the active plane, at pose.csv's catches, states (%s) "
           "and tensions; %d red where %d bear" % (name, label, tshown, states, reds,
                                                   sum(r[pc["hook%d_f" % (j + 1)]] > 0 for j in range(8))),
           r is not None and not errs, str(errs[:3]))


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for k in ("href", "src"):
            if a.get(k):
                self.refs.append(a[k])


def check_links(html_text, base, name):
    p = Links()
    p.feed(html_text)
    bad = []
    for ref in p.refs:
        if re.match(r"^[a-z][a-z0-9+.-]*:", ref, re.I):   # http:, mailto:, data: ... none expected in a page
            if not ref.startswith("data:"):
                bad.append(ref + " (external)")
            continue
        path, _, frag = ref.partition("#")
        if not path:
            if frag and frag not in p.ids:
                bad.append(ref)
            continue
        if not os.path.exists(os.path.join(base, path.split("?")[0])):
            bad.append(ref)
    ok("%s: every link and image (%d) resolves" % (name, len(p.refs)), p.refs and not bad, "missing: %s" % bad[:5])


def links(b, page):
    name = os.path.basename(page)
    if b:
        open_page(b, page, name)
        text = b.eval("document.documentElement.outerHTML")
    else:
        text = open(page, encoding="utf-8").read()
    check_links(text, os.path.dirname(os.path.abspath(page)), name)


def main():
    a = sys.argv[1:]
    opt = {"--shots": None, "--max-load-ms": "2000", "--max-bytes": "0"}
    tasks = []
    while a:
        x = a.pop(0)
        if x in opt:
            opt[x] = a.pop(0)
        else:
            tasks.append(x)
    shots = opt["--shots"] or tempfile.mkdtemp()
    static = [t for t in tasks if t.startswith("static:")]
    for t in static:          # no browser needed
        links(None, t.split(":", 1)[1])
    tasks = [t for t in tasks if not t.startswith("static:")]
    if tasks:
        b = Chromium()
        try:
            for t in tasks:
                kind, rest = t.split(":", 1)
                if kind == "dock":
                    page, run = rest.split(":", 1)
                    dock(b, page, run, shots, float(opt["--max-load-ms"]), int(opt["--max-bytes"]))
                elif kind == "beam":
                    beam(b, *rest.split(":"))
                elif kind == "hooks":
                    page, run = rest.split(":", 1)
                    hooks(b, page, run, shots)
                elif kind == "links":
                    links(b, rest)
        finally:
            b.close()
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
