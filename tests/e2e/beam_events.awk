# (every-step time response CSV, nh hinges, clearance c) => the rows outputs.events "only" must hold: the first and
# last rows, each row where a hinge's |dtheta_j| > c changes, each row before a hinge's dtheta_j reverses
BEGIN { FS = "," }
NR <= 2 { print; next }
{
    line[NR] = $0; keep[NR] = 0
    for (j = 1; j <= nh; j++) {
        q = $(5 + 2 * (j - 1)) + 0; a = q < 0 ? -q : q; touch = a > c
        if (NR > 3) {
            if (touch != tc[j]) keep[NR] = 1
            d = q > ql[j] ? 1 : (q < ql[j] ? -1 : 0)
            if (d != 0) { if (dir[j] != 0 && d != dir[j]) keep[NR - 1] = 1; dir[j] = d }
        }
        tc[j] = touch; ql[j] = q
    }
    last = NR
}
END { keep[3] = 1; keep[last] = 1; for (i = 3; i <= last; i++) if (keep[i]) print line[i] }
