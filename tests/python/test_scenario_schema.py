"""results/scenario.schema.json against the shared scenarios of tests/fixtures/scenarios/ (also
read by the C++ loader's test): it accepts the good ones and refuses every broken one it can
express; the bad_semantic_* files break bounds that depend on other fields, which only the loader
checks, and the schema accepts them."""
import glob
import json
import os

import jsonschema
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DIR = os.path.join(ROOT, "tests", "fixtures", "scenarios")


def validator():
    with open(os.path.join(ROOT, "results", "scenario.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def files(prefix):
    return sorted(glob.glob(os.path.join(DIR, prefix + "*.json")))


def test_the_set_is_there():
    assert len(files("good_")) >= 3
    assert len(files("bad_")) >= 16


@pytest.mark.parametrize("path", files("good_"), ids=os.path.basename)
def test_schema_accepts_the_good_scenarios(path):
    errors = list(validator().iter_errors(load(path)))
    assert not errors, [e.message for e in errors]


@pytest.mark.parametrize("path", [p for p in files("bad_") if "bad_semantic_" not in p],
                         ids=os.path.basename)
def test_schema_refuses_each_broken_scenario(path):
    assert list(validator().iter_errors(load(path))), f"{os.path.basename(path)} passed"


@pytest.mark.parametrize("path", files("bad_semantic_"), ids=os.path.basename)
def test_cross_field_bounds_are_the_loaders(path):
    assert not list(validator().iter_errors(load(path)))
