"""results/results.schema.json against the shared set of broken results files
(tests/fixtures/bad_results/, also read by the C++ loader's test): it refuses every broken file and
accepts the good one, and the results files of the test fixtures."""
import glob
import json
import os

import jsonschema
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BAD_DIR = os.path.join(ROOT, "tests", "fixtures", "bad_results")


def validator():
    with open(os.path.join(ROOT, "results", "results.schema.json"), encoding="utf-8") as f:
        return jsonschema.Draft202012Validator(json.load(f))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


BAD_FILES = sorted(p for p in glob.glob(os.path.join(BAD_DIR, "*.json"))
                   if not p.endswith("good.json"))


def test_the_set_is_there():
    assert len(BAD_FILES) >= 20


@pytest.mark.parametrize("path", BAD_FILES, ids=os.path.basename)
def test_schema_refuses_each_broken_file(path):
    errors = list(validator().iter_errors(load(path)))
    assert errors, f"{os.path.basename(path)} passed the schema"


def test_schema_accepts_the_good_file_and_the_fixtures():
    check = validator()
    paths = [os.path.join(BAD_DIR, "good.json"), os.path.join(ROOT, "tests", "fuzz", "seeds",
                                                              "results.json")]
    paths += glob.glob(os.path.join(ROOT, "tests", "fixtures", "verdicts", "cluster_*.json"))
    for path in paths:
        errors = [e.message for e in check.iter_errors(load(path))]
        assert not errors, f"{path}: {errors[:3]}"
