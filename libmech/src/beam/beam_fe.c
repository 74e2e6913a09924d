/* Jointed-beam FE model (spec 004 §2): mesh aligned to every hinge, patch end and load point; DOF map with a
 * duplicated rotation at each hinge node; Euler-Bernoulli Hermite elements with consistent mass; lumped hinge mass
 * (eq. 2) and 2x2 rotational hinge spring (eq. 3); the vectors the simulator needs (rigid rotation u_r, tip, load,
 * MFC moment pair, hinge jumps). Dense and banded copies of Mbar and Kbar. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "beam/beam_internal.h"

#define MAX_ELEM 1000

typedef struct brk {
    double x;
    char   name[48];
} brk;

static int cmp_brk(const void *a, const void *b)
{
    double d = ((const brk *)a)->x - ((const brk *)b)->x;
    return d < 0 ? -1 : d > 0;
}

// (params) => HY_OK or an error naming the parameter that is out of range
static int validate(const mech_beam_params *p, hy_err *err)
{
    /* upper bounds far beyond any material or appendage keep the matrices finite (beam.E = 1e308 reached LAPACK as
       "dsygvd failed (info -6)", naming no key) */
    struct { const char *name; double v, max; const char *unit; } pos[] = {
        {"beam.E", p->E, 1e13, "Pa"}, {"beam.rho", p->rho, 1e5, "kg/m^3"}, {"beam.length", p->length, 1e4, "m"},
        {"beam.width", p->width, 1e3, "m"}, {"beam.thickness", p->thickness, 1e3, "m"}, {"hub.J1", p->J1, 1e15,
        "kg m^2"}};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
        if (!(isfinite(pos[i].v) && pos[i].v > 0 && pos[i].v <= pos[i].max))
            return hy_err_set(err, HY_EMODEL, "%s = %g: outside the valid range (0, %g] %s", pos[i].name, pos[i].v,
                              pos[i].max, pos[i].unit);
    if (!(isfinite(p->r0) && p->r0 >= 0))
        return hy_err_set(err, HY_EMODEL, "hub.r0 = %g: expected a number >= 0", p->r0);
    if (p->n_elem < 1 || p->n_elem > MAX_ELEM)
        return hy_err_set(err, HY_EMODEL, "beam.elements = %d: expected 1..%d", p->n_elem, MAX_ELEM);
    if (p->n_modes < 0)
        return hy_err_set(err, HY_EMODEL, "modes.count = %d: expected >= 0 (0: all)", p->n_modes);
    if (p->n_hinges < 0 || p->n_hinges > MECH_BEAM_MAX_HINGES)
        return hy_err_set(err, HY_EMODEL, "hinges: %d hinges, expected 0..%d", p->n_hinges, MECH_BEAM_MAX_HINGES);
    double L = p->length, tol = 1e-9 * L;
    if (!(isfinite(p->load_position) && p->load_position > tol && p->load_position <= L + tol))
        return hy_err_set(err, HY_EMODEL, "load.position = %g: outside the beam (0, %g]", p->load_position, L);
    for (int j = 0; j < p->n_hinges; j++) {
        const mech_beam_hinge *h = &p->hinge[j];
        if (!(isfinite(h->position) && h->position > tol && h->position < L - tol))
            return hy_err_set(err, HY_EMODEL, "hinges[%d].position = %g: outside the beam (0, %g)", j, h->position, L);
        if (!(isfinite(h->k) && h->k > 0))
            return hy_err_set(err, HY_EMODEL, "hinges[%d].k = %g: expected a positive stiffness (N m/rad)", j, h->k);
        if (!(isfinite(h->mass) && h->mass >= 0))
            return hy_err_set(err, HY_EMODEL, "hinges[%d].mass = %g: expected a number >= 0", j, h->mass);
        if (!(isfinite(h->clearance) && h->clearance >= 0))
            return hy_err_set(err, HY_EMODEL, "hinges[%d].clearance = %g: expected a gap >= 0 rad", j, h->clearance);
        if (h->law < MECH_BEAM_DEADZONE_A || h->law > MECH_BEAM_DEADZONE_MODEL)
            return hy_err_set(err, HY_EMODEL, "hinges[%d].law: unknown law %d", j, h->law);
        if ((h->law == MECH_BEAM_MODEL || h->law == MECH_BEAM_DEADZONE_MODEL) && !h->model)
            return hy_err_set(err, HY_EMODEL, "hinges[%d].model: the law needs a hyst-model file", j);
        if (!(isfinite(h->q_scale) && h->q_scale > 0 && isfinite(h->Q_scale) && h->Q_scale > 0))
            return hy_err_set(err, HY_EMODEL, "hinges[%d].model: unit scales must be positive", j);
        if (!(isfinite(h->law_scale) && h->law_scale > 0))
            return hy_err_set(err, HY_EMODEL, "hinges[%d].law_scale = %g: expected a finite scale > 0", j,
                              h->law_scale);
        for (int i = 0; i < j; i++)
            if (fabs(p->hinge[i].position - h->position) <= tol)
                return hy_err_set(err, HY_EMODEL, "hinges[%d].position = %g: hinges[%d] is already there", j,
                                  h->position, i);
    }
    const mech_beam_mfc *f = &p->mfc;
    if (f->enabled) {
        struct { const char *name; double v; } fp[] = {
            {"mfc.length", f->length}, {"mfc.width", f->width}, {"mfc.thickness", f->thickness},
            {"mfc.electrode", f->electrode}, {"mfc.density", f->density}, {"mfc.E1", f->E1}};
        for (size_t i = 0; i < sizeof fp / sizeof fp[0]; i++)
            if (!(isfinite(fp[i].v) && fp[i].v > 0))
                return hy_err_set(err, HY_EMODEL, "%s = %g: expected a positive number", fp[i].name, fp[i].v);
        if (!isfinite(f->e_eff))
            return hy_err_set(err, HY_EMODEL, "mfc.e_eff: expected a finite number");
        if (!(isfinite(f->start) && f->start >= 0 && f->start + f->length <= L + tol))
            return hy_err_set(err, HY_EMODEL, "mfc.start = %g: the patch [%g, %g] is not on the beam [0, %g]",
                              f->start, f->start, f->start + f->length, L);
        for (int j = 0; j < p->n_hinges; j++)
            if (p->hinge[j].position > f->start + tol && p->hinge[j].position < f->start + f->length - tol)
                return hy_err_set(err, HY_EMODEL, "mfc.start = %g: the patch [%g, %g] spans hinges[%d] at %g "
                                  "(a bonded patch cannot cross a hinge)", f->start, f->start, f->start + f->length,
                                  j, p->hinge[j].position);
    }
    return HY_OK;
}

