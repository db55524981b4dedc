"""Shared helpers of the validation scripts (docs/validation/): a shipped case with a few keys
changed, one run of the `field` program with its wall time, observed orders of convergence."""
import json
import math
import os
import re
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def case_variant(case_path, **keys):
    """The text of a shipped case with `key = value` lines replaced (keys unique in the file;
    a value is written with repr, a string quoted). Comments after a changed value are dropped."""
    text = open(case_path).read()
    for key, value in keys.items():
        v = f'"{value}"' if isinstance(value, str) else repr(value)
        text, n = re.subn(rf"^{re.escape(key)}\s*=.*$", f"{key} = {v}", text, count=1,
                          flags=re.MULTILINE)
        if n != 1:
            raise KeyError(f"{case_path}: no line '{key} = ...'")
    return text


def run_field(field, command, case_text, folder, extra=()):
    """Writes case_text to folder/case.toml and runs `field COMMAND case.toml --out folder/run`;
    returns (wall time of the process [s], run folder)."""
    os.makedirs(folder, exist_ok=True)
    case = os.path.join(folder, "case.toml")
    with open(case, "w") as f:
        f.write(case_text)
    out = os.path.join(folder, "run")
    cmd = [field, command, case, "--out", out, "--force", "-q", *extra]
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    return wall, out


def summary(run):
    with open(os.path.join(run, "summary.json")) as f:
        return json.load(f)


def orders(values):
    """Observed orders of a sequence computed with ds halved each time: log2 of the ratio of
    successive differences (needs three values per order)."""
    out = []
    for a, b, c in zip(values, values[1:], values[2:]):
        d1, d2 = abs(b - a), abs(c - b)
        out.append(math.log2(d1 / d2) if d2 > 0 and d1 > 0 else float("nan"))
    return out


def error_orders(hs, errors):
    """Observed orders log(e1/e2)/log(h1/h2) of errors against an exact value."""
    return [math.log(e1 / e2) / math.log(h1 / h2) if e1 > 0 and e2 > 0 else float("nan")
            for h1, h2, e1, e2 in zip(hs, hs[1:], errors, errors[1:])]


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)
