"""Soak of interrupted dock runs (issue 19), driven by tests/e2e/test_mech_hardening.sh: RUNS short S2 runs into a
few folders, most of them stopped by SIGINT or SIGTERM at a random moment. After each: the status is 0 or the
signal's, no temporary file, lock or gnuplot script is left, and every output present parses completely (JSON
loads, each CSV row has the header's field count of finite numbers, each PNG has its signature).
usage: soak_dock.py MECH SCENARIO WORKDIR RUNS SEED"""
import glob, json, math, os, random, signal, subprocess, sys, time

mech, scenario, work, runs, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)
tmpdir = os.path.join(work, "tmp")
os.makedirs(tmpdir, exist_ok=True)
env = dict(os.environ, TMPDIR=tmpdir, HYST_PROGRESS="0")
problems, stats = [], {"ok": 0, "SIGINT": 0, "SIGTERM": 0}


def check_csv(path):
    with open(path) as f:
        lines = f.read().split("\n")
    if lines[-1] != "":
        return "last line not terminated"
    lines = lines[:-1]
    if len(lines) < 2:
        return "no header and units rows"
    n = len(lines[0].split(","))
    for k, line in enumerate(lines[2:], 3):
        cells = line.split(",")
        if len(cells) != n:
            return "line %d: %d fields, expected %d" % (k, len(cells), n)
        for c in cells:
            if not math.isfinite(float(c)):
                return "line %d: %s" % (k, c)
    return None


def check_folder(d):
    for p in sorted(os.listdir(d)):
        full = os.path.join(d, p)
        if ".tmp" in p or p.startswith(".hystkit-lock"):
            return "left behind: " + p
        try:
            if p.endswith(".json"):
                json.load(open(full))
            elif p.endswith(".csv"):
                e = check_csv(full)
                if e:
                    return p + ": " + e
            elif p.endswith(".png"):
                if open(full, "rb").read(8) != b"\x89PNG\r\n\x1a\n":
                    return p + ": not a PNG"
        except Exception as ex:  # a file that does not parse
            return "%s: %s" % (p, ex)
    return None


t_full = None
for i in range(runs):
    d = os.path.join(work, "out%d" % (i % 3))
    plots = i % 10 == 0
    args = [mech, "dock", scenario, "--out", d, "--duration", "0.6", "--step", "1e-3", "-q"]
    if not plots:
        args.append("--no-plots")
    t0 = time.monotonic()
    p = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sig = None
    if i % 4 != 3:  # three runs in four are interrupted
        sig = rng.choice([signal.SIGINT, signal.SIGTERM])
        time.sleep(rng.uniform(0, 1.2 * (t_full or 0.5) * (4 if plots else 1)))
        p.send_signal(sig)
    err = p.communicate()[1].decode(errors="replace")
    if sig is None and not plots:
        t_full = time.monotonic() - t0
    rc = p.returncode
    if rc == 0:
        stats["ok"] += 1
    elif sig is not None and rc == -sig:
        stats[signal.Signals(sig).name] += 1
    else:
        problems.append("run %d: exit %s: %s" % (i, rc, err.strip()[:200]))
    e = check_folder(d)
    if e:
        problems.append("run %d (%s): %s" % (i, d, e))
    left = glob.glob(os.path.join(tmpdir, "*"))
    if left:
        problems.append("run %d: left in TMPDIR: %s" % (i, left))
        for f in left:
            os.unlink(f)
print("# soak: %d runs: %s" % (runs, stats))
for p in problems[:10]:
    print("#   " + p)
sys.exit(1 if problems else 0)
