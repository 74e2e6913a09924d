"""One exception class per C status, each carrying the C message (file, line, column or key)."""
import json

import numpy as np
import pytest

import hystkit as hk
from hystkit.errors import from_code
from conftest import FIX


def test_argument_error():
    with pytest.raises(hk.ArgumentError, match=r"SPC1\.csv: column index 0 for the displacement") as e:
        hk.read_csv(FIX / "real" / "SPC1.csv", q=0)
    assert isinstance(e.value, ValueError) and e.value.code == 1


def test_io_error():
    with pytest.raises(hk.HystIOError, match="nope.csv: cannot open: No such file") as e:
        hk.read_csv(FIX / "nope.csv")
    assert isinstance(e.value, OSError) and e.value.file.endswith("nope.csv")


def test_parse_error_names_line_and_column():
    with pytest.raises(hk.ParseError, match=r"non_numeric\.csv:5:1: found 'abc', expected a number") as e:
        hk.read_csv(FIX / "bad" / "non_numeric.csv")
    assert (e.value.line, e.value.column) == (5, 1) and e.value.file.endswith("non_numeric.csv")
    with pytest.raises(hk.ParseError, match=r"^m\.json:1:24: malformed JSON") as e:
        hk.Model.parse('{"format": "hyst-model",', "m.json")
    assert (e.value.file, e.value.line, e.value.column) == ("m.json", 1, 24)


def test_data_error():
    with pytest.raises(hk.DataError, match="10 samples are too few for a table fit"):
        hk.fit_pwl(np.zeros(10), np.zeros(10))


def test_model_error_names_key():
    d = json.loads((FIX / "models" / "pwl-constant.json").read_text())
    d["positive"]["forward"][2] = [0.8, 5]          # abscissae no longer increasing
    with pytest.raises(hk.ModelError) as e:
        hk.Model.parse(d, "t.json")
    assert e.value.message.startswith("t.json: positive.forward") and e.value.key.startswith("positive.forward")


def test_model_error_from_the_simulator():
    d = json.loads((FIX / "mech" / "dock" / "s1-A.json").read_text())
    d["step"] = 0.05
    with pytest.raises(hk.ModelError, match=r"step: 0\.05 s is too large.*valid range") as e:
        hk.DockScenario(d, base_dir=FIX / "mech" / "dock", name="s1")
    assert e.value.key == "step"


def test_range_error():
    m = hk.Model.load(FIX / "models" / "paper-damper-full.json")
    with pytest.raises(hk.RangeError, match=r"sample 1: .*q is outside the valid range \[-0\.52, 0\.52\]"):
        m.simulate([0.1, 1e9])
    assert m.q == 0.1          # the state stays at the last sample that passed
    p = hk.Model.load(FIX / "models" / "pwl-constant.json")
    with pytest.raises(hk.RangeError, match="q is not a finite number"):
        p.step(float("nan"))


@pytest.mark.parametrize("code,cls,base", [(6, hk.StateError, RuntimeError), (8, hk.NumericError, ArithmeticError),
                                           (9, hk.HystMemoryError, MemoryError), (42, hk.HystError, Exception)])
def test_codes_without_a_cheap_trigger(code, cls, base):
    # HY_ESTATE (strict-mode pwl, a failed docking step), HY_ENUMERIC and HY_ENOMEM have no cheap deterministic
    # trigger through the public API: the mapping itself is tested
    e = from_code(code, "f.json:3:7: what went wrong")
    assert type(e) is cls and isinstance(e, base) and str(e) == "f.json:3:7: what went wrong"
    assert (e.file, e.line, e.column) == ("f.json", 3, 7)


def test_python_side_argument_checks():
    with pytest.raises(ValueError, match="segments or tol"):
        hk.fit_pwl(np.zeros(30), np.zeros(30), segments=3, tol=1)
    with pytest.raises(ValueError, match="kind"):
        hk.fit_pwl(np.zeros(30), np.zeros(30), kind="x")
