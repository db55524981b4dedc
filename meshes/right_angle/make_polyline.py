#!/usr/bin/env python3
"""The right-angle cantilever's stress-free shape ([shape] polyline, theory (1.6.4)) and its
section table ([beam] section = "table"), with the corner on a node (theory §1.6, "A corner on a
node"): leg 1 from the clamp at the origin along e3 to the elbow, leg 2 from there along -e2 to
the free end, each exactly 10 m.

  python3 meshes/right_angle/make_polyline.py [A] > polyline.csv
  python3 meshes/right_angle/make_polyline.py [A] --table > table.csv
  python3 meshes/right_angle/make_polyline.py [A] --table --retraction exp > table_exp.csv
  python3 meshes/right_angle/make_polyline.py [A] --corner segment > polyline.csv
  python3 meshes/right_angle/make_polyline.py --self-test

A is odd. The grid is uniform in the material coordinate (clamped-free: ds = 20/(A - 1/2), §3.4),
which puts s = 10 m a quarter of a segment past node n = (A - 1)/2. Instead the corner is node n:
leg 1 is n segments of ds1 = 10/n m, leg 2 n + 1/2 segments of ds2 = 10/(n + 1/2) m (the last
half up to the free end). A segment of physical length h on the grid's ds is the same beam with
eta0 = (0, 0, 0, 0, 0, h/ds) (from the polyline), C h -> C ds/h and J, rho A -> (J, rho A) h/ds:
the discrete Lagrangian of a beam reparametrised in s, so the uniform grid carries two uniform
legs. Segment n holds the pi/2 turn; its law is pulled back, C_n = (ds/h) Dk^-T Ds^T C Ds Dk^-1
with Dk z = d/de tau^-1(X tau(e z)) at e = 0 = dtau^-1_{-x} z of its turn X = tau(x) (theory
(1.6.5), from (2.2)) and Ds the same of a straight segment of length h, so that its
linearisation equals a straight segment's (a rigid corner). Node n's cell is half on each leg:
its rho J is the mean of leg 1's (10, 10, 20) and leg 2's seen from node n's frame (10, 20, 10).
The table is for the case's retraction: --retraction cayley (default, the shipped case) or exp.
--self-test checks the pull-back against finite differences of the segment's energy for both
retractions (theory §1.6).

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


def skew(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def hat(x):
    m = np.zeros((4, 4))
    m[:3, :3] = skew(x[:3])
    m[:3, 3] = x[3:]
    return m


def vee(m):
    return np.array([m[2, 1], m[0, 2], m[1, 0], m[0, 3], m[1, 3], m[2, 3]])


def ad(x):
    """ad_x of se(3), x = (w, v): [[w^, 0], [v^, w^]]."""
    m = np.zeros((6, 6))
    m[:3, :3] = m[3:, 3:] = skew(x[:3])
    m[3:, :3] = skew(x[3:])
    return m


def cay(x):
    I = np.eye(4)
    return np.linalg.solve(I - hat(x) / 2, I + hat(x) / 2)


def cay_inv(X):
    """theory (2.4), as a matrix: 2 (X - I)(X + I)^-1 (rotation angle < pi)."""
    I = np.eye(4)
    return vee(2.0 * (X - I) @ np.linalg.inv(X + I))


def exp(x):
    """theory (2.10), by its series (the turns here are at most pi/2: 40 terms reach round-off)."""
    m, term, out = hat(x), np.eye(4), np.eye(4)
    for k in range(1, 40):
        term = term @ m / k
        out = out + term
    return out


def log(X):
    """theory (2.11) (rotation angle < pi)."""
    R, r = X[:3, :3], X[:3, 3]
    S = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    th = math.atan2(np.linalg.norm(S) / 2, (np.trace(R) - 1) / 2)
    if th < 1e-12:
        return np.concatenate([S / 2, r])
    w = S * th / (2 * math.sin(th))
    W = skew(w)
    d = (1 - (th / 2) / math.tan(th / 2)) / th ** 2
    return np.concatenate([w, (np.eye(3) - W / 2 + d * W @ W) @ r])


RETRACTIONS = {"cayley": (cay, cay_inv), "exp": (exp, log)}


def dtau_inv_of_turn(X, retraction):
    """Dk z = d/de tau^-1(X tau(e z)) at e = 0 = dtau^-1_{-x} z, x = tau^-1(X) (theory (1.6.5)).
    Cayley: vee((I + x^/2) z^ (I - x^/2)) (theory (2.5) at -x); exp: the inverse of
    dexp_{-x} = sum_k ad_{-x}^k/(k+1)! (theory (2.12))."""
    if retraction == "cayley":
        I = np.eye(4)
        xh = hat(cay_inv(X))
        return np.array([vee((I + xh / 2) @ hat(z) @ (I - xh / 2)) for z in np.eye(6)]).T
    a, term, dexp = ad(-log(X)), np.eye(6), np.eye(6)
    for k in range(1, 40):
        term = term @ a / (k + 1)
        dexp = dexp + term
    return np.linalg.inv(dexp)


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


def corner_law(A, retraction="cayley"):
    """The corner segment n's pulled-back law, its turn X_n = g_n^-1 g_n+1 and the straight
    segment's turn of the same length h (theory (1.6.5))."""
    ds = L / (A - 0.5)
    n = corner_node(A)
    h = s_phys(n + 1, A) - s_phys(n, A)
    Xk = pose((0.0, -h, 0.0), True)  # node n in leg 1's frame at the corner, node n+1 on leg 2
    Xs = pose((0.0, 0.0, h), False)
    Dk = np.linalg.inv(dtau_inv_of_turn(Xk, retraction))
    Ds = dtau_inv_of_turn(Xs, retraction)
    Ca = ds / h * Dk.T @ Ds.T @ C @ Ds @ Dk
    return 0.5 * (Ca + Ca.T), Xk, Xs, h


