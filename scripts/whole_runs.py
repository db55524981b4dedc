#!/usr/bin/env python3
"""Whole `field simulate` processes, as a user runs them (docs/performance.md, "Whole runs").

Runs free_flight as shipped and refined free_flight beams (theory §11.1 with A nodes,
ds = 1/A m, dt = ds/20 s: c_E dt/ds = 0.5 as shipped, J rows) with the default outputs and with
every optional output off, on one thread, and prints the median wall time of the whole process,
its CPU time (user + system: less sensitive than the wall time to other processes on a shared
machine), node updates per second, peak resident memory and the bytes written, as a Markdown
table. The runs with and without outputs are interleaved.

  python3 scripts/whole_runs.py [--field build/release/bin/field] [--runs 5] [--cases ...]
                                [--work DIR]
  cases: "shipped" or A:J (e.g. 100:10000); default: shipped 100:10000 20:100000
  --work: where the cases and run folders go (default: a temporary folder; /dev/shm takes the
  file system's cost of creating files out of the figures)
"""
import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def refined_case(folder, A, J, outputs_off):
    """A free_flight case with A nodes and J rows in `folder` (case.toml + velocities.csv)."""
    ds = 1.0 / A
    dt = ds / 20.0
    L = A * ds
    with open(os.path.join(folder, "velocities.csv"), "w") as f:
        f.write("a,w1,w2,w3,v1,v2,v3\n")
        for a in range(A + 1):  # xi(s) of theory §11.1 at s = (a + 1/2) ds
            s = (a + 0.5) * ds
            c, n = math.cos(math.pi * s / L), math.sin(math.pi * s / L)
            xi = (0.0, 1.0 + 0.3 * (math.pi / L) * c, 5.0 * c, 1.0 * (s - L / 2) + 0.3 * n, 0.5, 0.0)
            f.write("%d,%s\n" % (a, ",".join(repr(v) for v in xi)))
    output = "\n[output]\ncsv = false\nvtk = false\ntip = false\n" if outputs_off else ""
    with open(os.path.join(folder, "case.toml"), "w") as f:
        f.write("""format = 1
name = "free_flight_%d_%d"
march = "time"
[beam]
section = "square"
side = 0.1
E = 1.0e5
nu = 0.35
rho = 1000.0
[grid]
A = %d
ds = %r
dt = %r
J = %d
[boundary]
left = "free"
right = "free"
[initial]
configuration = "straight"
velocity = "file"
velocity_file = "velocities.csv"
%s""" % (A, J, A, ds, dt, J, output))
    return os.path.join(folder, "case.toml")


def shipped_case(folder, outputs_off):
    src = os.path.join(ROOT, "meshes", "free_flight")
    for name in ("case.toml", "velocities.csv"):
        shutil.copy(os.path.join(src, name), folder)
    if outputs_off:
        text = open(os.path.join(folder, "case.toml")).read()
        text = text.replace("[output]\n", "[output]\ncsv = false\nvtk = false\ntip = false\n")
        open(os.path.join(folder, "case.toml"), "w").write(text)
    return os.path.join(folder, "case.toml")


def folder_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total


def idle_seconds():
    """The machine's idle time so far, all cores together [s] (/proc/stat; 0 where there is none)."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return int(fields[4]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def run_once(field, case, out):
    shutil.rmtree(out, ignore_errors=True)
    idle = idle_seconds()
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", field, "simulate", case, "--out", out,
                           "--threads", "1", "--quiet"], capture_output=True, text=True)
    wall = time.perf_counter() - start
    idle = idle_seconds() - idle
    if proc.returncode != 0:
        sys.exit("field failed on %s:\n%s" % (case, proc.stderr))
    rss, user, system = proc.stderr.strip().splitlines()[-1].split()
    updates = next(float(line.split()[0]) for line in proc.stdout.splitlines()
                   if "node updates in" in line)
    return wall, int(rss), updates, folder_bytes(out), float(user) + float(system), idle


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", default=os.path.join(ROOT, "build/release/bin/field"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cases", nargs="*", default=["shipped", "100:10000", "20:100000"])
    parser.add_argument("--work", default=None)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="field-whole-runs-", dir=args.work)
    print("| case | outputs | wall (median of %d) | CPU (median) | node updates/s (wall) | peak RSS "
          "| written | idle cores (median) |" % args.runs)
    print("|---|---|---|---|---|---|---|---|")
    try:
        for name in args.cases:
            results = {}
            cases = {}
            for off in (False, True):
                folder = os.path.join(work, "%s-%s" % (name.replace(":", "_"), "off" if off else "on"))
                os.makedirs(folder)
                if name == "shipped":
                    cases[off] = shipped_case(folder, off)
                else:
                    A, J = (int(v) for v in name.split(":"))
                    cases[off] = refined_case(folder, A, J, off)
                results[off] = []
            for _ in range(args.runs):  # interleaved: on, off, on, off, ...
                for off in (False, True):
                    out = os.path.join(work, "run")
                    results[off].append(run_once(args.field, cases[off], out))
            label = "free_flight as shipped" if name == "shipped" else "A = %s, J = %s" % tuple(name.split(":"))
            for off in (False, True):
                r = results[off]
                wall = statistics.median(x[0] for x in r)
                cpu = statistics.median(x[4] for x in r)
                idle = statistics.median(x[5] for x in r)
                print("| %s | %s | %.3f s | %.2f s | %.3g M/s | %.1f MiB | %.1f MB | %.2f s |" % (
                    label, "off" if off else "default", wall, cpu, r[0][2] / wall / 1e6,
                    max(x[1] for x in r) / 1024.0, r[0][3] / 1e6, idle))
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
