#!/bin/sh
# The Python package (python/hystkit, docs/python.md): pytest over python/tests with Debian's python3 (the one with
# python3-numpy and python3-pytest; a python3 earlier on PATH may lack them), against this build's shared libraries.
# Each pytest result becomes an "ok" / "not ok" line for scripts/run-tests; pytest's own summary line is printed
# last. Any non-zero exit of pytest fails, including 5 (no tests collected). Under the sanitizer build the ASan
# runtime is preloaded (python3 itself is not instrumented), leaks not reported (the interpreter's own
# allocations at exit are not ours: detect_leaks=0 is appended to any ASAN_OPTIONS given, as CI gives
# detect_leaks=1).
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
PY=${PYTHON:-/usr/bin/python3}
BUILD=${BUILD:-build}
case "$BUILD" in /*) LIBDIR=$BUILD/lib ;; *) LIBDIR=$TOP/$BUILD/lib ;; esac
[ "$BUILD" = build ] && BIN=${BIN:-bin} || BIN=${BIN:-$BUILD/bin}   # the Makefile's defaults
case "$BIN" in /*) ;; *) BIN=$TOP/$BIN ;; esac

if ! "$PY" -c 'import numpy, pytest' 2>"$WORK/imp"; then
    not_ok "$PY has numpy and pytest (scripts/install-deps: python3-numpy python3-pytest)"; cat "$WORK/imp"; finish
fi
preload=""
case "$BUILD" in
*san*)
    for l in asan ubsan; do
        p=$(${CC:-cc} -print-file-name=lib$l.so)
        [ -e "$p" ] && preload="$preload${preload:+:}$p"
    done
    echo "# sanitizer build: LD_PRELOAD=$preload ASAN_OPTIONS=detect_leaks=0"
    ;;
esac
cd "$TOP/python" || exit 1
LD_PRELOAD=$preload ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1} \
HYSTKIT_LIBDIR=$LIBDIR HYSTKIT_BINDIR=$BIN TOP=$TOP BIN=$BIN OPENBLAS_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE=1 \
    "$PY" -m pytest -v -rs -p no:cacheprovider tests >"$WORK/log" 2>&1
rc=$?
sed -n 's/^\(tests\/[^ ]*\) PASSED.*/ok - \1/p; s/^\(tests\/[^ ]*\) \(FAILED\|ERROR\).*/not ok - \1/p' "$WORK/log"
if [ "$rc" -ne 0 ]; then
    not_ok "pytest exit status $rc (5: no tests collected)"
    tail -n 60 "$WORK/log"
fi
grep -E '^=+ .*(passed|failed|error|no tests ran).* =+$' "$WORK/log" | tail -n 1 | sed 's/^/# pytest: /'
finish