def table(A, retraction="cayley", rho_j=RHO_J):
    """One row per segment a (K upper triangle, M upper triangle), corner on node n; rho_j the
    principal rotary inertia (d1, d2, d3) of the legs, each in its own frame."""
    ds = L / (A - 0.5)
    n = corner_node(A)
    rows = []
    for a in range(A):
        h = s_phys(a + 1, A) - s_phys(a, A)
        Ca = corner_law(A, retraction)[0] if a == n else C * ds / h
        before = 0.5 * (s_phys(a, A) - s_phys(a - 1, A)) if a > 0 else 0.5 * h
        after = 0.5 * h
        rho_j = np.asarray(rho_j, dtype=float)
        turned = rho_j[[0, 2, 1]] if a == n else rho_j  # node n: leg 2 seen from leg 1's frame
        J = (before * rho_j + after * turned) / ds
        m = (before + after) * RHO_A / ds
        M = np.diag(np.concatenate([J, [m, m, m]]))
        rows.append([Ca[i, j] for i in range(6) for j in range(i, 6)] +
                    [M[i, j] for i in range(6) for j in range(i, 6)])
    return rows


def self_test():
    """The pulled-back corner law (theory (1.6.5)) against finite differences, for both
    retractions: Dk is the derivative of tau^-1(X tau(e z)), and the corner segment's energy
    V(z) = (ds/2) (eta(z) - eta0) . C_n (eta(z) - eta0), eta(z) = tau^-1(X_n tau(z))/ds, has the
    Hessian at z = 0 of a straight segment of length h with the law C ds/h. The other
    retraction's law must fail the same check (the law depends on the retraction)."""
    def hessian(X, Cl, tau, tau_inv, ds, e=1e-4):
        eta0 = tau_inv(X) / ds
        def V(z):
            d = tau_inv(X @ tau(z)) / ds - eta0
            return 0.5 * ds * d @ Cl @ d
        E, H = np.eye(6) * e, np.zeros((6, 6))
        for i in range(6):
            for j in range(6):
                H[i, j] = (V(E[i] + E[j]) - V(E[i] - E[j]) - V(E[j] - E[i]) + V(-E[i] - E[j])) / (4 * e * e)
        return H

    worst, failures = 0.0, []
    for A in (21, 41):
        ds = L / (A - 0.5)
        for name, (tau, tau_inv) in RETRACTIONS.items():
            Cn, Xk, Xs, h = corner_law(A, name)
            checks = {"round trip": np.abs(tau(tau_inv(Xk)) - Xk).max()}
            z = np.linspace(0.3, 1.8, 6)
            fd = (tau_inv(Xk @ tau(1e-6 * z)) - tau_inv(Xk @ tau(-1e-6 * z))) / 2e-6
            checks["Dk"] = np.abs(fd - dtau_inv_of_turn(Xk, name) @ z).max() / np.abs(fd).max()
            Hs = hessian(Xs, C * ds / h, tau, tau_inv, ds)
            checks["pull-back"] = np.abs(hessian(Xk, Cn, tau, tau_inv, ds) - Hs).max() / np.abs(Hs).max()
            checks["SPD"] = 0.0 if np.linalg.eigvalsh(Cn).min() > 0 else 1.0
            other = corner_law(A, "exp" if name == "cayley" else "cayley")[0]
            wrong = np.abs(hessian(Xk, other, tau, tau_inv, ds) - Hs).max() / np.abs(Hs).max()
            for k, v in checks.items():
                worst = max(worst, v)
                if v > 1e-6:
                    failures.append(f"A = {A}, {name}: {k} {v:.2e} > 1e-6")
            if wrong < 1e-2:
                failures.append(f"A = {A}, {name}: the other retraction's law passes ({wrong:.2e})")
            print(f"A = {A:3d} {name:6s}: " + ", ".join(f"{k} {v:.1e}" for k, v in checks.items()) +
                  f"; the other retraction's law: {wrong:.2f}")
    if failures:
        print("FAIL: " + "; ".join(failures))
        sys.exit(1)
    print(f"corner law pull-back: largest relative error {worst:.1e} (bound 1e-6)")


def main():
    args = [x for x in sys.argv[1:]]
    if "--self-test" in args:
        self_test()
        return
    corner, retraction = "node", "cayley"
    if "--corner" in args:
        k = args.index("--corner")
        corner = args[k + 1]
        del args[k:k + 2]
    if "--retraction" in args:
        k = args.index("--retraction")
        retraction = args[k + 1]
        del args[k:k + 2]
        if retraction not in RETRACTIONS:
            sys.exit("make_polyline.py: --retraction cayley or exp")
    want_table = "--table" in args
    args = [x for x in args if x != "--table"]
    A = int(args[0]) if args else 21
    if A % 2 == 0 or corner not in ("node", "segment"):
        sys.exit("make_polyline.py: A must be odd, --corner node or segment")
    ds = L / (A - 0.5)
    if want_table:
        names = [f"K{i}{j}" for i in range(1, 7) for j in range(i, 7)]
        names += [f"M{i}{j}" for i in range(1, 7) for j in range(i, 7)]
        print("# right_angle: section per segment, corner on node %d (make_polyline.py %d --table%s)"
              % (corner_node(A), A, "" if retraction == "cayley" else " --retraction " + retraction))
        print("a," + ",".join(names))
        for a, row in enumerate(table(A, retraction)):
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
