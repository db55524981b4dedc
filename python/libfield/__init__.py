"""libfield in Python (docs/python.md): cases, the time march, the reconstructions, the static
solve and the Lie-group kernel on numpy arrays; ensembles on Dask in libfield.ensemble.

    import libfield
    run = libfield.simulate("meshes/free_flight/case.toml")
    run.positions          # (rows, nodes, 3)
    run.series["E"]        # the energy of every row, as in time_series.csv
    rebuilt = libfield.reconstruct("meshes/space_evolution/case.toml")
"""
import os
import sys
import warnings

from ._libfield import Case, FieldError, FieldIOError, __version__, lie
from ._libfield import _reconstruct, _simulate, _static_solve

# `from libfield.lie import SE3Cayley` as well as `libfield.lie.SE3Cayley`.
sys.modules[__name__ + ".lie"] = lie

__all__ = ["Case", "FieldError", "FieldIOError", "Run", "lie", "load_case", "reconstruct", "simulate",
           "static_solve"]


def load_case(case, name="case.toml"):
    """A validated Case from a Case, a path to a case file, the text of one or a dict.

    Relative data paths in a dict or a text start from the folder of `name` (a str or a path).
    Bad input raises ValueError (FieldError) with the file, the line and the key; a missing file
    OSError.
    """
    name = os.fspath(name)
    if isinstance(case, Case):
        return case
    if isinstance(case, dict):
        return Case.from_dict(case, name)
    if isinstance(case, os.PathLike) or (isinstance(case, str) and "\n" not in case):
        return Case.load(os.fspath(case))
    if isinstance(case, str):
        return Case.from_toml(case, name)
    raise TypeError(f"a case is a Case, a path, a TOML text or a dict, not {type(case).__name__}")


class Run:
    """The result of a march, as numpy arrays (docs/python.md, "What a run holds").

    t (n_t,), s (n_s,): the times of the rows and the arc lengths of the nodes;
    poses (n_t, n_s, 4, 4), positions (n_t, n_s, 3), quaternions (n_t, n_s, 4) (w, x, y, z);
    velocities (n_t - 1, n_s, 6): the body velocity (omega, v) between rows j and j + 1;
    strains, stresses (n_t, n_s - 1, 6): the body strain (kappa, gamma) and stress (moment,
    force) of each segment; series: a dict of arrays, the columns of time_series.csv;
    status: "completed", "stopped" (by the callback) or "failed" (then `failure` says where);
    the estimator's "converged" or "not converged". warnings: the program's warnings (stability,
    the prediction of theory §6.3), also issued as RuntimeWarning.
    """

    def __init__(self, arrays):
        self.failure = None
        self.__dict__.update(arrays)
        for w in self.warnings:
            warnings.warn(w, RuntimeWarning, stacklevel=3)

    def __repr__(self):
        rows, nodes = self.positions.shape[:2]
        return f"<libfield.Run {self.status}: {rows} rows x {nodes} nodes>"


def simulate(case, threads=1, callback=None):
    """The time march of a case (theory §6.1) with the `field simulate` computation, in memory.

    case: a Case, a path, a TOML text or a dict (load_case). callback(j, t), if given, is called
    after each row; returning False stops the march there (the rows so far are kept). The GIL
    is released while the march runs.
    """
    return Run(_simulate(load_case(case), threads, callback))


def reconstruct(case, threads=1, callback=None, tip=None):
    """The reconstruction `field reconstruct` runs for a case (docs/reconstruction.md), in memory.

    The case's [reconstruct] method selects it: "space", the space march of theory §6.2 (refused,
    as the program refuses it, when the prediction of §6.3 exceeds [tip] max_predicted_error);
    "driven", the time march with the tip prescribed; "estimate", the estimator of §6.7 (with
    sigma_position and sigma_rotation per node when [reconstruct] covariance = true).

    tip: None (the case's tip file) or a dict of arrays that replaces the file: t (n,), strains
    (n, 6) (Omega, Gamma), and poses (n, 4, 4) or positions (n, 3) and quaternions (n, 4)
    (w, x, y, z), the columns of a tip file (docs/input-data.md); for a cable or a registered
    theory on R^3 (their space march only): t (n,), positions (n, 3) and strains (n, 3).
    callback(k, x): after each column a (x = s_a) of the space march, each row j (x = t_j) of
    the driven march (False stops the march there), each iteration k of the estimator
    (x = its cost; False stops it after that iteration, status "stopped").
    """
    return Run(_reconstruct(load_case(case), threads, callback, tip))


def static_solve(case, callback=None):
    """The static equilibrium of a time-march case under its loads (theory §4.5), as
    `field static` solves it, as a Run of one row (t = [0]).

    status: "converged", "failed" or "stopped" (then `failure` says why, and the arrays hold the
    last converged row); load_fraction, relative_residual, newton_iterations, halvings, static_energy
    and steps (fraction, converged, residuals of each load step tried): summary.json's figures.
    callback(k, fraction) after each load step k tried (False stops the solve before the next).
    The GIL is released while it solves.
    """
    return Run(_static_solve(load_case(case), callback))
