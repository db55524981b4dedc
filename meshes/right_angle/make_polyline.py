#!/usr/bin/env python3
"""The right-angle cantilever's stress-free shape as a centreline polyline with frames
([shape] polyline, theory (1.6.4)): leg 1 from the clamp at the origin along e3 to the elbow at
s = 10 m, leg 2 from there along -e2 to the free end at s = 20 m, each exactly 10 m long.

  python3 meshes/right_angle/make_polyline.py [A] > polyline.csv

One row at every node s_a = a ds (clamped-free: ds = 20/(A - 1/2), theory §3.4), so that the
kink lies between two rows and is not smoothed by the interpolation between rows; leg 1's frame
is the identity, leg 2's the turn by pi/2 about e1 (d3 = -e2). For odd A the elbow s = 10 falls
a quarter of the way from node (A - 1)/2 to the next (10 = ((A - 1)/2 + 1/4) ds): that segment's
eta0 holds the corner (theory (1.6.4)). The ghost node A beyond the free end continues leg 2.
"""
import math
import sys

A = int(sys.argv[1]) if len(sys.argv) > 1 else 21
L, ELBOW = 20.0, 10.0
ds = L / (A - 0.5)
c = math.cos(math.pi / 4)
print("# right_angle: stress-free shape, one row per node a = 0..%d at s = a ds, ds = 20/(A - 1/2)" % A)
print("# = %.17g m (meshes/right_angle/make_polyline.py %d); elbow at s = 10 m, legs of 10 m" % (ds, A))
print("s,x,y,z,qw,qx,qy,qz")
for a in range(A + 1):
    s = a * ds
    if s <= ELBOW:
        print("%.17g,0,0,%.17g,1,0,0,0" % (s, s))
    else:
        print("%.17g,0,%.17g,10,%.17g,%.17g,0,0" % (s, -(s - ELBOW), c, c))
