// Iwan model internals shared by iwan_*.c (docs/iwan-model.md).
#ifndef HY_IWAN_INTERNAL_H
#define HY_IWAN_INTERNAL_H

#include "hyst/iwan.h"

struct hy_iwan_model {
    int              form;   /* enum hy_iwan_form                                                          */
    int              n;
    double           k_inf;
    hy_iwan_segalman seg;    /* the parameters when form == HY_IWAN_SEGALMAN                               */
    double          *k;      /* n stiffnesses                                                              */
    double          *f;      /* n slip forces                                                              */
    double          *phi;    /* n slip deflections f_i / k_i                                               */
};

#endif
