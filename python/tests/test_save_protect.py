"""Model.save(protect=...) with an HDF5 table as the protected input (issue 42, N14): the file part of
"FILE.h5:/DATASET" is the input, and a save onto it is refused with the log left byte for byte as it was."""
import shutil

import pytest

import hystkit as hk
from conftest import FIX


def test_save_refuses_the_log_of_a_dataset_path(tmp_path):
    log = tmp_path / "log.h5"
    shutil.copy(FIX / "h5" / "pwl-friction.h5", log)
    before = log.read_bytes()
    rec = hk.read_record("%s:/records/brake" % log)
    model = hk.load_model(FIX / "models" / "pwl-friction.json")
    with pytest.raises(hk.ArgumentError, match="log.h5: refusing to overwrite an input file"):
        model.save(log, protect="%s:/records/brake" % log)
    assert log.read_bytes() == before and len(rec) == 3077
    # another path is written as before, with the same protect argument
    model.save(tmp_path / "m.json", protect="%s:/records/brake" % log)
    assert hk.load_model(tmp_path / "m.json").family == "pwl"