// (m->p) => node positions: every breakpoint a node, segments split into equal elements no longer than l/n_elem
static int mesh(mech_beam_model *m, hy_err *err)
{
    const mech_beam_params *p = &m->p;
    brk b[2 * MECH_BEAM_MAX_HINGES + 8];
    size_t nb = 0;
    b[nb++] = (brk){0, "the root"};
    b[nb++] = (brk){p->length, "the tip"};
    b[nb] = (brk){p->load_position, "load.position"};
    nb++;
    for (int j = 0; j < p->n_hinges; j++) {
        b[nb].x = p->hinge[j].position;
        snprintf(b[nb].name, sizeof b[nb].name, "hinges[%d].position", j);
        nb++;
    }
    if (p->mfc.enabled) {
        b[nb++] = (brk){p->mfc.start, "mfc.start"};
        b[nb++] = (brk){p->mfc.start + p->mfc.length, "mfc.start + mfc.length"};
    }
    qsort(b, nb, sizeof b[0], cmp_brk);
    double h = p->length / p->n_elem, same = 1e-9 * p->length, close = 1e-3 * h;
    size_t nu = 0;
    for (size_t i = 0; i < nb; i++) {
        if (nu > 0 && b[i].x - b[nu - 1].x <= same)
            continue;   /* the same node (a hinge at a patch end, a load at the tip) */
        if (nu > 0 && b[i].x - b[nu - 1].x < close)
            return hy_err_set(err, HY_EMODEL, "%s = %.10g: only %.3g m from %s at %.10g; the mesh cannot put an "
                              "element that short between them (put both on the same point or further apart)",
                              b[i].name, b[i].x, b[i].x - b[nu - 1].x, b[nu - 1].name, b[nu - 1].x);
        b[nu++] = b[i];
    }
    size_t ne = 0;
    for (size_t i = 1; i < nu; i++)
        ne += (size_t)fmax(1.0, ceil((b[i].x - b[i - 1].x) / h - 1e-6));
    if (ne > 2 * MAX_ELEM)
        return hy_err_set(err, HY_EMODEL, "beam.elements: the aligned mesh needs %zu elements (at most %d)", ne,
                          2 * MAX_ELEM);
    m->n_elem = ne;
    m->n_node = ne + 1;
    m->x_node = malloc(m->n_node * sizeof *m->x_node);
    if (!m->x_node)
        return hy_err_set(err, HY_ENOMEM, "beam model: out of memory");
    size_t k = 0;
    for (size_t i = 1; i < nu; i++) {
        size_t ns = (size_t)fmax(1.0, ceil((b[i].x - b[i - 1].x) / h - 1e-6));
        for (size_t s = 0; s < ns; s++)
            m->x_node[k++] = b[i - 1].x + (b[i].x - b[i - 1].x) * (double)s / (double)ns;
    }
    m->x_node[k] = p->length;
    return HY_OK;
}

