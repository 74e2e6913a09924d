#!/bin/sh
# The Python package installs by itself (docs/python.md "Install", issue 47): in a fresh venv made with
# --system-site-packages over Debian's python3-numpy / -setuptools / -wheel, offline (--no-index):
#   pip install --no-build-isolation ./python; then `cd / && python -c "import hystkit"` with no HYSTKIT_* or
#   LD_LIBRARY_PATH: the package's own copies of libhyst.so.0, libmech.so.0, hyst and mech are used;
#   pip install writes nothing into the source tree;
#   make wheel, and the wheel installed in a second venv;
#   make install PREFIX=$HOME/.local puts the package where python3 looks (the user site-packages);
#   python3 -m pytest python from the top of the tree collects and runs (two quick modules here: the whole suite
#   is tests/e2e/test_python.sh).
# The sanitizer build is skipped: its libraries need the ASan runtime preloaded, which a user's install does not have.
TOP=${TOP:-$(pwd)}
. "$TOP/tests/e2e/lib.sh"
PY=/usr/bin/python3
BUILD=${BUILD:-build}
BIN=${BIN:-bin}
case "$BUILD" in *san*) echo "ok - install test skipped under the sanitizer build # skip"; finish ;; esac
if ! $PY -c 'import venv, setuptools, wheel, pip, numpy' 2>"$WORK/imp"; then
    not_ok "$PY has venv, setuptools, wheel, pip, numpy (scripts/install-deps)"; cat "$WORK/imp"; finish
fi
unset HYSTKIT_LIBDIR HYSTKIT_BINDIR LD_LIBRARY_PATH PYTHONPATH
export PYTHONDONTWRITEBYTECODE=1 PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 HOME="$WORK/home"
mkdir -p "$HOME"
cd "$TOP" || exit 1
# The build this run tests (CI's Clang run is BUILD=build-clang): pip install and the in-place tests take it from
# HYSTKIT_BUILD/HYSTKIT_BIN (setup.py) and HYSTKIT_LIBDIR/HYSTKIT_BINDIR (hystkit._lib); the default tree needs neither
ABS_BUILD=$(cd "$BUILD" && pwd) ABS_BIN=$(cd "$BIN" && pwd)
if [ "$ABS_BUILD" = "$TOP/build" ] && [ "$ABS_BIN" = "$TOP/bin" ]; then
    TREE_ENV=""
else
    TREE_ENV="HYSTKIT_BUILD=$ABS_BUILD HYSTKIT_BIN=$ABS_BIN HYSTKIT_LIBDIR=$ABS_BUILD/lib HYSTKIT_BINDIR=$ABS_BIN"
fi
before=$(git status --porcelain --ignored python 2>/dev/null | sort)

# 1. pip install ./python into a fresh venv
$PY -m venv --system-site-packages "$WORK/venv" >"$WORK/venv.log" 2>&1 || { not_ok "python3 -m venv"; cat "$WORK/venv.log"; finish; }
check "pip install --no-build-isolation ./python (offline)" \
    env $TREE_ENV "$WORK/venv/bin/pip" install -q --no-build-isolation --no-index ./python
site=$("$WORK/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
out=$(cd / && "$WORK/venv/bin/python" -c '
import hystkit as hk, hystkit._lib as L
m = hk.load_model(__import__("sys").argv[1])
print(hk.__file__); print(L.hyst._name); print(L.mech._name); print(hk.find_program("hyst")); print(m.simulate([1.0, 2.0])[1])
' "$TOP/fixtures/models/pwl-constant.json" 2>"$WORK/err")
if [ "$(echo "$out" | sed -n 1p)" = "$site/hystkit/__init__.py" ] && [ "$(echo "$out" | sed -n 2p)" = "$site/hystkit/libhyst.so.0" ] &&
   [ "$(echo "$out" | sed -n 3p)" = "$site/hystkit/libmech.so.0" ] && [ "$(echo "$out" | sed -n 4p)" = "$site/hystkit/bin/hyst" ]; then
    ok "cd / && python -c 'import hystkit': the venv's package, its own libraries and programs"
else
    not_ok "import from the venv (got: $out)"; cat "$WORK/err"
fi
[ -f "$site/hystkit/py.typed" ] && ok "py.typed installed" || not_ok "py.typed installed"
after=$(git status --porcelain --ignored python 2>/dev/null | sort)
[ "$before" = "$after" ] && ok "pip install wrote nothing into python/" || not_ok "pip install wrote into python/: $after"

# 2. make wheel, installed into a second venv
if make -s wheel BUILD="$BUILD" BIN="$BIN" >"$WORK/wheel.log" 2>&1; then
    whl=$(ls "$BUILD"/wheel/hystkit-*.whl)
    unzip -l "$whl" | grep -q 'hystkit/libmech.so.0' && unzip -l "$whl" | grep -q 'hystkit/bin/mech' &&
        ok "make wheel: $(basename "$whl") carries the libraries and programs" || not_ok "wheel contents"
    $PY -m venv --system-site-packages "$WORK/venv2" >/dev/null 2>&1
    check "the wheel installs (offline)" "$WORK/venv2/bin/pip" install -q --no-index "$whl"
    check "import from the wheel's install" sh -c "cd / && '$WORK/venv2/bin/python' -c 'import hystkit; hystkit.load_model(\"$TOP/fixtures/models/bw-basic.json\").simulate([0.1])'"
else
    not_ok "make wheel"; tail -20 "$WORK/wheel.log"
fi

# 3. make install PREFIX=$HOME/.local: the user site of python3
if make -s install BUILD="$BUILD" BIN="$BIN" PREFIX="$HOME/.local" >"$WORK/install.log" 2>&1; then
    got=$(cd / && $PY -c 'import hystkit, hystkit._lib as L; print(hystkit.__file__); print(L.hyst._name)' 2>&1)
    usersite=$($PY -c 'import site; print(site.getusersitepackages())')
    if [ "$(echo "$got" | sed -n 1p)" = "$usersite/hystkit/__init__.py" ] &&
       [ "$(echo "$got" | sed -n 2p)" = "$HOME/.local/lib/libhyst.so.0" ]; then
        ok "make install PREFIX=~/.local: python3 imports it, with the installed libhyst.so.0"
    else
        not_ok "make install PREFIX=~/.local (got: $got)"
    fi
    grep -q "does not look in" "$WORK/install.log" && not_ok "install warned: $(cat "$WORK/install.log")" || ok "no path warning"
else
    not_ok "make install PREFIX=~/.local"; tail -20 "$WORK/install.log"
fi
make -s install BUILD="$BUILD" BIN="$BIN" PREFIX="$WORK/opt" >"$WORK/install2.log" 2>&1
grep -q "does not look in $WORK/opt/lib/python" "$WORK/install2.log" && ok "install into a prefix python3 does not search says so" ||
    not_ok "no note for a prefix off sys.path: $(cat "$WORK/install2.log")"

# 4. python3 -m pytest python from the top
if (cd "$TOP" && env $TREE_ENV HOME="$WORK/home2" "$WORK/venv/bin/python" -m pytest -q -p no:cacheprovider python \
      -k "test_abi or test_loops_equal" >"$WORK/pytest.log" 2>&1); then
    ok "python3 -m pytest python from the top: $(tail -n 1 "$WORK/pytest.log")"
else
    not_ok "python3 -m pytest python from the top"; tail -20 "$WORK/pytest.log"
fi
finish
