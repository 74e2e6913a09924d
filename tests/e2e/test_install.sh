#!/bin/sh
# make install PREFIX=...: programs, libraries, headers and a pkg-config file that a user's program builds with.
. "$TOP/tests/e2e/lib.sh"

case "${BUILD:-build}" in
*san*) echo "# skipped under the sanitizer build (the installed library would carry ASan)"; finish ;;
esac
P=$WORK/prefix
PYV=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo 3)
expect() { n=$1; shift; if "$@"; then ok "$n"; else not_ok "$n"; fi; }
check "make install PREFIX=..." make -s -C "$TOP" install PREFIX="$P" BUILD="${BUILD:-build}" BIN="$BIN"
for f in bin/hyst bin/mech lib/libhyst.a lib/libhyst.so lib/libmech.a include/hyst/model.h include/hyst/pwl.h \
         include/mech/ode.h lib/pkgconfig/hyst.pc lib/libhyst.so.0 lib/libhyst.so.0.1.0 lib/libmech.so lib/libmech.so.0 \
         lib/libmech.so.0.1.0 lib/pkgconfig/mech.pc lib/python$PYV/dist-packages/hystkit/__init__.py; do
    expect "installed $f" test -e "$P/$f"
done
check "installed hyst runs" "$P/bin/hyst" version
cat > "$WORK/use.c" <<'C'
#include <stdio.h>
#include <hyst/model.h>
#include <hyst/element.h>
int main(int argc, char **argv)
{
    hy_model m; hy_element e; hy_err err; hy_diag d; double Q, k;
    if (argc < 2 || hy_model_read(argv[1], &m, &err) != HY_OK || hy_model_element(&m, &e, &err) != HY_OK)
        return 1;
    for (int i = 0; i <= 4; i++) {
        if (hy_element_trial(&e, 0.5 * i, 1.0, &Q, &k, &d) != HY_OK) return 1;
        hy_element_commit(&e);
        printf("%g\n", Q);
    }
    hy_element_free(&e); hy_model_free(&m);
    return 0;
}
C
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
check "a user's program builds with pkg-config --static hyst" \
    sh -c "cc -o '$WORK/use' '$WORK/use.c' -L'$P/lib' -Wl,-Bstatic -lhyst -Wl,-Bdynamic \$(pkg-config --cflags --libs-only-other --static hyst) \$(pkg-config --libs --static hyst | sed 's/-lhyst//')"
expect "it evaluates the pwl-constant table: 0 0 1 2 3" test "$("$WORK/use" "$TOP/fixtures/models/pwl-constant.json" | tr '\n' ' ')" = "0 0 1 2 3 "

# ---- shared libraries: sonames, only the public headers' names exported, a program linked against them ----
for l in hyst mech; do
    expect "lib$l.so has the soname lib$l.so.0" sh -c "objdump -p '$P/lib/lib$l.so' | grep -q 'SONAME *lib$l.so.0\$'"
    nm -D --defined-only "$P/lib/lib$l.so" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u >"$WORK/$l.syms"
    cat "$P/include/$l"/*.h >"$WORK/$l.h"
    bad=$(while read -r s; do grep -Eq "\b$s *[(\[;]" "$WORK/$l.h" || echo "$s"; done <"$WORK/$l.syms" | head -5)
    expect "lib$l.so exports only names declared in include/$l ($(wc -l <"$WORK/$l.syms") symbols${bad:+; not declared: $bad})" \
        test -z "$bad"
    expect "lib$l.so exports more than 100 names" test "$(wc -l <"$WORK/$l.syms")" -gt 100
done
expect "an internal helper (hy_loops_curve_alloc) is not exported" sh -c "! grep -qx hy_loops_curve_alloc '$WORK/hyst.syms'"
expect "... though the static library has it" sh -c "nm '$P/lib/libhyst.a' | grep -q ' T hy_loops_curve_alloc'"
cat > "$WORK/usemech.c" <<'C'
#include <stdio.h>
#include <hyst/common.h>
#include <mech/dock.h>
int main(void)
{
    printf("%s %s %d\n", mech_dock_element_name(MECH_DOCK_EL_AXIAL), hy_status_name(HY_EPARSE),
           mech_dock_channel_find("stroke") == MECH_DOCK_CH_STROKE);
    return 0;
}
C
check "a user's program links libmech.so and libhyst.so with pkg-config mech" \
    sh -c "cc -o '$WORK/usemech' '$WORK/usemech.c' \$(pkg-config --cflags --libs mech)"
expect "it runs against the installed shared libraries" \
    test "$(LD_LIBRARY_PATH="$P/lib" "$WORK/usemech")" = "axial parse error 1"
expect "it needs them (not linked statically)" sh -c "ldd '$WORK/usemech' | grep -q 'libmech.so.0'"

# ---- the Python package installed beside them finds them (no HYSTKIT_LIBDIR) ----
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    out=$(cd "$WORK" && env -u HYSTKIT_LIBDIR PYTHONPATH="$P/lib/python$PYV/dist-packages" /usr/bin/python3 -c \
        'import hystkit, hystkit._lib as L; print(L._find("hyst"), hystkit.load_model("'"$TOP"'/fixtures/models/pwl-constant.json").simulate([0.5, 1, 1.5, 2]).tolist())')
    expect "installed hystkit loads the installed libhyst.so.0 and evaluates the table" \
        test "$out" = "$P/lib/libhyst.so.0 [0.0, 1.0, 2.0, 3.0]"
fi
finish
