"""Ensembles of runs on a Dask cluster (docs/python.md, "Ensembles on Dask"): a parameter sweep,
or a reconstruction repeated over noise draws, one member per task.

    from distributed import Client
    from libfield.ensemble import run_ensemble
    with Client("tcp://scheduler:8786") as client:     # or Client(LocalCluster(...))
        result = run_ensemble(client, cases, "simulate", keep=lambda run: {"E": run.series["E"]})
    result.stack("E")          # (members that succeeded, rows)
    result.failures            # [Failure(index, case, error)] of the members that failed

The workers import libfield (the same build on every machine); a case given as a path or a case
text with relative data paths must name files the workers can read.
"""
from dataclasses import dataclass, field

import numpy as np

METHODS = ("simulate", "reconstruct", "static_solve")


@dataclass
class Failure:
    """A member that failed: its index, its case (name and file) and the error raised."""
    index: int
    case: str
    error: str


@dataclass
class Ensemble:
    """The results of an ensemble, in the order of its members: a dict (what `keep` returned, by
    default every attribute of the Run) or None for a failed member, reported in `failures`."""
    results: list
    failures: list = field(default_factory=list)

    def succeeded(self):
        """The indices of the members that succeeded."""
        return [i for i, r in enumerate(self.results) if r is not None]

    def stack(self, name):
        """np.stack of the item `name` of every member that succeeded (a leading member axis)."""
        return np.stack([r[name] for r in self.results if r is not None])


def _portable(case, name):
    """A case the workers can load: a Case as its resolved text (absolute paths), else as given
    (a path, a TOML text or a dict, with `name`)."""
    import libfield
    if isinstance(case, libfield.Case):
        return {"text": case.to_toml(), "name": case.file}
    return {"case": case, "name": name}


def _load(case):
    import libfield
    if "text" in case:
        return libfield.Case.from_toml(case["text"], case["name"])
    return libfield.load_case(case["case"], name=case["name"])


def _describe(case):
    try:
        c = _load(case)
        return f"{c.name} ({c.file})"
    except Exception:  # the case itself is bad: its name and file as given
        given = case.get("case")
        if isinstance(given, dict):
            return f"{given.get('name', '?')} ({case['name']})"
        return str(given)[:200]


def _member(method, case, tip, keep, threads):
    """One member on a worker: the run, then what `keep` keeps of it (a dict)."""
    import libfield
    loaded = _load(case)
    kwargs = {} if method == "static_solve" else {"threads": threads}
    if tip is not None:
        kwargs["tip"] = tip
    run = getattr(libfield, method)(loaded, **kwargs)
    return keep(run) if keep is not None else dict(vars(run))


def run_ensemble(client, cases, method="simulate", tips=None, keep=None, threads=1,
                 name="case.toml"):
    """Runs libfield.<method> (simulate, reconstruct or static_solve) on every case on the Dask
    cluster of `client` (a distributed.Client), one task per member, and gathers the results.

    cases: a list of cases (Case, path, TOML text or dict, as load_case takes them); tips: None
    or a list of tip dicts of arrays, one per member (reconstruct only; a case repeated over
    noise draws is [case] * n with n tips). keep(run) -> dict: what to bring back of each run
    (default: all its arrays). threads: per member. name: where the relative data paths of a
    dict or text case start from (load_case's `name`). A member that raises is reported in
    `failures` with its case and the error; the others are kept.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    cases = [_portable(c, name) for c in cases]
    if tips is None:
        tips = [None] * len(cases)
    elif method != "reconstruct" or len(tips) != len(cases):
        raise ValueError("tips: one tip per case, for method = 'reconstruct'")
    from distributed import wait
    n = len(cases)
    futures = client.map(_member, [method] * n, cases, tips, [keep] * n, [threads] * n,
                         pure=False)
    wait(futures)
    results, failures = [None] * n, []
    for i, f in enumerate(futures):
        if f.status == "finished":
            results[i] = f.result()
        else:
            e = f.exception()
            failures.append(Failure(i, _describe(cases[i]), f"{type(e).__name__}: {e}"))
    return Ensemble(results, failures)
