"""Shared fixtures of the Python module's tests (run by ctest `python_module`, docs/python.md)."""
import csv
import os
import subprocess

import numpy as np
import pytest

SOURCE = os.environ.get("FIELD_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
FIELD_BIN = os.environ.get("FIELD_BIN", os.path.join(SOURCE, "build", "release", "bin", "field"))


def mesh_case(name):
    """The path of a shipped case, meshes/NAME/case.toml."""
    return os.path.join(SOURCE, "meshes", name, "case.toml")


def read_csv(path):
    """A CSV file as a dict of float arrays (shortest round-trip text: the exact doubles)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    return {c: np.array([float(r[k]) for r in body]) for k, c in enumerate(header)}


@pytest.fixture(scope="session")
def field_run(tmp_path_factory):
    """Runs `field simulate CASE --threads 1` once per case; returns the run folder."""
    done = {}

    def run(name):
        if name not in done:
            out = tmp_path_factory.mktemp(name)
            subprocess.run([FIELD_BIN, "simulate", "-q", "--threads", "1", "--force", "--out",
                            str(out), mesh_case(name)], check=True, capture_output=True)
            done[name] = out
        return done[name]

    return run


def read_table(path):
    """A CSV file with '#' comment lines (a tip file) as a dict of float arrays."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    header, body = rows[0], rows[1:]
    return {c: np.array([float(r[k]) for r in body]) for k, c in enumerate(header)}


def by_node(field, n_t, n_s, column):
    """A column of field.csv as an (n_t, n_s) array, whatever the order of its lines."""
    out = np.full((n_t, n_s), np.nan)
    out[field["j"].astype(int), field["a"].astype(int)] = field[column]
    return out


@pytest.fixture(scope="session")
def field_program(tmp_path_factory):
    """Runs `field COMMAND CASE --threads 1` once per (command, case); returns the run folder.
    The program must exit with `expect_code` (0: a complete run)."""
    done = {}

    def run(command, case, expect_code=0):
        key = (command, str(case))
        if key not in done:
            out = tmp_path_factory.mktemp(command)
            r = subprocess.run([FIELD_BIN, command, "-q", "--threads", "1", "--force", "--out",
                                str(out), str(case)], capture_output=True, text=True)
            assert r.returncode == expect_code, r.stderr
            done[key] = out
        return done[key]

    return run
