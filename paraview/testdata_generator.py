"""Write a synthetic run folder in the format of the `field` program (docs/output-format.md).

Only for developing and checking the ParaView scripts without the solver: the motion is a
made-up tumbling, bending and drifting beam (no mechanics), the series are made-up small
oscillations. The files have the real names, arrays and columns:

  DIR/beam.pvd, DIR/frames/beam_NNNNNN.vtp, DIR/spacetime.vtu and DIR/time_series.csv
  (or DIR/space_series.csv with --space).

Sample run:
  pvpython paraview/testdata_generator.py /tmp/synthetic --rows 41 --nodes 11
"""

import argparse
import math
import os
import sys

from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkIntArray, vtkPoints
from vtkmodules.vtkCommonDataModel import (
    VTK_TRIANGLE,
    vtkCellArray,
    vtkPolyData,
    vtkUnstructuredGrid,
)
from vtkmodules.vtkIOXML import vtkXMLPolyDataWriter, vtkXMLUnstructuredGridWriter


def rot(axis, angle):
    """Rotation matrix about a unit axis (Rodrigues), rows of a 3x3 list."""
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    C = 1.0 - c
    return [
        [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
        [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
        [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
    ]


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def col(R, k):
    return [R[0][k], R[1][k], R[2][k]]


def quat_wxyz(R):
    """Unit quaternion (w, x, y, z) of a rotation matrix (w >= 0 branch, enough here)."""
    w = math.sqrt(max(0.0, 1.0 + R[0][0] + R[1][1] + R[2][2])) / 2.0
    def part(sx, sy, sz, sign):
        trace = 1.0 + sx * R[0][0] + sy * R[1][1] + sz * R[2][2]
        return math.copysign(math.sqrt(max(0.0, trace)) / 2.0, sign)

    x = part(1, -1, -1, R[2][1] - R[1][2])
    y = part(-1, 1, -1, R[0][2] - R[2][0])
    z = part(-1, -1, 1, R[1][0] - R[0][1])
    return [w, x, y, z]


def pose(t, s):
    """Made-up pose (R, r) of the material point s at time t (L = 1 m)."""
    R = matmul(rot((0.0, 1.0, 0.0), 1.0 * t + 0.3 * math.sin(math.pi * s)),
               rot((0.0, 0.0, 1.0), 2.0 * s * t))
    # centre line: the tumbling straight line plus a drift along e2
    Rc = rot((0.0, 1.0, 0.0), 1.0 * t)
    d3 = col(Rc, 2)
    r = [d3[i] * (s - 0.5) for i in range(3)]
    r[1] += 0.5 * t
    r[2] += 0.5
    r[0] += 0.05 * math.sin(math.pi * s) * math.sin(5.0 * t)
    return R, r


def array(name, comps, values):
    a = vtkDoubleArray()
    a.SetName(name)
    a.SetNumberOfComponents(comps)
    for v in values:
        if comps == 1:
            a.InsertNextValue(v)
        else:
            a.InsertNextTuple(v)
    return a


def write_frame(path, t, ts, nodes, polyline):
    """One beam_NNNNNN.vtp: centre line, directors, velocities, per segment strains/stress."""
    dt = 1e-4
    pts = vtkPoints()
    s_vals, q, d1, d2, d3, vel, omg = [], [], [], [], [], [], []
    for a in range(nodes):
        s = ts[a]
        R, r = pose(t, s)
        _, r2 = pose(t + dt, s)
        R2, _ = pose(t + dt, s)
        pts.InsertNextPoint(r)
        s_vals.append(s)
        q.append(quat_wxyz(R))
        d1.append(col(R, 0))
        d2.append(col(R, 1))
        d3.append(col(R, 2))
        vel.append([(r2[i] - r[i]) / dt for i in range(3)])
        # spatial angular velocity from W = dR/dt R^T (skew part)
        W = [[sum((R2[i][k] - R[i][k]) / dt * R[j][k] for k in range(3)) for j in range(3)]
             for i in range(3)]
        omg.append([W[2][1], W[0][2], W[1][0]])
    lines = vtkCellArray()
    if polyline:
        lines.InsertNextCell(nodes)
        for a in range(nodes):
            lines.InsertCellPoint(a)
    else:
        for a in range(nodes - 1):
            lines.InsertNextCell(2)
            lines.InsertCellPoint(a)
            lines.InsertCellPoint(a + 1)
    poly = vtkPolyData()
    poly.SetPoints(pts)
    poly.SetLines(lines)
    pd = poly.GetPointData()
    for name, comps, vals in (
        ("s", 1, s_vals),
        ("q_wxyz", 4, q),
        ("d1", 3, d1),
        ("d2", 3, d2),
        ("d3", 3, d3),
        ("velocity", 3, vel),
        ("angular_velocity", 3, omg),
    ):
        pd.AddArray(array(name, comps, vals))
    cd = poly.GetCellData()
    cells = 1 if polyline else nodes - 1  # per segment data needs one cell per segment
    for name in ("strain_Omega", "strain_Gamma", "moment", "force"):
        cd.AddArray(array(name, 3, [[0.1 * t, 0.0, 1.0 + c] for c in range(cells)]))
    fd = array("TimeValue", 1, [t])
    poly.GetFieldData().AddArray(fd)
    w = vtkXMLPolyDataWriter()
    w.SetFileName(path)
    w.SetInputData(poly)
    if w.Write() != 1:
        sys.exit("cannot write " + path)


def write_spacetime(path, times, ts):
    J, A = len(times) - 1, len(ts) - 1
    grid = vtkUnstructuredGrid()
    pts = vtkPoints()
    pos, q, energy, resid, defect = [], [], [], [], []
    for j in range(J + 1):
        for a in range(A + 1):
            t, s = times[j], ts[a]
            pts.InsertNextPoint(t, s, 0.0)
            R, r = pose(t, s)
            pos.append(r)
            q.append(quat_wxyz(R))
            energy.append(1.0 + 0.5 * math.sin(3.0 * t) * math.cos(math.pi * s) ** 2)
            resid.append(1e-14 * (1.0 + math.sin(7.0 * t + s)) if 0 < j < J else 0.0)
            defect.append(1e-13 * abs(math.cos(5.0 * t * s)))
    grid.SetPoints(pts)
    kinds = vtkIntArray()
    kinds.SetName("triangle_kind")

    def node(j, a):
        return j * (A + 1) + a

    for j in range(J):
        for a in range(A):
            grid.InsertNextCell(VTK_TRIANGLE, 3, [node(j, a), node(j + 1, a), node(j, a + 1)])
            kinds.InsertNextValue(0)
            grid.InsertNextCell(VTK_TRIANGLE, 3,
                                [node(j + 1, a), node(j + 1, a + 1), node(j, a + 1)])
            kinds.InsertNextValue(1)
    grid.GetCellData().AddArray(kinds)
    pd = grid.GetPointData()
    pd.AddArray(array("position", 3, pos))
    pd.AddArray(array("q_wxyz", 4, q))
    pd.AddArray(array("energy_density", 1, energy))
    pd.AddArray(array("dcel_residual", 1, resid))
    pd.AddArray(array("noether_defect", 1, defect))
    w = vtkXMLUnstructuredGridWriter()
    w.SetFileName(path)
    w.SetInputData(grid)
    if w.Write() != 1:
        sys.exit("cannot write " + path)


def write_series(path, space, times, ts):
    P0 = [-2.5, 1.79, 0.0, 1.92, 5.0, 0.0]
    with open(path, "w") as f:
        if space:
            f.write("a,s,E_M,Q_ang1,Q_ang2,Q_ang3,Q_lin1,Q_lin2,Q_lin3,noether_residual,"
                    "newton_max_iterations,newton_mean_iterations\n")
            rows = [(a, s) for a, s in enumerate(ts[:-1])]
        else:
            f.write("j,t,E,P_ang1,P_ang2,P_ang3,P_lin1,P_lin2,P_lin3,noether_residual,"
                    "newton_max_iterations,newton_mean_iterations\n")
            rows = [(j, t) for j, t in enumerate(times[:-1])]
        for k, x in rows:
            E = (-0.3 if space else 2.0) * (1.0 + 1e-4 * math.sin(20.0 * x) ** 2)
            P = [p + 1e-13 * math.sin(k + i) * k / len(rows) for i, p in enumerate(P0)]
            vals = [k, x, E] + P + [1e-14 * (1 + math.sin(k)), 3 + k % 2, 2.5]
            f.write(",".join("%.17g" % v for v in vals) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", help="run folder to create")
    p.add_argument("--rows", type=int, default=41, help="time rows J+1 (default 41)")
    p.add_argument("--nodes", type=int, default=11, help="nodes A+1 per row (default 11)")
    p.add_argument("--dt", type=float, default=0.05, help="time step [s] (default 0.05)")
    p.add_argument("--stride", type=int, default=1, help="write every stride-th frame")
    p.add_argument("--space", action="store_true", help="write space_series.csv instead")
    p.add_argument("--polyline", action="store_true",
                   help="one polyline cell instead of one line cell per segment")
    args = p.parse_args()
    A = args.nodes - 1
    ds = 1.0 / A
    ts = [(a + 0.5) * ds if not args.space else a * ds for a in range(args.nodes)]
    times = [j * args.dt for j in range(args.rows)]
    os.makedirs(os.path.join(args.dir, "frames"), exist_ok=True)
    J = args.rows - 1
    entries = []
    for j, t in enumerate(times):
        if j % args.stride and j != J:
            continue
        name = "frames/beam_%06d.vtp" % j
        write_frame(os.path.join(args.dir, name), t, ts, args.nodes, args.polyline)
        entries.append('    <DataSet timestep="%.17g" group="" part="0" file="%s"/>' % (t, name))
    with open(os.path.join(args.dir, "beam.pvd"), "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n')
        f.write("  <Collection>\n")
        f.write("\n".join(entries) + "\n  </Collection>\n</VTKFile>\n")
    write_spacetime(os.path.join(args.dir, "spacetime.vtu"), times, ts)
    name = "space_series.csv" if args.space else "time_series.csv"
    write_series(os.path.join(args.dir, name), args.space, times, ts)
    print("wrote %s: %d frames, spacetime.vtu, %s" % (args.dir, len(entries), name))


if __name__ == "__main__":
    main()
