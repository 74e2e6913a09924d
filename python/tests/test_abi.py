"""The ctypes mirrors of the C structs (hystkit/_lib.py) against the C compiler: sizeof and the offset of the last
field of every struct the package reads or fills, so that a change in a header fails here, not in a user's
notebook."""
import ctypes as C
import shutil
import os
import subprocess

import pytest

from hystkit import _lib as L
from conftest import TOP

# The compiler and the probe program run without the sanitizer runtime that the SAN build preloads into python3
# (tests/e2e/test_python.sh): gcc is not instrumented and its own allocations would be reported as leaks.
PLAIN_ENV = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}


STRUCTS = {"hy_err": L.Err, "hy_diag": L.Diag, "hy_series": L.Series, "hy_csv_opts": L.CsvOpts,
           "hy_loops_opts": L.LoopsOpts, "hy_reversal": L.Reversal, "hy_inner_loop": L.InnerLoop,
           "hy_halfcycle": L.HalfCycle, "hy_cycle": L.Cycle, "hy_curve": L.Curve, "hy_loops": L.Loops,
           "hy_branches": L.Branches,
           "hy_model": L.Model, "hy_element_ops": L.ElementOps, "hy_element": L.Element,
           "hy_pwlfit_opts": L.PwlfitOpts, "hy_kinfit_opts": L.KinfitOpts, "hy_replay_cycle": L.ReplayCycle,
           "hy_replay_metrics": L.ReplayMetrics, "mech_vec3": L.Vec3, "mech_dock_summary": L.DockSummary,
           "mech_beam_hinge": L.BeamHinge, "mech_beam_mfc": L.BeamMfc, "mech_beam_params": L.BeamParams,
           "mech_beam_solver": L.BeamSolver, "mech_beam_load": L.BeamLoad, "mech_beam_config": L.BeamConfig,
           "mech_beam_info": L.BeamInfo, "mech_beam_history": L.BeamHistory, "mech_beam_obs": L.BeamObs,
           "mech_dock_seq_event": L.SeqEvent, "mech_dock_process_summary": L.DockProcess,
           "mech_dock_limiter_summary": L.DockLimiter, "mech_compare_rec": L.CompareRec,
           "mech_compare_filter": L.CompareFilter, "mech_compare_chan": L.CompareChan,
           "mech_compare_loop": L.CompareLoop, "mech_compare_map": L.CompareMap,
           "mech_compare_result": L.CompareResult, "mech_compare": L.Compare, "mech_compare_impact": L.CompareImpact,
           "mech_dock_fault_state": L.FaultState}


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler to compare the struct layouts with")
def test_struct_layouts_match_the_headers(tmp_path):
    lines = []
    for cname, py in STRUCTS.items():
        last = py._fields_[-1][0]
        lines.append('printf("%s %%zu %%zu\\n", sizeof(%s), offsetof(%s, %s));' % (cname, cname, cname, last))
    src = tmp_path / "abi.c"
    src.write_text("#include <stddef.h>\n#include <stdio.h>\n#include <hyst/fitmodel.h>\n#include <hyst/loops.h>\n"
                   "#include <hyst/replay.h>\n#include <hyst/csvread.h>\n#include <mech/dock.h>\n#include <mech/dock_process.h>\n#include <mech/beam.h>\n#include <mech/compare.h>\n"
                   "int main(void) {\n" + "\n".join(lines) + "\nreturn 0;\n}\n")
    exe = tmp_path / "abi"
    subprocess.run(["cc", "-std=c11", "-I", str(TOP / "libhyst/include"), "-I", str(TOP / "libmech/include"),
                    "-o", str(exe), str(src)], check=True, env=PLAIN_ENV)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, env=PLAIN_ENV).stdout.split("\n")
    for row in filter(None, out):
        cname, size, off = row.split()
        py = STRUCTS[cname]
        assert (C.sizeof(py), getattr(py, py._fields_[-1][0]).offset) == (int(size), int(off)), cname


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler to compare the struct layouts with")
def test_every_field_offset_matches(tmp_path):
    """The offset of every field, not only the last: a mirror with two fields swapped or a wrong inner type keeps
    its size but reads the wrong numbers (the beam configuration is read field by field by hystkit.run_beam)."""
    lines = ['printf("%s %s %%zu\\n", offsetof(%s, %s));' % (cname, f[0], cname, f[0])
             for cname, py in STRUCTS.items() for f in py._fields_]
    src = tmp_path / "off.c"
    src.write_text("#include <stddef.h>\n#include <stdio.h>\n#include <hyst/fitmodel.h>\n#include <hyst/loops.h>\n"
                   "#include <hyst/replay.h>\n#include <hyst/csvread.h>\n#include <mech/dock.h>\n#include <mech/dock_process.h>\n#include <mech/beam.h>\n#include <mech/compare.h>\n"
                   "int main(void) {\n" + "\n".join(lines) + "\nreturn 0;\n}\n")
    exe = tmp_path / "off"
    subprocess.run(["cc", "-std=c11", "-I", str(TOP / "libhyst/include"), "-I", str(TOP / "libmech/include"),
                    "-o", str(exe), str(src)], check=True, env=PLAIN_ENV)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, env=PLAIN_ENV).stdout.split("\n")
    rows = [r.split() for r in out if r]
    assert len(rows) == sum(len(py._fields_) for py in STRUCTS.values()) > 100
    for cname, field, off in rows:
        assert getattr(STRUCTS[cname], field).offset == int(off), "%s.%s" % (cname, field)
