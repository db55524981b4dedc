#!/usr/bin/env python3
"""Merges the Google Benchmark JSON files of scripts/bench.sh into bench.json and prints the
summary table of docs/performance.md (medians over the repetitions).

    python3 scripts/bench_summary.py OUT_DIR bench_lie bench_node_solver bench_march
"""
import json
import re
import sys
from pathlib import Path


def medians(benchmarks):
    """name -> run (the median aggregate when there are repetitions, else the single run)."""
    runs = {}
    for b in benchmarks:
        name = b.get("run_name", b["name"])
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                runs[name] = b
        elif name not in runs:
            runs[name] = b
    return runs


def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main():
    out = Path(sys.argv[1])
    merged = {"context": None, "benchmarks": []}
    for name in sys.argv[2:]:
        text = (out / f"{name}.json").read_text()
        if not text.strip():
            continue  # a FILTER that matched nothing in this executable
        data = json.loads(text)
        merged["context"] = merged["context"] or data["context"]
        for b in data["benchmarks"]:
            b["executable"] = name
            merged["benchmarks"].append(b)
    (out / "bench.json").write_text(json.dumps(merged, indent=1))
    runs = medians(merged["benchmarks"])
    to_ns = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}

    print("\nitems/s use real time for the march benchmarks (UseRealTime), CPU time otherwise;"
          "\nCPU time shows what a core delivers when other jobs share the machine.")
    print(f"\n{'benchmark':58s} {'real':>10s} {'cpu':>10s} {'items/s':>12s} {'newton':>7s}")
    for name, b in runs.items():
        unit = to_ns[b.get("time_unit", "ns")]
        ips = b.get("items_per_second")
        newton = b.get("newton_per_node", b.get("newton"))
        print(f"{name:58s} {fmt_time(b['real_time'] * unit):>10s} "
              f"{fmt_time(b['cpu_time'] * unit):>10s} "
              f"{(f'{ips:.4g}' if ips else ''):>12s} {(f'{newton:.2f}' if newton else ''):>7s}")

    print("\nnode updates per second (real time, median), speed-up 2 vs 1 thread;"
          " last column: 1 thread by CPU time")
    print(f"{'march':6s} {'nodes':>6s} {'1 thread':>12s} {'2 threads':>12s} {'speed-up':>9s}"
          f" {'1 thr cpu':>12s}")
    for march in ("time", "space"):
        for n in (10, 100, 1000, 10000):
            r = [runs.get(f"BM_{march}_slab/nodes:{n}/threads:{t}/kernel:0/real_time")
                 for t in (1, 2)]
            if not all(r):
                continue
            u = [x["items_per_second"] for x in r]
            cpu = u[0] * r[0]["real_time"] / r[0]["cpu_time"]
            print(f"{march:6s} {n:6d} {u[0]:12.4g} {u[1]:12.4g} {u[1] / u[0]:9.2f} {cpu:12.4g}")
    print("\none slab alone (BM_one_slab: no march set-up), node updates per second, speed-up")
    for k, march in enumerate(("time", "space")):
        for n in (1000, 10000):
            r = [runs.get(f"BM_one_slab/space:{k}/nodes:{n}/threads:{t}/real_time") for t in (1, 2)]
            if all(r):
                u = [x["items_per_second"] for x in r]
                print(f"{march:6s} {n:6d} {u[0]:12.4g} {u[1]:12.4g} {u[1] / u[0]:9.2f}")

    print("\nnode kernels (march::NodeKernel), 1000 nodes, 1 thread: node updates per second")
    kernels = ("automatic", "lanes_baseline", "lanes_avx2", "per_node")
    print(f"{'march':6s} " + " ".join(f"{k:>15s}" for k in kernels))
    for march in ("time", "space"):
        row = []
        for k in range(4):
            b = runs.get(f"BM_{march}_slab/nodes:1000/threads:1/kernel:{k}/real_time")
            row.append(f"{b['items_per_second']:15.4g}" if b else f"{'':>15s}")
        print(f"{march:6s} " + " ".join(row))
    print(f"\nmerged JSON: {out / 'bench.json'}")


if __name__ == "__main__":
    main()
