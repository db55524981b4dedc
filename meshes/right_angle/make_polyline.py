#!/usr/bin/env python3
"""The right-angle cantilever's stress-free shape ([shape] polyline, theory (1.6.4)) and its
section table ([beam] section = "table"), with the corner on a node (theory §1.6, "A corner on a
node"): leg 1 from the clamp at the origin along e3 to the elbow, leg 2 from there along -e2 to
the free end, each exactly 10 m.

  python3 meshes/right_angle/make_polyline.py [A] > polyline.csv
  python3 meshes/right_angle/make_polyline.py [A] --table > table.csv
  python3 meshes/right_angle/make_polyline.py [A] --corner segment > polyline.csv

A is odd. The grid is uniform in the material coordinate (clamped-free: ds = 20/(A - 1/2), §3.4),
which puts s = 10 m a quarter of a segment past node n = (A - 1)/2. Instead the corner is node n:
leg 1 is n segments of ds1 = 10/n m, leg 2 n + 1/2 segments of ds2 = 10/(n + 1/2) m (the last
half up to the free end). A segment of physical length h on the grid's ds is the same beam with
eta0 = (0, 0, 0, 0, 0, h/ds) (from the polyline), C h -> C ds/h and J, rho A -> (J, rho A) h/ds:
the discrete Lagrangian of a beam reparametrised in s, so the uniform grid carries two uniform
legs. Segment n holds the pi/2 turn; its law is pulled back, C_n = (ds/h) Dk^-T Ds^T C Ds Dk^-1
with Dk = dcay^-1 of its turn and Ds of a straight segment of length h, so that its linearisation
equals a straight segment's (a rigid corner). Node n's cell is half on each leg: its rho J is the
mean of leg 1's (10, 10, 20) and leg 2's seen from node n's frame (10, 20, 10). The table is for
retraction = "cayley".

--corner segment writes the former polyline (uniform segments, the corner inside segment n, a
quarter past node n, eta0 of that segment holding it) with the case's plain section: observed
order 1 (docs/validation/right_angle.md).
"""
import math
import sys

import numpy as np

L, ELBOW = 20.0, 10.0
C = np.diag([1.0e3, 1.0e3, 1.0e3, 1.0e6, 1.0e6, 1.0e6])  # EI1, EI2, GJ, GA1, GA2, EA (libfield order)
RHO_J, RHO_A = np.array([10.0, 10.0, 20.0]), 1.0
Q2 = (math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0)  # leg 2: pi/2 about e1, d3 = -e2


def corner_node(A):
    return (A - 1) // 2


def s_phys(a, A):
    """Arc length [m] of node a (corner on node n)."""
    n = corner_node(A)
    return a * ELBOW / n if a <= n else ELBOW + (a - n) * (L - ELBOW) / (n + 0.5)


def hat(x):
    m = np.zeros((4, 4))
    w, v = x[:3], x[3:]
    m[:3, :3] = [[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]]
    m[:3, 3] = v
    return m


def vee(m):
    return np.array([m[2, 1], m[0, 2], m[1, 0], m[0, 3], m[1, 3], m[2, 3]])


def dcay_inv_of_turn(X):
    """Dk z = d/de cay^-1(X cay(e z)) at e = 0 = vee((I + x^/2) z^ (I - x^/2)), x = cay^-1(X)."""
    I = np.eye(4)
    xh = 2.0 * (X - I) @ np.linalg.inv(X + I)  # cay^-1 (theory §2.1), as a matrix
    return np.array([vee((I + xh / 2) @ hat(z) @ (I - xh / 2)) for z in np.eye(6)]).T


def pose(p, turned):
    g = np.eye(4)
    if turned:
        g[:3, :3] = [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]]
    g[:3, 3] = p
    return g


def polyline(A, corner="node"):
    ds = L / (A - 0.5)
    rows = []
    for a in range(A + 1):
        s = s_phys(a, A) if corner == "node" else a * ds
        if s <= ELBOW and (corner == "segment" or a <= corner_node(A)):
            rows.append((a * ds, 0.0, 0.0, s, 1.0, 0.0, 0.0, 0.0))
        else:
            rows.append((a * ds, 0.0, -(s - ELBOW), ELBOW) + Q2)
    return rows


def table(A):
    """One row per segment a (K upper triangle, M upper triangle), corner on node n."""
    ds = L / (A - 0.5)
    n = corner_node(A)
    rows = []
    for a in range(A):
        h = s_phys(a + 1, A) - s_phys(a, A)
        Ca = C * ds / h
        if a == n:
            # the turn g_n^-1 g_n+1 (node n in leg 1's frame at the corner)
            Dk = np.linalg.inv(dcay_inv_of_turn(pose((0.0, -h, 0.0), True)))
            Ds = dcay_inv_of_turn(pose((0.0, 0.0, h), False))
            Ca = ds / h * Dk.T @ Ds.T @ C @ Ds @ Dk
            Ca = 0.5 * (Ca + Ca.T)
        before = 0.5 * (s_phys(a, A) - s_phys(a - 1, A)) if a > 0 else 0.5 * h
        after = 0.5 * h
        turned = RHO_J[[0, 2, 1]] if a == n else RHO_J  # node n: leg 2 seen from leg 1's frame
        J = (before * RHO_J + after * turned) / ds
        m = (before + after) * RHO_A / ds
        M = np.diag(np.concatenate([J, [m, m, m]]))
        rows.append([Ca[i, j] for i in range(6) for j in range(i, 6)] +
                    [M[i, j] for i in range(6) for j in range(i, 6)])
    return rows


def main():
    args = [x for x in sys.argv[1:]]
    corner = "node"
    if "--corner" in args:
        k = args.index("--corner")
        corner = args[k + 1]
        del args[k:k + 2]
    want_table = "--table" in args
    args = [x for x in args if x != "--table"]
    A = int(args[0]) if args else 21
    if A % 2 == 0 or corner not in ("node", "segment"):
        sys.exit("make_polyline.py: A must be odd, --corner node or segment")
    ds = L / (A - 0.5)
    if want_table:
        names = [f"K{i}{j}" for i in range(1, 7) for j in range(i, 7)]
        names += [f"M{i}{j}" for i in range(1, 7) for j in range(i, 7)]
        print("# right_angle: section per segment, corner on node %d (make_polyline.py %d --table)"
              % (corner_node(A), A))
        print("a," + ",".join(names))
        for a, row in enumerate(table(A)):
            print("%d," % a + ",".join("%.17g" % v for v in row))
        return
    print("# right_angle: stress-free shape, one row per node a = 0..%d at s = a ds, ds = 20/(A - 1/2)" % A)
    print("# = %.17g m (make_polyline.py %d%s); elbow at 10 m (%s), legs of 10 m" %
          (ds, A, "" if corner == "node" else " --corner segment",
           "node %d" % corner_node(A) if corner == "node" else "inside segment %d" % corner_node(A)))
    print("s,x,y,z,qw,qx,qy,qz")
    for row in polyline(A, corner):
        print(",".join("%.17g" % v for v in row))


if __name__ == "__main__":
    main()
