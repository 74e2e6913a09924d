#!/bin/sh
# make install PREFIX=...: programs, libraries, headers and a pkg-config file that a user's program builds with.
. "$TOP/tests/e2e/lib.sh"

case "${BUILD:-build}" in
*san*) echo "# skipped under the sanitizer build (the installed library would carry ASan)"; finish ;;
esac
P=$WORK/prefix
expect() { n=$1; shift; if "$@"; then ok "$n"; else not_ok "$n"; fi; }
check "make install PREFIX=..." make -s -C "$TOP" install PREFIX="$P" BUILD="${BUILD:-build}" BIN="$BIN"
for f in bin/hyst bin/mech lib/libhyst.a lib/libhyst.so lib/libmech.a include/hyst/model.h include/hyst/pwl.h \
         include/mech/ode.h lib/pkgconfig/hyst.pc; do
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
finish
