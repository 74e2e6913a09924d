# Shared helpers for end-to-end tests of the programs. Source it: . tests/e2e/lib.sh
# Each check prints "ok - NAME" or "not ok - NAME"; scripts/run-tests counts them.
# Environment from the runner: HYST, MECH, BIN, FIXTURES, TOP.
set -u
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
_fail=0

# The build under test for Python (the repository's scripts and tests `import hystkit` from python/): its libraries
# and programs, whatever BUILD and BIN are (CI's Clang and sanitizer runs have no build/ to fall back on). py_run CMD...
# runs a Python program with them; under the sanitizer build with the ASan/UBSan runtime preloaded (python3 itself is
# not instrumented) and leaks not reported (the interpreter's own), as tests/e2e/test_python.sh does.
case "${BUILD:-build}" in /*) _hk_lib=${BUILD}/lib ;; *) _hk_lib=${TOP:-$(pwd)}/${BUILD:-build}/lib ;; esac
export HYSTKIT_LIBDIR="${HYSTKIT_LIBDIR:-$_hk_lib}" HYSTKIT_BINDIR="${HYSTKIT_BINDIR:-${BIN:-${TOP:-$(pwd)}/bin}}"
_hk_preload=""
case "${BUILD:-build}" in
*san*) for _l in asan ubsan; do
           _p=$(${CC:-cc} -print-file-name=lib$_l.so)
           [ -e "$_p" ] && _hk_preload="$_hk_preload${_hk_preload:+:}$_p"
       done ;;
esac
py_run() {
    if [ -n "$_hk_preload" ]; then
        LD_PRELOAD=$_hk_preload ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$@"
    else
        "$@"
    fi
}

ok()     { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; _fail=1; }

# check NAME CMD...: passes when CMD exits 0
check() { n=$1; shift; if "$@" >"$WORK/.out" 2>"$WORK/.err"; then ok "$n"; else not_ok "$n"; sed 's/^/    /' "$WORK/.err" | head -20; fi; }

# check_fails NAME PATTERN CMD...: passes when CMD exits non-zero and its stderr matches PATTERN (grep -E)
check_fails() {
    n=$1; pat=$2; shift 2
    if "$@" >"$WORK/.out" 2>"$WORK/.err"; then not_ok "$n (exited 0)"; return; fi
    if grep -Eq -- "$pat" "$WORK/.err"; then ok "$n"; else not_ok "$n (stderr did not match '$pat')"; sed 's/^/    /' "$WORK/.err" | head -5; fi
}

# check_num NAME ACTUAL EXPECTED RELTOL: |actual-expected| <= reltol*|expected| (absolute when expected is 0)
check_num() {
    if awk -v a="$2" -v e="$3" -v r="$4" 'BEGIN{d=a-e; if(d<0)d=-d; s=(e<0?-e:e); if(s==0)s=1; exit !(d<=r*s)}'; then
        ok "$1"; else not_ok "$1 (got $2, expected $3 within $4)"; fi
}

finish() { exit $_fail; }
