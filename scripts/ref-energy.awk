# Independent reference for `hyst loops` (used by tests/e2e/test_loops.sh): energies of a force-displacement
# record computed with plain awk, sharing no code with libhyst.
#
#   awk -F, -v q=COL -v Q=COL [-v qscale=F] [-v Qscale=F] [-v ranges="L0:L1,L0:L1,..."] -f scripts/ref-energy.awk FILE
#
# q, Q     1-based columns of displacement and force; lines whose two cells are not both numbers are skipped
#          (header, units row, comments)
# ranges   cycles given by their first and last FILE line numbers (as `hyst loops --cycles-csv` reports them
#          in start_line,end_line)
# Prints   "total E"  the open-path trapezoid integral of Q dq over the whole record, then for each range
#          "cycle K L0 L1 E" with E the closed-path integral: the trapezoid from L0 to L1 plus the straight
#          segment from the point of L1 back to the point of L0 (the area enclosed, positive clockwise).
function isnum(s) { return s ~ /^[ \t]*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?[ \t\r]*$/ }
BEGIN {
    if (q == "" || Q == "") { print "ref-energy.awk: set -v q=COL -v Q=COL" > "/dev/stderr"; exit 2 }
    if (qscale == "") qscale = 1
    if (Qscale == "") Qscale = 1
    n = 0; total = 0
}
{
    if (!isnum($q) || !isnum($Q)) next
    x = $q * qscale; y = $Q * Qscale
    if (n > 0) total += 0.5 * (y + py) * (x - px)
    n++; line[n] = NR; xs[NR] = x; ys[NR] = y
    px = x; py = y
}
END {
    if (n == 0) { print "ref-energy.awk: no numeric rows" > "/dev/stderr"; exit 1 }
    printf "total %.17g\n", total
    m = split(ranges, r, ",")
    for (k = 1; k <= m; k++) {
        split(r[k], b, ":"); l0 = b[1] + 0; l1 = b[2] + 0
        if (!(l0 in xs) || !(l1 in xs)) { printf "ref-energy.awk: range %s: not a data line\n", r[k] > "/dev/stderr"; exit 1 }
        e = 0; have = 0
        for (i = 1; i <= n; i++) {
            L = line[i]
            if (L < l0 || L > l1) continue
            if (have) e += 0.5 * (ys[L] + ys[prev]) * (xs[L] - xs[prev])
            prev = L; have = 1
        }
        e += 0.5 * (ys[l0] + ys[l1]) * (xs[l0] - xs[l1])
        printf "cycle %d %d %d %.17g\n", k, l0, l1, e
    }
}
