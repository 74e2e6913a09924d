"""Variant C's movable limiter against the two cones: the housing tilt at which it first touches (docs/rp2-parameters.md
§11; used by scripts/rp2-study-c.py, checked against a brute-force 3-D search by tests/e2e/rp2_ctouch_check.py).

After capture the housing turns about the head centre in the socket (docs/rp2-parameters.md §11.1). The limiter is a
frustum on the housing axis (dock_params.c, variant C: larger base radius R0 = 0.28 m at geometry.limiter_x0 from the
universal joint, smaller base R1 = 0.23 m 8 cm further towards the head); the head centre is HL - stroke = 1.25 m -
stroke from the UJ (B's and C's housing 0.70 m + probe 0.55 m), so the larger base is l0 = HL - stroke - x0 from the
pivot. Both cones have the same 30 deg wall (spec 001 §2.2, RP-1 §2.2): the module cone from its rim (0.40 m) in the
passive docking plane, the short cone from its rim (0.30 m) 0.17 m behind it, 1.8 mm inside the module cone's wall.

By symmetry the frustum first meets a cone coaxial with the pivot in the tilt plane, on the side the housing leans
to: there the outer generatrix runs from F = (l0 - 0.08, R1) to B = (l0, R0) (distance from the pivot along the
axis, radius), and a point (l, r) of it sits at depth d = z_h - l cos t + r sin t below the passive docking plane
and at x = l sin t + r cos t from the cone axis (t the housing's tilt in the cone, z_h the head centre's depth). As in
the simulation (dock_geom.c: the pads, sectors of the frustum, against the rim circle; dock_model.c: points on the
larger base's edge against the wall) it touches when B is below the rim and beyond the wall (x > R_rim - (d - d_rim)
tan alpha), or when the rim's point on that side lies inside the section F, B, and their mirror images across the
axis (the rim inside the frustum).
touch_tilt() is the smallest t at which one of the two holds; touches_pose() is the same contact in 3-D for any pose
(the head off the axis, the pads), first_touch() replays a run's poses with it.
"""
import math

DEG = math.pi / 180
ALPHA = 30 * DEG                     # both cones' half-angle (dock_params.c)
CONES = {"module": (0.40, 0.0), "short": (0.30, 0.17)}   # rim radius, rim depth behind the passive docking plane
R0, R1, LEN = 0.28, 0.23, 0.08       # the limiter's larger and smaller base radius, their distance (DOCK_C_*)
HL = 1.25                            # UJ to head centre at zero stroke, B and C (housing 0.70 m + probe 0.55 m)


def touches(t, x0, cone, z_h, stroke):
    """True when the limiter at forward position x0 (m from the UJ), the housing tilted t (rad) about the head centre
    at depth z_h (m) with the probe stroke `stroke` (m), meets the cone's wall or rim (tilt-plane section)"""
    R, d_rim = CONES[cone]
    ta = math.tan(ALPHA)
    l0 = HL - stroke - x0
    ct, st = math.cos(t), math.sin(t)

    def xd(l, r):       # a point of the section (r < 0 on the far side): (distance from the cone axis, depth)
        return l * st + r * ct, z_h - l * ct + r * st
    xb, db = xd(l0, R0)
    if db >= d_rim and xb > R - (db - d_rim) * ta:
        return True
    # the rim point on the near side inside the section F+ B+ B- F- (a convex quadrilateral, in order)
    quad = [xd(l0 - LEN, R1), xd(l0, R0), xd(l0, -R0), xd(l0 - LEN, -R1)]
    sides = [(q[0] - p[0]) * (d_rim - p[1]) - (q[1] - p[1]) * (R - p[0]) for p, q in zip(quad, quad[1:] + quad[:1])]
    return all(v > 0 for v in sides) or all(v < 0 for v in sides)


def touch_tilt(x0, cone, z_h, stroke, hi=40 * DEG):
    """The smallest housing tilt (rad) at which the limiter touches (0 if it already does upright; hi if not below
    it): a scan in 0.05 deg steps, then bisection to 1e-9 rad"""
    if touches(0.0, x0, cone, z_h, stroke):
        return 0.0
    step = 0.05 * DEG
    a = 0.0
    while a < hi:
        b = min(a + step, hi)
        if touches(b, x0, cone, z_h, stroke):
            while b - a > 1e-9:
                m = 0.5 * (a + b)
                if touches(m, x0, cone, z_h, stroke):
                    b = m
                else:
                    a = m
            return b
        a = b
    return hi


PADS, PAD_HALF = 4, 30 * DEG         # the pads: sectors of the frustum centred at 0, 90, 180, 270 deg (dock_geom.c)


def touches_pose(c0, a, cone, n_az=720, pads=True):
    """The same contact in 3-D for any pose, as the simulation has it (dock_geom.c, dock_model.c): c0 the larger base's
    centre in the cone frame (x along the cone axis towards the active vehicle, 0 in the passive docking plane: depth
    = -x), a the unit housing axis from the larger base towards the head (pose.csv's hax). True when a point of the
    rim circle lies inside the frustum, or a point of the larger base's edge is below the rim and beyond the wall;
    with pads, only on a pad (the housing's roll taken as the cone frame's: its y axis the cone's y made normal to a).
    n_az points on the rim circle and on the edge. Without pads and with the head on the cone axis it is touches()"""
    R, d_rim = CONES[cone]
    ta = math.tan(ALPHA)
    ya = a[1]
    e1 = _unit((-ya * a[0], 1.0 - ya * a[1], -ya * a[2]))    # the housing's y: the cone's y normal to the axis
    e2 = _cross(e1, a)
    sector = 2 * math.pi / PADS

    def on_pad(ph):
        return not pads or abs((ph + 0.5 * sector) % sector - 0.5 * sector) <= PAD_HALF
    for k in range(n_az):
        ph = 2 * math.pi * k / n_az
        # the rim circle's point against the frustum solid
        P = (-d_rim, R * math.cos(ph), R * math.sin(ph))
        v = tuple(p - c for p, c in zip(P, c0))
        la = sum(p * q for p, q in zip(v, a))
        if 0 <= la <= LEN:
            w = tuple(p - la * q for p, q in zip(v, a))
            rho = math.sqrt(sum(p * p for p in w))
            if rho < R0 - (R0 - R1) * la / LEN and on_pad(math.atan2(sum(p * q for p, q in zip(w, e2)),
                                                               sum(p * q for p, q in zip(w, e1))) % (2 * math.pi)):
                return True
        # the larger base's edge point against the wall
        if not on_pad(ph):
            continue
        B = tuple(c + R0 * (math.cos(ph) * p + math.sin(ph) * q) for c, p, q in zip(c0, e1, e2))
        x, d = math.hypot(B[1], B[2]), -B[0]
        if d >= d_rim and x > R - (d - d_rim) * ta:
            return True
    return False


def first_touch(poses, x0, x0_ref, cone, n_az=360):
    """Replay of a run's poses [(t, c0, a)] (pose.csv of a run with the limiter at x0_ref, up to its first touch: until
    then the limiter's position does not change the motion): the first time a limiter at x0 would touch, or None"""
    for t, c0, a in poses:
        c = tuple(p + (x0 - x0_ref) * v for p, v in zip(c0, a))
        if touches_pose(c, a, cone, n_az):
            return t
    return None


def _cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _unit(u):
    n = math.sqrt(sum(x * x for x in u))
    return tuple(x / n for x in u)
