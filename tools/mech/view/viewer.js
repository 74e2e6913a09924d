// mech view: the run viewer's page script (issue 48; docs/view.md). Plain JavaScript, SVG and Canvas; no library,
// no network. The data are the JSON block #run-data written by `mech view` (tools/mech/cmd_view.c):
//   dock:  geometry (the scenario), the kept history rows (data[k] = column k, data[0] = t), the poses (cone frame),
//          the events (contact flags and forces switching) and the summary (capture, the sequencer's phases)
//   beam:  the time response of `mech beam sim` and, with --config, the appendage's geometry; with --modal the run's
//          modal coordinates eta_i at the kept rows and the model's shapes phi_i at the FE nodes (mech_beam_shapes)
//   sweep: the table (results.csv), the summary and the run pages that exist
// The page shows the dynamic mnemonic scheme of spec 001 §4.1: the two projections with every contact red while it
// acts, the device states, the numbers, and time plots with the cursor and the sequencer's phases shaded.
// For scripts and tests: #t=SECONDS in the URL sets the time; #cursor holds the shown row (data-t, data-row) and
// every shown value is a cell with data-ch (its channel) and data-v (the value as stored); body[data-ready] = 1 once
// drawn, with data-load-ms the time from navigation start.
'use strict';
(function () {
  const errors = [];
  window.addEventListener('error', (e) => { errors.push(String(e.message)); report(); });
  function report() {
    const box = document.getElementById('errors');
    if (box) box.textContent = errors.join('\n');
    document.body.dataset.errors = String(errors.length);
  }

  const D = JSON.parse(document.getElementById('run-data').textContent);
  // a docking page's columns write a run of 3 or more equal values as [value, count] (mech view, view_json_runs;
  // docs/view.md §3): expanded here, once, to the plain arrays the page reads
  const unrun = (c) => {
    if (!Array.isArray(c) || !c.some(Array.isArray)) return c;
    const out = [];
    for (const x of c) if (Array.isArray(x)) for (let r = 0; r < x[1]; r++) out.push(x[0]); else out.push(x);
    return out;
  };
  if (D.data) D.data = D.data.map(unrun);
  if (D.pose) for (const k in D.pose) D.pose[k] = unrun(D.pose[k]);
  const KIND = document.body.dataset.kind;
  const RED = 'rgb(224,16,16)';        // contact, while it acts (and nothing else in the scenes)
  const SVGNS = 'http://www.w3.org/2000/svg';
  const app = document.getElementById('app');

  function el(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function sv(tag, attrs, parent) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function fmt(v, p) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    if (v === 0) return '0';
    const a = Math.abs(v);
    return (a >= 1e5 || a < 1e-3) ? v.toExponential((p || 5) - 1) : String(+v.toPrecision(p || 5));
  }

  // ---- the history: columns by name, the row shown at a time -------------------------------------------------
  function History(channels, units, data) {
    this.names = channels; this.units = units; this.data = data; this.t = data[0];
    this.col = {};
    channels.forEach((n, k) => { this.col[n] = k; });
  }
  History.prototype.has = function (n) { return n in this.col; };
  History.prototype.v = function (n, i) { return this.has(n) ? this.data[this.col[n]][i] : null; };
  // the last kept row at or before t (the page holds a row's values until the next kept row)
  History.prototype.rowAt = function (t) {
    const T = this.t;
    if (!(t > T[0])) return 0;
    let lo = 0, hi = T.length - 1;
    if (t >= T[hi]) return hi;
    while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (T[mid] <= t) lo = mid; else hi = mid; }
    return lo;
  };

  // ---- the shared page frame: header, controls, the time and its cursor -----------------------------------
  const H = D.data ? new History(D.channels, D.units, D.data) : null;
  const state = { row: 0, tReq: 0, playing: false, speed: 1, last: 0, listeners: [] };

  // (what the page keeps of every event, what it keeps always) => GraphStep's text: the rows kept and, when the
  // events passed --rows, the force episodes left out (the smallest by their peak; mech view's "dropped", §3)
  function kept(all, always) {
    const dr = D.dropped;
    return D.rows + ' of ' + D.rows_in + ' rows kept (' + (dr ? always + dr.episodes + ' of ' + dr.of
      + ' force episodes, each peaking at ' + fmt(dr.peak, 3) + ' or less, left out for --rows ' + D.budget + ': '
      + Object.entries(dr.by).map(([k, v]) => k + ' ' + v).join(', ') : all) + ')';
  }
  function header(infoItems) {
    const h = el('header', {}, app);
    el('h1', {}, h, D.title);
    const info = el('div', { class: 'info' }, h);
    for (const [k, v] of infoItems) el('span', {}, info, k + ': ' + v);
    el('div', { id: 'errors' }, h);
    return info;
  }

  function controls(events) {
    const c = el('div', { class: 'controls' }, app);
    const play = el('button', { id: 'play', title: 'play / pause (space)' }, c, 'play');
    const sp = el('select', { id: 'speed', title: 'speed: simulated seconds per second' }, c);
    for (const s of [0.01, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50]) {
      const o = el('option', { value: s }, sp, s + '×');
      if (s === 1) o.selected = true;
    }
    const prev = el('button', { title: 'previous event (PageUp or ,)' }, c, '◀ event');
    const next = el('button', { title: 'next event (PageDown or .)' }, c, 'event ▶');
    const T = H.t, tEnd = T[T.length - 1];
    const slider = el('input', { id: 'slider', type: 'range', min: T[0], max: tEnd, step: 'any', value: T[0] }, c);
    const tnow = el('span', { class: 'tnow', id: 'tnow' }, c);
    el('span', { class: 'hint' }, c, '← → rows, PageUp/PageDown events, space play');
    const cursor = el('span', { id: 'cursor', hidden: '' }, c);
    play.onclick = () => setPlaying(!state.playing);
    sp.onchange = () => { state.speed = +sp.value; };
    slider.oninput = () => setTime(+slider.value, true);
    const evT = events.map((e) => e[0]);
    function stepEvent(dir) {
      const t = T[state.row];
      let k = -1;
      if (dir > 0) k = evT.findIndex((x) => x > t + 1e-12);
      else for (let j = evT.length - 1; j >= 0; j--) if (evT[j] < t - 1e-12) { k = j; break; }
      if (k >= 0) setTime(evT[k], true);
    }
    prev.onclick = () => stepEvent(-1);
    next.onclick = () => stepEvent(1);
    document.addEventListener('keydown', (e) => {
      if (e.target && e.target.tagName === 'SELECT') return;
      if (e.key === 'ArrowRight') setRow(Math.min(state.row + 1, T.length - 1));
      else if (e.key === 'ArrowLeft') setRow(Math.max(state.row - 1, 0));
      else if (e.key === 'PageDown' || e.key === '.') stepEvent(1);
      else if (e.key === 'PageUp' || e.key === ',') stepEvent(-1);
      else if (e.key === ' ') setPlaying(!state.playing);
      else if (e.key === 'Home') setRow(0);
      else if (e.key === 'End') setRow(T.length - 1);
      else return;
      e.preventDefault();
    });
    function setPlaying(on) {
      state.playing = on;
      play.textContent = on ? 'pause' : 'play';
      if (on) {
        if (state.row >= T.length - 1) setRow(0);
        state.last = performance.now();
        requestAnimationFrame(tick);
      }
    }
    function tick(now) {
      if (!state.playing) return;
      const dt = (now - state.last) / 1000;
      state.last = now;
      const t = Math.min(state.tReq + dt * state.speed, tEnd);
      setTime(t, true);
      if (t >= tEnd) setPlaying(false); else requestAnimationFrame(tick);
    }
    state.ui = { slider, tnow, cursor };
  }

  function setRow(i) { setTime(H.t[i], true, i); }
  function setTime(t, fromUi, row) {
    state.tReq = t;
    state.row = row === undefined ? H.rowAt(t) : row;
    const ui = state.ui, tr = H.t[state.row];
    if (ui) {
      if (fromUi) ui.slider.value = tr;
      ui.tnow.textContent = 'T current ' + tr.toFixed(4) + ' s';
      ui.cursor.dataset.t = String(tr);
      ui.cursor.dataset.row = String(state.row);
      ui.cursor.dataset.req = String(t);
    }
    for (const f of state.listeners) f(state.row);
  }
  function fromHash() {
    const m = /(?:^|[#&])t=([-+0-9.eE]+)/.exec(location.hash);
    if (m && H) setTime(+m[1], true);
  }

  // ---- value tables: every shown value is a cell with data-ch and data-v ----------------------------------
  // rows: [label, channel, scale (display), unit]; bars: |v| / max |v| over the run, red positive, blue negative
  function valueTable(parent, caption, rows, bars) {
    const tb = el('table', { class: 'vals' }, parent);
    el('caption', {}, tb, caption);
    const cells = [];
    for (const r of rows) {
      if (!H.has(r[1])) continue;
      const tr = el('tr', {}, tb);
      el('td', {}, tr, r[0]);
      const td = el('td', { class: 'v', 'data-ch': r[1] }, tr);
      el('td', {}, tr, r[3] !== undefined ? r[3] : H.units[H.col[r[1]]]);
      let bar = null, max = 0;
      if (bars) {
        const b = el('td', { class: 'bar' }, tr);
        bar = el('div', {}, b);
        for (const x of H.data[H.col[r[1]]]) if (isFinite(x)) max = Math.max(max, Math.abs(x));
      }
      cells.push({ td, ch: r[1], scale: r[2] || 1, bar, max });
    }
    state.listeners.push((i) => {
      for (const c of cells) {
        const v = H.v(c.ch, i);
        c.td.dataset.v = String(v);
        c.td.textContent = fmt(v === null ? v : v * c.scale);
        if (c.bar) {
          const w = c.max > 0 && v !== null ? Math.round(60 * Math.abs(v) / c.max) : 0;
          c.bar.style.width = w + 'px';
          c.bar.className = v > 0 ? 'pos' : v < 0 ? 'neg' : '';
        }
      }
    });
    return tb;
  }

  // ---- time plots: any channel from the list, cursor, phases shaded, zoom by drag ---------------------------
  function plots(defaults, phases, marks) {
    const box = el('div', { class: 'plots' }, app);
    const left = el('div', {}, box);
    el('div', {}, left, 'channels (ctrl-click for several):');
    const sel = el('select', { multiple: '', size: 16, id: 'plot-channels' }, left);
    H.names.forEach((n, k) => {
      if (k === 0) return;
      const o = el('option', { value: n }, sel, n + (H.units[k] && H.units[k] !== '1' ? ' [' + H.units[k] + ']' : ''));
      if (defaults.includes(n)) o.selected = true;
    });
    el('div', { class: 'hint' }, left, 'drag: zoom; double-click: all; click: set time');
    const cv = el('canvas', { id: 'plot', width: 1000, height: 420 }, box);
    const T = H.t;
    let x0 = T[0], x1 = T[T.length - 1];
    if (!(x1 > x0)) x1 = x0 + 1;
    let drag = null;
    const ctx = cv.getContext('2d');
    const L = 70, R = 10, TOP = 6, BOT = 22;
    const X = (t) => L + (t - x0) / (x1 - x0) * (cv.width - L - R);
    const Tx = (px) => x0 + (px - L) / (cv.width - L - R) * (x1 - x0);
    const colours = ['#1f5fbf', '#2a8a2a', '#8a2ab0', '#c07000', '#207080', '#606060'];
    function draw() {
      const chs = Array.from(sel.selectedOptions).map((o) => o.value).slice(0, 6);
      ctx.clearRect(0, 0, cv.width, cv.height);
      ctx.font = '11px sans-serif';
      const n = Math.max(chs.length, 1), hs = (cv.height - TOP - BOT) / n;
      // phases shaded (spec 001 §4.1), alternately
      phases.forEach((p, k) => {
        if (p.t1 < x0 || p.t0 > x1) return;
        ctx.fillStyle = k % 2 ? 'rgba(120,140,200,0.10)' : 'rgba(200,180,100,0.12)';
        const a = X(Math.max(p.t0, x0)), b = X(Math.min(p.t1, x1));
        ctx.fillRect(a, TOP, b - a, cv.height - TOP - BOT);
        ctx.fillStyle = '#555';
        if (b - a > 40) ctx.fillText(p.name, a + 3, TOP + 10);
      });
      const i0 = Math.max(H.rowAt(x0) - 1, 0), i1 = Math.min(H.rowAt(x1) + 1, T.length - 1);
      chs.forEach((ch, k) => {
        const y0 = TOP + k * hs, col = H.data[H.col[ch]];
        let lo = Infinity, hi = -Infinity;
        for (let i = i0; i <= i1; i++) if (isFinite(col[i]) && col[i] !== null) { lo = Math.min(lo, col[i]); hi = Math.max(hi, col[i]); }
        if (!(hi > lo)) { hi = (isFinite(hi) ? hi : 0) + 1; lo = hi - 2; }
        const pad = 0.06 * (hi - lo);
        lo -= pad; hi += pad;
        const Y = (v) => y0 + hs - 4 - (v - lo) / (hi - lo) * (hs - 8);
        ctx.strokeStyle = '#ddd';
        ctx.strokeRect(L, y0, cv.width - L - R, hs);
        ctx.fillStyle = '#333';
        ctx.fillText(fmt(hi - pad, 4), 2, y0 + 10);
        ctx.fillText(fmt(lo + pad, 4), 2, y0 + hs - 4);
        ctx.fillStyle = colours[k % colours.length];
        ctx.fillText(ch, L + 4, y0 + hs - 6);
        ctx.strokeStyle = colours[k % colours.length];
        ctx.beginPath();
        let pen = false;
        for (let i = i0; i <= i1; i++) {
          const v = col[i];
          if (v === null || !isFinite(v)) { pen = false; continue; }
          if (pen) ctx.lineTo(X(T[i]), Y(v)); else ctx.moveTo(X(T[i]), Y(v));
          pen = true;
        }
        ctx.stroke();
      });
      // marks (capture: dashed), the cursor
      ctx.setLineDash([5, 4]);
      ctx.strokeStyle = '#444';
      for (const m of marks) if (m.t >= x0 && m.t <= x1) {
        ctx.beginPath(); ctx.moveTo(X(m.t), TOP); ctx.lineTo(X(m.t), cv.height - BOT); ctx.stroke();
      }
      ctx.setLineDash([]);
      const tc = T[state.row];
      if (tc >= x0 && tc <= x1) {
        ctx.strokeStyle = '#e0a000'; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(X(tc), TOP); ctx.lineTo(X(tc), cv.height - BOT); ctx.stroke();
        ctx.lineWidth = 1;
      }
      ctx.fillStyle = '#333';
      for (let k = 0; k <= 5; k++) {
        const t = x0 + (x1 - x0) * k / 5;
        ctx.fillText(fmt(t, 4) + ' s', X(t) - (k === 5 ? 40 : k ? 15 : 0), cv.height - 6);
      }
      if (drag && drag.b !== undefined) {
        ctx.fillStyle = 'rgba(0,0,0,0.12)';
        ctx.fillRect(Math.min(drag.a, drag.b), TOP, Math.abs(drag.b - drag.a), cv.height - TOP - BOT);
      }
    }
    const px = (e) => (e.clientX - cv.getBoundingClientRect().left) * cv.width / cv.clientWidth;
    cv.onmousedown = (e) => { drag = { a: px(e) }; };
    cv.onmousemove = (e) => { if (drag) { drag.b = px(e); draw(); } };
    cv.onmouseup = (e) => {
      const b = px(e);
      if (drag && Math.abs(b - drag.a) > 4) {
        const ta = Tx(Math.min(drag.a, b)), tb = Tx(Math.max(drag.a, b));
        x0 = Math.max(ta, T[0]); x1 = Math.min(tb, T[T.length - 1]);
        if (!(x1 > x0)) { x0 = T[0]; x1 = T[T.length - 1]; }
      } else if (drag) {
        setTime(Tx(b), true);
      }
      drag = null;
      draw();
    };
    cv.ondblclick = () => { x0 = T[0]; x1 = T[T.length - 1]; draw(); };
    sel.onchange = draw;
    state.listeners.push(draw);
  }

  // ---- docking: the two projections (spec 001 §4.1, Fig. 11) ----------------------------------------------
  function dockPage() {
    const S = D.summary || {}, G = D.geom, P = D.pose, T = H.t;
    const proc = S.process || null;
    const phases = [];
    if (proc && proc.sequence) {
      const seq = proc.sequence;
      let t0 = T[0], name = 'ready';
      for (const s of seq) {
        if (s.to === name) continue;
        phases.push({ t0, t1: s.t, name });
        t0 = s.t; name = s.to;
      }
      phases.push({ t0, t1: T[T.length - 1], name });
    }
    const phaseAt = (t) => { let n = ''; for (const p of phases) if (t >= p.t0) n = p.name; return n; };
    header([['scenario', D.scenario], ['variant', G.variant + (G.movable_limiter ? ' (movable limiter)' : '')],
      ['status', S.status], ['T capture', S.captured ? fmt(S.capture_time) + ' s' : 'no capture'],
      ['T final', fmt(S.time) + ' s'], ['GraphStep', kept('every contact onset and peak', 'every contact flag change; ')]]);
    controls(D.events);
    const main = el('div', { class: 'main' }, app);
    const scene = el('div', { class: 'scene' }, main);
    // the cone in the plane Ld: x along the axis, r in the plane through the axis and the bending joint
    const R = G.rim_radius, rs = G.socket_radius, ta = Math.tan(G.half_angle);
    const xThroat = G.rim_x - (R - rs) / ta, xBottom = xThroat - G.bottom_depth, xStop = xThroat - G.stop_depth;
    let xMax = 0.5;
    for (const k of ['uj_x', 'port_x']) for (const v of P[k]) if (v !== null) xMax = Math.max(xMax, v);
    const ldBox = { x0: xBottom - 0.12, x1: xMax + 0.25, r0: -0.75, r1: 0.75 };
    const W = 560, Hh = Math.round(W * (ldBox.r1 - ldBox.r0) / (ldBox.x1 - ldBox.x0));
    const f1 = el('figure', {}, scene);
    el('figcaption', {}, f1, 'plane Ld: cone axis, UJ and bending joint (1 head, 2 bending joint, 3 UJ)');
    const ld = sv('svg', { id: 'scene-ld', width: W, height: Math.max(Hh, 260), viewBox: `0 0 ${W} ${Math.max(Hh, 260)}` }, f1);
    const sx = W / (ldBox.x1 - ldBox.x0), hLd = Math.max(Hh, 260);
    const LX = (x) => (x - ldBox.x0) * sx, LY = (r) => hLd / 2 - r * sx;   // x grows to the right (the active side)
    const f2 = el('figure', {}, scene);
    el('figcaption', {}, f2, 'along the cone axis, from the active vehicle');
    const TW = 300;
    const top = sv('svg', { id: 'scene-top', width: TW, height: TW, viewBox: `0 0 ${TW} ${TW}` }, f2);
    const ts = TW / 1.3, TX = (y) => TW / 2 + y * ts, TY = (z) => TW / 2 - z * ts;
    // fixed: the passive plane, the cone, the socket, the stop plane (plane Ld); rim and throat (top view)
    sv('line', { x1: LX(0), y1: LY(0.75), x2: LX(0), y2: LY(-0.75), stroke: '#999', 'stroke-dasharray': '4 3' }, ld);
    const cone = [[G.rim_x, R + 0.25], [G.rim_x, R], [xThroat, rs], [xBottom, rs], [xBottom, -rs], [xThroat, -rs], [G.rim_x, -R], [G.rim_x, -R - 0.25]];
    sv('polyline', { points: cone.map((p) => LX(p[0]) + ',' + LY(p[1])).join(' '), fill: 'none', stroke: '#444', 'stroke-width': 2 }, ld);
    sv('line', { x1: LX(xStop), y1: LY(rs), x2: LX(xStop), y2: LY(-rs), stroke: '#444', 'stroke-width': 1 }, ld);
    sv('circle', { cx: TX(0), cy: TY(0), r: R * ts, fill: 'none', stroke: '#444', 'stroke-width': 2 }, top);
    sv('circle', { cx: TX(0), cy: TY(0), r: rs * ts, fill: 'none', stroke: '#444' }, top);
    if (D.hooks && D.hooks.n > 0) {   // the hooks' key (drawn below with the moving parts)
      const k = sv('text', { x: 6, y: TW - 6, 'font-size': 10, fill: '#444' }, top);
      k.textContent = 'hooks: ● red bearing, amber closing, grey open, ○ missed';
    }
    // moving parts (redrawn at every time)
    const g1 = sv('g', {}, ld), g2 = sv('g', {}, top);
    const pt = (name, i) => [P[name + '_x'][i], P[name + '_y'][i], P[name + '_z'][i]];
    const nRoll = G.roller_radius > 0 ? [1, 2, 3, 4].filter((j) => ('roller' + j + '_x') in P).length : 0;
    const nPush = [1, 2, 3, 4, 5, 6, 7, 8].filter((j) => ('pusher' + j + '_bx') in P).length;
    function on(ch, i) { const v = H.v(ch, i); return v !== null && v !== 0; }
    // the hooks (mech view's "hooks": bases once, catches and states where they change, tensions from f0)
    const HK = D.hooks && D.hooks.n > 0 && ('pey_x' in P) ? D.hooks : null;
    const HOOK_STATES = ['open', 'closing', 'locked', 'missed'];
    function hookAt(list, i) { let e = list[0]; for (const x of list) { if (x[0] > i) break; e = x; } return e; }
    function drawScene(i) {
      g1.textContent = ''; g2.textContent = '';
      const uj = pt('uj', i), bend = pt('bend', i), head = pt('head', i), l0 = pt('lim0', i), l1 = pt('lim1', i);
      const hax = pt('hax', i), port = pt('port', i), pax = pt('pax', i);
      // in-plane radial unit: towards the bending joint, else the head, else +y (as the gnuplot view)
      let ey = bend[1], ez = bend[2], er = Math.hypot(ey, ez);
      if (er < 1e-6) { ey = head[1]; ez = head[2]; er = Math.hypot(ey, ez); }
      if (er < 1e-6) { ey = 1; ez = 0; er = 1; }
      ey /= er; ez /= er;
      const rad = (p) => p[1] * ey + p[2] * ez;
      const L2 = (p) => [LX(p[0]), LY(rad(p))];
      const line = (g, a, b, st, w, id) => sv('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: st, 'stroke-width': w || 2, ...(id ? { id } : {}) }, g);
      // the active docking plane
      const an = Math.hypot(pax[0], rad(pax)), px = an > 0 ? -rad(pax) / an : 0, pr = an > 0 ? pax[0] / an : 1;
      line(g1, [LX(port[0] + 0.6 * px), LY(rad(port) + 0.6 * pr)], [LX(port[0] - 0.6 * px), LY(rad(port) - 0.6 * pr)], '#1f5fbf', 2);
      // the limiter (a truncated cone on the housing): its section in the plane
      const hn = Math.hypot(hax[0], rad(hax)), nx = hn > 0 ? -rad(hax) / hn : 0, nr = hn > 0 ? hax[0] / hn : 1;
      const limOn = on('limiter_contact', i) || on('pad_wall_f', i);
      for (const s of [1, -1]) {
        const q = [[l0[0] + s * G.limiter_r0 * nx, rad(l0) + s * G.limiter_r0 * nr], [l1[0] + s * G.limiter_r1 * nx, rad(l1) + s * G.limiter_r1 * nr]];
        sv('polyline', { points: q.map((p) => LX(p[0]) + ',' + LY(p[1])).join(' '), fill: 'none', stroke: limOn ? RED : '#1f5fbf', 'stroke-width': limOn ? 4 : 2 }, g1);
      }
      sv('circle', { cx: TX(l0[1]), cy: TY(l0[2]), r: G.limiter_r0 * ts, fill: 'none', stroke: limOn ? RED : '#7a9fd8', 'stroke-width': limOn ? 3 : 1 }, g2);
      // housing (UJ -> bending joint) and probe (-> head)
      line(g1, L2(uj), L2(bend), '#1f5fbf', 5);
      line(g1, L2(bend), L2(head), '#1f5fbf', 3);
      const headOn = ['cone_contact', 'socket_contact', 'bottom_contact', 'latch_contact'].some((c) => on(c, i));
      const hc = L2(head);
      sv('circle', { id: 'head-ld', cx: hc[0], cy: hc[1], r: G.head_radius * sx, fill: headOn ? RED : '#b9cdf0', stroke: headOn ? RED : '#1f5fbf', 'stroke-width': 1.5 }, g1);
      // latches: ticks across the probe at the head, red while they touch the stops or slot faces
      const dx = head[0] - bend[0], dr = rad(head) - rad(bend), dn = Math.hypot(dx, dr) || 1;
      const lx = -dr / dn, lr = dx / dn, lr2 = (G.latch_radius || G.head_radius * 1.2);
      line(g1, [LX(head[0] + lr2 * lx), LY(rad(head) + lr2 * lr)], [LX(head[0] - lr2 * lx), LY(rad(head) - lr2 * lr)], on('latch_contact', i) ? RED : '#1f5fbf', 2);
      [uj, bend, head].forEach((p, k) => {
        const q = L2(p);
        sv('circle', { cx: q[0], cy: q[1], r: 3, fill: '#000' }, g1);
        const t = sv('text', { x: q[0] + 4, y: q[1] - 5, 'font-size': 11 }, g1);
        t.textContent = String(3 - k);
      });
      // the process: lever rollers (arm pivot -> roller) and pusher rods, red while they bear
      for (let j = 1; j <= nRoll; j++) {
        const rj = pt('roller' + j, i), pj = pt('pivot' + j, i);
        if (rj[0] === null) continue;
        const rOn = on('roller_f' + j, i);
        line(g1, L2(pj), L2(rj), '#c07000', 2);
        sv('circle', { cx: L2(rj)[0], cy: L2(rj)[1], r: Math.max(G.roller_radius * sx, 2), fill: rOn ? RED : '#f0c070', stroke: rOn ? RED : '#c07000' }, g1);
        sv('circle', { cx: TX(rj[1]), cy: TY(rj[2]), r: Math.max(G.roller_radius * ts, 2), fill: rOn ? RED : '#f0c070', stroke: '#c07000' }, g2);
      }
      const pOn = on('pusher_f', i);
      for (let j = 1; j <= nPush; j++) {
        const b = [P['pusher' + j + '_bx'][i], P['pusher' + j + '_by'][i], P['pusher' + j + '_bz'][i]];
        const e = [P['pusher' + j + '_tx'][i], P['pusher' + j + '_ty'][i], P['pusher' + j + '_tz'][i]];
        if (b[0] === null) continue;
        line(g1, L2(b), L2(e), pOn ? RED : '#2a8a2a', 2);
        sv('rect', { x: TX(e[1]) - 3, y: TY(e[2]) - 3, width: 6, height: 6, fill: pOn ? RED : '#2a8a2a' }, g2);
      }
      // the structural hooks (issue 44): each link's base on the active plane (fixed on the active collar: the
      // port's frame pax, pey, pax x pey and the link's place in it) and its catch on the passive plane; a disc at
      // the base, a line to the catch; red while the link bears (tension > 0), amber closing, grey open, a black
      // ring when it missed its catch
      if (HK) {
        const pey = pt('pey', i), pez = [pax[1] * pey[2] - pax[2] * pey[1], pax[2] * pey[0] - pax[0] * pey[2], pax[0] * pey[1] - pax[1] * pey[0]];
        for (let j = 0; j < HK.n; j++) {
          const q = HK.base[j], b = [0, 1, 2].map((d) => port[d] + q[0] * pax[d] + q[1] * pey[d] + q[2] * pez[d]);
          const c = hookAt(HK.catch[j], i).slice(1), st = hookAt(HK.state[j], i)[1];
          const f = i >= HK.f0 && HK.f[j].length ? HK.f[j][i - HK.f0] : 0;
          const col = f > 0 ? RED : st === 3 ? '#000' : st === 1 || st === 2 ? '#c07000' : '#888';
          const data = { 'data-state': HOOK_STATES[st] || '?', 'data-f': f, 'data-b': b.map((v) => v.toPrecision(7)).join(','), 'data-c': c.join(',') };
          line(g1, L2(b), L2(c), col, f > 0 ? 3 : 1.5);
          sv('circle', { id: 'hook-ld-' + (j + 1), cx: L2(b)[0], cy: L2(b)[1], r: 3.5, fill: st === 3 ? 'none' : col, stroke: col, 'stroke-width': 1.5, ...data }, g1);
          sv('line', { x1: TX(b[1]), y1: TY(b[2]), x2: TX(c[1]), y2: TY(c[2]), stroke: col, 'stroke-width': f > 0 ? 3 : 1.5 }, g2);
          sv('circle', { id: 'hook-top-' + (j + 1), cx: TX(b[1]), cy: TY(b[2]), r: 5, fill: st === 3 ? 'none' : col, stroke: col, 'stroke-width': 2, ...data }, g2);
        }
      }
      // top view: UJ, bending joint, head
      sv('polyline', { points: [uj, bend, head].map((p) => TX(p[1]) + ',' + TY(p[2])).join(' '), fill: 'none', stroke: '#1f5fbf', 'stroke-width': 2 }, g2);
      sv('circle', { id: 'head-top', cx: TX(head[1]), cy: TY(head[2]), r: Math.max(G.head_radius * ts, 3), fill: headOn ? RED : '#b9cdf0', stroke: headOn ? RED : '#1f5fbf' }, g2);
      // where the head is drawn, for scripts (page pixels)
      const bb = document.getElementById('head-ld').getBoundingClientRect();
      ld.dataset.head = [bb.left + bb.width / 2, bb.top + bb.height / 2, bb.width / 2].map((v) => v.toFixed(1)).join(',');
      ld.dataset.headContact = headOn ? '1' : '0';
      const box = ld.getBoundingClientRect();
      ld.dataset.box = [box.left, box.top, box.width, box.height].map((v) => v.toFixed(1)).join(',');
    }
    state.listeners.push(drawScene);
    // device states and numbers (spec 001 §4.1: the middle window; the numbers of the top window)
    const panels = el('div', { class: 'panels' }, main);
    const phaseCell = el('div', {}, panels);
    const ph = el('table', { class: 'vals' }, phaseCell);
    el('caption', {}, ph, 'sequencer');
    const phRow = el('tr', {}, ph);
    el('td', {}, phRow, 'phase');
    const phV = el('td', { class: 'v', id: 'phase' }, phRow);
    state.listeners.push((i) => { phV.textContent = phases.length ? phaseAt(T[i]) : (on('capture', i) ? 'captured' : 'free flight'); });
    const A = G.variant === 'A';
    valueTable(panels, 'devices', [
      ['capture', 'capture', 1, ''], ['head–cone contact', 'cone_contact', 1, ''], ['head–socket wall', 'socket_contact', 1, ''],
      ['head–socket bottom', 'bottom_contact', 1, ''], ['latches on stops/slots', 'latch_contact', 1, ''],
      ['limiter contact', 'limiter_contact', 1, ''],
      ['probe stroke', 'stroke', 1], ['stroke rate', 'stroke_rate', 1],
      [A ? 'spring + FrT2 chain force' : 'gear train force', 'axial_f', 1],
      [A ? 'brake slip' : 'FrT1 slip', 'slip1', 1], [A ? '(unused)' : 'FrT2 slip', 'slip2', 1],
      ['lateral spring 1 stroke', 'chain1_s', 1], ['lateral spring 2 stroke', 'chain2_s', 1],
      ['lateral brake 3 angle', 'chain3_s', 1], ['lateral brake 4 angle', 'chain4_s', 1],
      ['lateral spring 1 force', 'chain1_f', 1], ['lateral spring 2 force', 'chain2_f', 1],
      ['drive speed', 'drive_u', 1], ['drive force', 'drive_f', 1], ['drive command', 'drive_cmd', 1, ''],
      ['limiter stroke (XLimD)', 'limiter_x', 1], ['limiter guide force', 'limiter_guide_f', 1],
      ['pads on the cone wall', 'pad_wall_f', 1], ['rollers touching', 'roller_n', 1, ''],
      ['roller 1 force', 'roller_f1', 1], ['roller 2 force', 'roller_f2', 1], ['roller 3 force', 'roller_f3', 1],
      ['pushers force', 'pusher_f', 1], ['pushers touching', 'pusher_n', 1, ''],
      ['docking planes gap', 'plane_gap', 1], ['docking planes force', 'plane_f', 1], ['hatch cover', 'x_cover', 1],
      ['hooks locked', 'hooks_locked', 1, ''], ['hooks 1-2 tension', 'hook_f1', 1], ['hooks 3-4 tension', 'hook_f2', 1],
      ['hooks 5-6 tension', 'hook_f3', 1], ['hooks 7-8 tension', 'hook_f4', 1], ['hook jaw', 'hook_jaw', 1],
      ['docked state unmet (1 hooks, 2 gap, 4 roll, 8 tilt)', 'docked_unmet', 1, ''],
    ], true);
    const d2r = 180 / Math.PI;
    const nums = valueTable(panels, 'numbers', [
      ['rel. x (active port)', 'rel_x', 1], ['rel. y', 'rel_y', 1], ['rel. z', 'rel_z', 1], ['closing speed', 'rel_vx', 1],
      ['rel. roll', 'rel_roll', d2r, 'deg'], ['rel. pitch', 'rel_pitch', d2r, 'deg'], ['rel. yaw', 'rel_yaw', d2r, 'deg'],
      ['housing swing', 'swing', d2r, 'deg'], ['head x (cone frame)', 'head_x', 1],
      ['head force axial', 'head_axial', 1], ['head force lateral', 'head_lateral', 1], ['limiter force', 'limiter_f', 1],
      ['base Fx', 'base_fx', 1], ['base Fy', 'base_fy', 1], ['base Fz', 'base_fz', 1],
      ['base Mx', 'base_mx', 1], ['base My', 'base_my', 1], ['base Mz', 'base_mz', 1],
    ], false);
    // spec 001 §4.1: before capture the probe and head relative to the cone, after it the vehicles' relative motion
    const cap = nums.querySelector('caption');
    state.listeners.push((i) => {
      cap.textContent = on('capture', i) ? 'numbers: after capture, the active vehicle relative to the passive; base loads'
        : 'numbers: before capture, the head and the active port relative to the cone; base loads';
    });
    const defaults = ['head_axial', 'head_lateral', 'limiter_f'].concat(G.process ? ['stroke', 'roller_f1'] : ['stroke']);
    const marks = S.captured ? [{ t: S.capture_time, name: 'capture' }] : [];
    plots(defaults.filter((c) => H.has(c)), phases, marks);
  }

  // ---- beam: the deformed appendage, w(x, t) = sum_i phi_i(x) eta_i(t) from the library's shapes and the run's
  // modal coordinates (--modal), or else sketched from the outputs (tip deflection, attitude, hinge angles) --------
  function beamPage() {
    const G = D.geom, T = H.t, MD = D.modal;
    const hinges = [];
    H.names.forEach((n) => { const m = /^dtheta_(\d+)$/.exec(n); if (m) hinges.push(+m[1]); });
    const Lb = G.from_config ? G.length : 1, r0 = G.from_config ? G.r0 : 0.1;
    const pos = hinges.map((j, k) => G.from_config ? G.hinges[k].position : Lb * (k + 1) / (hinges.length + 1));
    header([['hinges', hinges.length + (G.from_config ? ' (positions from --config)' : ' (drawn equally spaced: no --config)')],
      ['shape', MD ? MD.nm + ' modal coordinates (' + MD.file + ')' : 'sketched from the outputs (no --modal)'],
      ['T final', fmt(T[T.length - 1]) + ' s'], ['GraphStep', kept('every hinge contact onset and peak', '')]]);
    controls(D.events);
    const main = el('div', { class: 'main' }, app);
    const fig = el('figure', {}, el('div', { class: 'scene' }, main));
    const cap = el('figcaption', {}, fig);
    const W = 640, Hh = 300;
    const svg = sv('svg', { id: 'scene-beam', width: W, height: Hh, viewBox: `0 0 ${W} ${Hh}` }, fig);
    // the stations drawn (x from the root, m) and the deflection there at kept row i, m
    let xs, deflection;
    if (MD) {
      xs = MD.x;
      deflection = (i) => MD.phi.map((ph) => { let w = 0; for (let q = 0; q < MD.nm; q++) w += ph[q] * MD.eta[q][i]; return w; });
    } else {
      xs = pos.slice(); for (let q = 0; q <= 60; q++) xs.push(Lb * q / 60);
      xs.sort((a, b) => a - b);
      deflection = (i) => {   // hinge kinks plus the static cantilever curve through w_tip
        let kinks = 0;
        hinges.forEach((j, q) => { kinks += (H.v('dtheta_' + j, i) || 0) * (Lb - pos[q]); });
        const c = (H.v('w_tip', i) || 0) - kinks;
        return xs.map((x) => {
          let w = 0;
          hinges.forEach((j, q) => { if (x > pos[q]) w += (H.v('dtheta_' + j, i) || 0) * (x - pos[q]); });
          const xi = x / Lb;
          return w + c * xi * xi * (3 - xi) / 2;
        });
      };
    }
    let wMax = 1e-12;
    if (MD) for (let i = 0; i < T.length; i++) for (const w of deflection(i)) wMax = Math.max(wMax, Math.abs(w));
    else for (const v of H.data[H.col.w_tip]) wMax = Math.max(wMax, Math.abs(v));
    const k = 0.15 * Lb / wMax, s = (W - 60) / (r0 + Lb) / 1.05;
    cap.textContent = MD
      ? 'the deformed appendage w(x, t) = Σ φ_i(x) η_i(t): ' + MD.nm + ' modal coordinates η_i of the run (' + MD.file +
        '), the model\'s mode shapes φ_i at its ' + xs.length + ' FE nodes (the hinges\' kinks are in the shapes); ' +
        'deflection drawn ×' + fmt(k, 3) + ' (the largest |w| of the run shows as 15 % of the length), the hub turned by θ to scale'
      : 'appendage, deflection ×' + fmt(k, 3) + ': hub turned by θ, kinks Δθ_j at the hinges, the elastic ' +
        'part a cantilever curve through w_tip (a sketch from the outputs, not the modal shape: give mech view --modal)';
    const cx = 40, cy = Hh / 2;
    Object.assign(svg.dataset, { k: String(k), s: String(s), cx: String(cx), cy: String(cy), r0: String(r0) });
    const g = sv('g', {}, svg);
    const near = pos.map((p) => { let b = 0; xs.forEach((x, q) => { if (Math.abs(x - p) < Math.abs(xs[b] - p)) b = q; }); return b; });
    state.listeners.push((i) => {
      g.textContent = '';
      const th = H.v('theta', i) || 0, w = deflection(i);
      const ct = Math.cos(th), st = Math.sin(th);
      const P = (x, v) => [cx + s * (x * ct - v * k * st), cy - s * (x * st + v * k * ct)];
      const hub = [[-r0, -r0], [r0, -r0], [r0, r0], [-r0, r0]].map((p) => [cx + s * (p[0] * ct - p[1] * st), cy - s * (p[0] * st + p[1] * ct)]);
      sv('polygon', { points: hub.map((p) => p.join(',')).join(' '), fill: '#dde4f0', stroke: '#1f5fbf' }, g);
      const pts = xs.map((x, q) => P(r0 + x, w[q]));
      const line = sv('polyline', { id: 'beam-shape', points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: '#1f5fbf', 'stroke-width': 3 }, g);
      line.dataset.theta = String(th);
      line.dataset.row = String(i);
      hinges.forEach((j, q) => {
        const M = H.v('M_' + j, i), p = pts[near[q]];
        const loaded = M !== null && M !== 0;
        sv('circle', { class: 'hinge', 'data-hinge': j, cx: p[0], cy: p[1], r: 6, fill: loaded ? RED : '#aaa', stroke: '#333' }, g);
      });
    });
    el('div', { class: 'legend' }, main).innerHTML = '<span>hinge: <b style="color:' + RED + '">●</b> carries a moment (in contact)</span><span><b style="color:#aaa">●</b> free (inside its clearance)</span>';
    const panels = el('div', { class: 'panels' }, main);
    valueTable(panels, 'numbers', H.names.slice(1).map((n) => [n, n, 1]), true);
    plots(['w_tip', 'theta'].concat(hinges.length ? ['M_' + hinges[0]] : []).filter((c) => H.has(c)), [], []);
  }

  // ---- sweep: the envelope and the table --------------------------------------------------------------------
  function sweepPage() {
    const S = D.summary || {}, cols = D.columns, rows = D.rows;
    const ci = S.capture_fraction || {};
    header([['runs', S.runs], ['ok', S.ok], ['failed', S.failed], ['captured', S.captured],
      ['capture probability', ci.p !== undefined ? fmt(ci.p, 3) + ' (95 %: ' + (ci.ci95 || []).map((v) => fmt(v, 3)).join(' – ') + ')' : '–']]);
    const st = cols.indexOf('status'), cap = cols.indexOf('captured');
    const varied = cols.slice(1, st);
    const main = el('div', { class: 'main' }, app);
    if (varied.length >= 1) {
      const W = 520, Hh = 360, L = 60, B = 40;
      const fig = el('figure', {}, main);
      el('figcaption', {}, fig, 'envelope: ' + varied.slice(0, 2).join(' × ') + ' (● captured, × not captured, ■ failed)');
      const svg = sv('svg', { id: 'envelope', width: W, height: Hh }, fig);
      const xs = rows.map((r) => +r[1]), ys = rows.map((r) => varied.length > 1 ? +r[2] : 0);
      const ext = (a) => { let lo = Math.min(...a), hi = Math.max(...a); if (!(hi > lo)) { lo -= 1; hi += 1; } const p = 0.08 * (hi - lo); return [lo - p, hi + p]; };
      const [x0, x1] = ext(xs), [y0, y1] = ext(ys);
      const X = (v) => L + (v - x0) / (x1 - x0) * (W - L - 10), Y = (v) => Hh - B - (v - y0) / (y1 - y0) * (Hh - B - 10);
      sv('rect', { x: L, y: 10, width: W - L - 10, height: Hh - B - 10, fill: 'none', stroke: '#999' }, svg);
      const lab = (x, y, t, a) => { const e = sv('text', { x, y, 'font-size': 11, 'text-anchor': a || 'middle' }, svg); e.textContent = t; };
      lab((L + W) / 2, Hh - 8, varied[0]);
      if (varied.length > 1) lab(L + 6, 24, '↑ ' + varied[1], 'start');
      [x0, x1].forEach((v) => lab(X(v), Hh - B + 14, fmt(v, 3)));
      [y0, y1].forEach((v) => lab(L - 4, Y(v) + 4, fmt(v, 3), 'end'));
      rows.forEach((r, i) => {
        const x = X(xs[i]), y = Y(ys[i]);
        const a = D.pages[i] ? sv('a', { href: D.pages[i] }, svg) : svg;
        if (r[st] !== 'ok') sv('rect', { x: x - 4, y: y - 4, width: 8, height: 8, fill: '#333' }, a);
        else if (r[cap] === '1') sv('circle', { cx: x, cy: y, r: 5, fill: '#2a8a2a' }, a);
        else { sv('line', { x1: x - 4, y1: y - 4, x2: x + 4, y2: y + 4, stroke: '#666', 'stroke-width': 2 }, a); sv('line', { x1: x - 4, y1: y + 4, x2: x + 4, y2: y - 4, stroke: '#666', 'stroke-width': 2 }, a); }
      });
    }
    const tb = el('table', { class: 'runs', id: 'runs' }, app);
    const hr = el('tr', {}, tb);
    cols.forEach((c) => el('th', {}, hr, c));
    el('th', {}, hr, 'page');
    rows.forEach((r, i) => {
      const tr = el('tr', {}, tb);
      r.forEach((c, k) => el('td', {}, tr, k >= st && k !== st + 1 && c !== '' && isFinite(+c) && k !== cols.length - 1 && /[.eE]/.test(c) ? fmt(+c, 6) : c));
      const td = el('td', {}, tr);
      if (D.pages[i]) el('a', { href: D.pages[i] }, td, 'view');
    });
  }

  if (KIND === 'dock') dockPage();
  else if (KIND === 'beam') beamPage();
  else if (KIND === 'sweep') sweepPage();
  if (H) {
    setTime(H.t[0], true);
    fromHash();
    window.addEventListener('hashchange', fromHash);
  }
  report();
  document.body.dataset.loadMs = String(Math.round(performance.now()));
  document.body.dataset.ready = '1';
})();