// (x) => index of the node at x (the mesh has one)
static size_t node_at(const mech_beam_model *m, double x)
{
    size_t best = 0;
    for (size_t i = 1; i < m->n_node; i++)
        if (fabs(m->x_node[i] - x) < fabs(m->x_node[best] - x))
            best = i;
    return best;
}

static void add(mech_beam_model *m, double *A, int i, int j, double v)
{
    if (i >= 0 && j >= 0)
        A[(size_t)i * m->ndof + (size_t)j] += v;
}

int beam_fe_build(mech_beam_model *m, hy_err *err)
{
    const mech_beam_params *p = &m->p;
    int rc = validate(p, err);
    if (rc == HY_OK)
        rc = mesh(m, err);
    if (rc != HY_OK)
        return rc;
    size_t nn = m->n_node;
    m->dof_w = malloc(3 * nn * sizeof(int));
    m->elem_patch = calloc(m->n_elem, sizeof(int));
    if (!m->dof_w || !m->elem_patch)
        return hy_err_set(err, HY_ENOMEM, "beam model: out of memory");
    m->dof_l = m->dof_w + nn;
    m->dof_r = m->dof_l + nn;
    int *hinge_node = calloc(nn, sizeof(int));
    if (!hinge_node)
        return hy_err_set(err, HY_ENOMEM, "beam model: out of memory");
    for (int j = 0; j < p->n_hinges; j++)
        hinge_node[node_at(m, p->hinge[j].position)] = j + 1;
    int next = 0;
    m->dof_w[0] = m->dof_l[0] = m->dof_r[0] = -1;   /* clamped root, spec §2 */
    /* node order w, theta; at a hinge theta_s, w, theta_{s+1}: every element then spans 4 consecutive DOFs, so the
     * half bandwidth stays 3 with hinges (w, theta_s, theta_{s+1} would make it 4) */
    for (size_t i = 1; i < nn; i++) {
        if (hinge_node[i]) {
            m->dof_l[i] = next++;
            m->dof_w[i] = next++;
            m->dof_r[i] = next++;
        } else {
            m->dof_w[i] = next++;
            m->dof_l[i] = m->dof_r[i] = next++;
        }
    }
    size_t n = m->ndof = (size_t)next;
    m->EI = mech_beam_EI(p);
    m->rho1 = p->rho * p->width * p->thickness;
    m->k_ref = mech_beam_k_ref(p);
    m->Mbar = calloc(2 * n * n + 5 * n + (size_t)p->n_hinges * n, sizeof(double));
    if (!m->Mbar) {
        free(hinge_node);
        return hy_err_set(err, HY_ENOMEM, "beam model: out of memory (%zu DOFs)", n);
    }
    m->Kbar = m->Mbar + n * n;
    m->ur = m->Kbar + n * n;
    m->e_tip = m->ur + n;
    m->e_load = m->e_tip + n;
    m->e_u = m->e_load + n;
    m->h_phys = m->e_u + n;
    m->e_dphi = m->h_phys + n;
    /* MFC patch: two patches, top and bottom (spec §5), optional added mass and bending stiffness */
    double pa = p->mfc.start, pb = p->mfc.start + p->mfc.length, tol = 1e-9 * p->length;
    double dEI = 0, drho = 0;
    if (p->mfc.enabled && p->mfc.add_structure) {
        double tp = p->mfc.thickness, bp = p->mfc.width, arm = 0.5 * (p->thickness + tp);
        dEI = 2 * p->mfc.E1 * bp * (tp * tp * tp / 12 + tp * arm * arm);
        drho = 2 * p->mfc.density * bp * tp;
    }
    /* J = J1 + u_r' Mbar u_r and h = Mbar u_r are summed element by element, so that the clamped root's share of
     * the first element (its DOFs are not unknowns, but it moves with the hub) is counted: H = rho1 int (r0 + x) Phi */
    m->J = p->J1;
    for (size_t e = 0; e < m->n_elem; e++) {
        double xa = m->x_node[e], xb = m->x_node[e + 1], L = xb - xa;
        int in = p->mfc.enabled && xa >= pa - tol && xb <= pb + tol;
        m->elem_patch[e] = in;
        double EI = m->EI + (in ? dEI : 0), r1 = m->rho1 + (in ? drho : 0);
        int d[4] = {m->dof_w[e], m->dof_r[e], m->dof_w[e + 1], m->dof_l[e + 1]};
        double k = EI / (L * L * L), c = r1 * L / 420.0;
        double Ke[4][4] = {{12 * k, 6 * L * k, -12 * k, 6 * L * k},
                           {6 * L * k, 4 * L * L * k, -6 * L * k, 2 * L * L * k},
                           {-12 * k, -6 * L * k, 12 * k, -6 * L * k},
                           {6 * L * k, 2 * L * L * k, -6 * L * k, 4 * L * L * k}};
        double Me[4][4] = {{156 * c, 22 * L * c, 54 * c, -13 * L * c},
                           {22 * L * c, 4 * L * L * c, 13 * L * c, -3 * L * L * c},
                           {54 * c, 13 * L * c, 156 * c, -22 * L * c},
                           {-13 * L * c, -3 * L * L * c, -22 * L * c, 4 * L * L * c}};
        /* rigid rotation of the element about the hub axis, root DOFs included: w = r0 + x, w' = 1 (spec §3) */
        double ue[4] = {p->r0 + xa, 1, p->r0 + xb, 1};
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) {
                add(m, m->Kbar, d[a], d[b], Ke[a][b]);
                add(m, m->Mbar, d[a], d[b], Me[a][b]);
                if (d[a] >= 0)
                    m->h_phys[d[a]] += Me[a][b] * ue[b];
                m->J += ue[a] * Me[a][b] * ue[b];
            }
    }
    for (int j = 0; j < p->n_hinges; j++) {
        size_t i = node_at(m, p->hinge[j].position);
        int l = m->dof_l[i], r = m->dof_r[i];
        double k = p->hinge[j].k;
        add(m, m->Mbar, m->dof_w[i], m->dof_w[i], p->hinge[j].mass);   /* eq. 2 */
        m->h_phys[m->dof_w[i]] += p->hinge[j].mass * (p->r0 + m->x_node[i]);
        m->J += p->hinge[j].mass * (p->r0 + m->x_node[i]) * (p->r0 + m->x_node[i]);
        add(m, m->Kbar, l, l, k);                                        /* eq. 3 */
        add(m, m->Kbar, r, r, k);
        add(m, m->Kbar, l, r, -k);
        add(m, m->Kbar, r, l, -k);
        m->e_dphi[(size_t)j * n + (size_t)r] = 1;    /* dtheta_j = theta_{s+1} - theta_s */
        m->e_dphi[(size_t)j * n + (size_t)l] = -1;
    }
    free(hinge_node);
    /* rigid rotation of the whole appendage about the hub axis: w = r0 + x, every rotation 1 (spec §3) */
    for (size_t i = 1; i < nn; i++) {
        m->ur[m->dof_w[i]] = p->r0 + m->x_node[i];
        m->ur[m->dof_l[i]] = 1;
        m->ur[m->dof_r[i]] = 1;
    }
    m->tip_dof = m->dof_w[nn - 1];
    m->load_dof = m->dof_w[node_at(m, p->load_position)];
    m->e_tip[m->tip_dof] = 1;
    m->e_load[m->load_dof] = 1;
    if (p->mfc.enabled) {
        /* equivalent moment pair per volt (spec §5): Mp = e_eff (U / De) b t (h + t); the root end acts on the
         * rotation on the patch side of the node, the outer end on the rotation before it */
        double Mp = p->mfc.e_eff * p->mfc.width * p->mfc.thickness * (p->thickness + p->mfc.thickness) /
                    p->mfc.electrode;
        int da = m->dof_r[node_at(m, pa)], db = m->dof_l[node_at(m, pb)];
        if (da >= 0)
            m->e_u[da] -= Mp;
        m->e_u[db] += Mp;
    }
    /* band storage, LAPACK upper ('U', column-major): ab[kd + i - j + j (kd + 1)] = A(i, j), j - kd <= i <= j */
    size_t kd = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if ((m->Kbar[i * n + j] != 0 || m->Mbar[i * n + j] != 0) && j - i > kd)
                kd = j - i;
    m->kd = kd;
    m->Mband = calloc(2 * (kd + 1) * n, sizeof(double));
    if (!m->Mband)
        return hy_err_set(err, HY_ENOMEM, "beam model: out of memory");
    m->Kband = m->Mband + (kd + 1) * n;
    for (size_t j = 0; j < n; j++)
        for (size_t i = j > kd ? j - kd : 0; i <= j; i++) {
            m->Mband[kd + i - j + j * (kd + 1)] = m->Mbar[i * n + j];
            m->Kband[kd + i - j + j * (kd + 1)] = m->Kbar[i * n + j];
        }
    return HY_OK;
}
