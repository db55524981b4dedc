#!/usr/bin/env python3
"""Wall time and CPU time of each thread of whole `field simulate` runs (docs/performance.md,
"Whole runs"): the march's thread, then the output threads in the order they start (with
field.csv, its writer thread, then the thread of the series diagnostics, tip.csv and the VTK
files; io/writer_thread.hpp, apps/time_march_run.cpp), sampled from /proc/PID/task/TID/stat every 5 ms until the process ends (the kernel counts in
ticks of 10 ms). Runs the modes interleaved and prints the medians:

  before      BEFORE binary (optional), as is
  sync        FIELD_WRITER_THREAD=0: every output on the march's thread
  thread      the default: the outputs on their threads
  sync-pin, thread-pin   the same, the process pinned to core 0 (taskset -c 0)

    python3 scripts/thread_times.py --runs 5 --field build/bin/field /dev/shm/c20/case.toml
"""
import argparse
import os
import shutil
import statistics
import subprocess
import time

TICK = os.sysconf("SC_CLK_TCK")


def run(binary, case, env_extra, pin, out):
    """One run: (wall seconds, [CPU seconds of each thread, in thread id order])."""
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, **env_extra)
    cmd = (["taskset", "-c", pin] if pin else []) + [
        binary, "simulate", "-q", "--threads", "1", "--out", out, case]
    start = time.time()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    last = {}
    while p.poll() is None:
        try:
            tids = os.listdir(f"/proc/{p.pid}/task")
        except OSError:
            tids = []
        for tid in tids:
            try:
                with open(f"/proc/{p.pid}/task/{tid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                last[int(tid)] = (int(fields[11]) + int(fields[12])) / TICK  # utime + stime
            except OSError:
                pass
        time.sleep(0.005)
    wall = time.time() - start
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited with {p.returncode}")
    return wall, [last[t] for t in sorted(last)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("case")
    ap.add_argument("--field", default="build/bin/field")
    ap.add_argument("--before", help="another binary to run as is (mode 'before')")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default="/dev/shm/thread_times_run")
    ap.add_argument("--modes", help="comma-separated subset of the modes to run (default: all)")
    args = ap.parse_args()
    modes = [("sync", args.field, {"FIELD_WRITER_THREAD": "0"}, None),
             ("thread", args.field, {}, None),
             ("sync-pin", args.field, {"FIELD_WRITER_THREAD": "0"}, "0"),
             ("thread-pin", args.field, {}, "0")]
    if args.before:
        modes.insert(0, ("before", args.before, {}, None))
    if args.modes:
        modes = [m for m in modes if m[0] in args.modes.split(",")]
    results = {m[0]: [] for m in modes}
    print("load average at start:", os.getloadavg())
    for _ in range(args.runs):
        for name, binary, env, pin in modes:
            results[name].append(run(binary, args.case, env, pin, args.out))
    print("load average at end:", os.getloadavg())
    for name, runs in results.items():
        walls = sorted(w for w, _ in runs)
        n = max(len(c) for _, c in runs)
        per = [statistics.median(c[k] for _, c in runs if len(c) > k) for k in range(n)]
        print(f"{name:11s} wall median {statistics.median(walls):.2f} s (min {walls[0]:.2f}), "
              f"CPU per thread (medians) {', '.join('%.2f' % c for c in per)} s, "
              f"total {statistics.median(sum(c) for _, c in runs):.2f} s")
    shutil.rmtree(args.out, ignore_errors=True)


if __name__ == "__main__":
    main()
