#!/usr/bin/env python3
"""benchsmp.py: the SMP benchmark table: each metric at -smp 1, 2, 4 for aiokern and Linux, their ratio, issue 17's targets.

    tools/benchsmp.py [--markdown] N:DIR [N:DIR ...]      e.g. 1:build/bench 2:build/bench-smp2

Each DIR holds one `make bench-compare BENCH_SMP=N` (tools/bench.mk's `make bench-smp` runs
them all): KERNEL-DISK-RUN.log files with "RESULT DISK METRIC VALUE" lines, read with
tools/benchtable.py's parser.  Cells are medians over the runs.  Targets (issue 17): at every
CPU count, virtio QD32 >= 2x Linux's and QD1 p50 <= 0.5x Linux's; with 2 CPUs, aiokern's best
QD32 (1, 2 or 4 submitting threads) >= 1.3x its 1-CPU qd32_iops; the null system call and
io_getevents' idle cost on 4 CPUs no slower than on 1 (within 10 %: the host is noisy).
Status 1 when a directory has no aiokern run or a run reported I/O or verify errors; a
target not met is printed, not an error (the host decides part of it).
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchtable  # noqa: E402

QD32_ROWS = ["qd32_iops", "qd32_t2_iops", "qd32_t4_iops"]
ROWS = ["qd1_lat_p50_us", *QD32_ROWS, "qd32_two_disks_iops", "null_syscall_ns", "getevents_idle_ns"]
DISKS = ["virtio", "ide", "ide_2ch"]     # ide_2ch: two IDE channels (bench --second)


def median(runs, kernel, disk, metric):
    s = benchtable.summary(runs, kernel, disk, metric)
    return s[0] if s else None


def cell(v):
    return "-" if v is None else benchtable.fmt(v)


def table_rows(by_n):
    out = []
    for disk in DISKS:
        for metric in ROWS:
            cells = [(n, median(runs, "aiokern", disk, metric), median(runs, "linux", disk, metric))
                     for n, runs in by_n]
            if all(a is None and l is None for _, a, l in cells):
                continue        # a disk that did not run, a row only ide_2ch has
            for n, a, l in cells:
                ratio = f"{a / l:.2f}" if a and l else "-"
                out.append([disk, metric, str(n), cell(a), cell(l), ratio])
    return out


def best_qd32(runs, disk):
    vals = [median(runs, "aiokern", disk, m) for m in QD32_ROWS]
    vals = [v for v in vals if v]
    return max(vals) if vals else None


def verdicts(by_n):
    """Lines 'target: figures -> met/not met'."""
    out = []
    by = dict(by_n)
    for n, runs in by_n:
        a, l = median(runs, "aiokern", "virtio", "qd32_iops"), median(runs, "linux", "virtio", "qd32_iops")
        if a and l:
            out.append(f"-smp {n}: virtio QD32 {a:.0f} vs Linux {l:.0f} = {a / l:.2f}x "
                       f"(>= 2x: {'met' if a >= 2 * l else 'not met'})")
        a, l = (median(runs, "aiokern", "virtio", "qd1_lat_p50_us"),
                median(runs, "linux", "virtio", "qd1_lat_p50_us"))
        if a and l:
            out.append(f"-smp {n}: virtio QD1 p50 {a:.1f} us vs Linux {l:.1f} us = {a / l:.2f}x "
                       f"(<= 0.5x: {'met' if a <= 0.5 * l else 'not met'})")
    if 1 in by and 2 in by:
        one, two = median(by[1], "aiokern", "virtio", "qd32_iops"), best_qd32(by[2], "virtio")
        if one and two:
            out.append(f"virtio QD32, best of 1/2/4 threads on 2 CPUs {two:.0f} vs 1 CPU {one:.0f} = "
                       f"{two / one:.2f}x (>= 1.3x: {'met' if two >= 1.3 * one else 'not met'})")
    if 1 in by and 4 in by:
        for metric in ("null_syscall_ns", "getevents_idle_ns"):
            one, four = median(by[1], "aiokern", "virtio", metric), median(by[4], "aiokern", "virtio", metric)
            if one and four:
                out.append(f"{metric} on 4 CPUs {four:.0f} ns vs 1 CPU {one:.0f} ns = {four / one:.2f}x "
                           f"(no slower, 10 % noise: {'met' if four <= 1.1 * one else 'not met'})")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("dirs", nargs="+", help="N:DIR")
    args = ap.parse_args()
    by_n, status = [], 0
    for item in args.dirs:
        n, _, directory = item.partition(":")
        runs = benchtable.load(directory)
        if not any(runs["aiokern"][d] for d in DISKS):
            print(f"benchsmp: {directory}: no aiokern run", file=sys.stderr)
            status = 1
        for kernel in benchtable.KERNELS:
            for disk in DISKS:
                for name, r in runs[kernel][disk]:
                    if any(r.get((disk, m), 0) for m in benchtable.ERROR_METRICS):
                        print(f"benchsmp: {directory}/{name}: I/O or verify errors", file=sys.stderr)
                        status = 1
        by_n.append((int(n), runs))
    benchtable.print_table(table_rows(by_n), args.markdown,
                           head=["disk", "metric", "CPUs", "aiokern", "linux", "aiokern/linux"])
    for line in verdicts(by_n):
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
