"""Packaging of hystkit (metadata in pyproject.toml). The wheel carries the shared libraries and the programs of
the build it is made from, so that `import hystkit` needs no environment variable (docs/python.md "Install"):

    hystkit/libhyst.so.0, hystkit/libmech.so.0   (libmech finds libhyst beside itself: its RUNPATH is $ORIGIN)
    hystkit/bin/hyst, hystkit/bin/mech            (fit_bw, fit_iwan, fit_all and run_sweep run them)

taken from the source tree's build/lib and bin/ (`make` first), or from the tree named by HYSTKIT_BUILD and
HYSTKIT_BIN (`make wheel BUILD=... BIN=...` passes them). They link Debian's runtime libraries (OpenBLAS, GSL,
cJSON, ...: scripts/install-deps), so the wheel is tagged for this platform (linux_x86_64), not manylinux.
setuptools' own build and egg-info folders go to a temporary folder: `pip install ./python` writes nothing into
the source tree."""
import os
import shutil
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
TOP = HERE.parent
LIBS = ("libhyst.so.0", "libmech.so.0")
PROGRAMS = ("hyst", "mech")


def _tree(var, default):
    p = Path(os.environ.get(var) or default)
    return p if p.is_absolute() else TOP / p


class BuildWithLibraries(build_py):
    """build_py that also copies the shared libraries and the programs into the package."""

    def run(self):
        super().run()
        lib, bindir = _tree("HYSTKIT_BUILD", "build") / "lib", _tree("HYSTKIT_BIN", "bin")
        dst = Path(self.build_lib) / "hystkit"
        missing = [str(p) for p in [lib / n for n in LIBS] + [bindir / n for n in PROGRAMS] if not p.exists()]
        if missing:
            raise SystemExit("hystkit: %s not found: run `make` at the top of the source tree first" %
                             ", ".join(missing))
        for n in LIBS:
            shutil.copyfile(lib / n, dst / n)            # the file behind the soname link
            os.chmod(dst / n, 0o755)
        (dst / "bin").mkdir(exist_ok=True)
        for n in PROGRAMS:
            shutil.copyfile(bindir / n, dst / "bin" / n)
            os.chmod(dst / "bin" / n, 0o755)


cmdclass = {"build_py": BuildWithLibraries}
try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        """Not a pure-Python wheel: it carries this platform's shared libraries (any Python 3)."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return ("py3", "none", super().get_tag()[2])

    cmdclass["bdist_wheel"] = PlatformWheel
except ImportError:     # no wheel package: pip reports it (Debian: python3-wheel)
    pass

_tmp = tempfile.mkdtemp(prefix="hystkit-build-")
try:
    setup(cmdclass=cmdclass, options={"build": {"build_base": os.path.join(_tmp, "build")},
                                      "egg_info": {"egg_base": _tmp}})
finally:
    shutil.rmtree(_tmp, ignore_errors=True)
