#!/usr/bin/env python3
"""benchtable.py: the benchmark table (median, min, max per kernel; aiokern/Linux ratio) from bench's serial logs.

    tools/benchtable.py [--markdown] [--require KERNEL ...] [--no-boot] [--paired] DIR

Reads DIR/KERNEL-DISK-RUN.log (tools/bench.mk writes them; KERNEL is aiokern or linux) and
their "RESULT DISK METRIC VALUE" lines, and DIR/KERNEL-boot.log (tools/boottime.py: one
"RESULT boot METRIC SECONDS" line per boot and metric), shown as the rows of disk "boot" with
issue 9's absolute targets.  The disks virtio_null and ide_null are QEMU's null-co driver
(no disk work): a second table gives, per kernel, each real disk's median as a share of
its null-co median, i.e. how close the kernel gets to what QEMU allows.  The disk ext2
(bench --ext2: file AIO on an ext2 image, issue 18) has rows of its own and a third table:
each kernel's O_DIRECT file figures against its raw device in the same boot.  Status 1 when a run reported io_errors or verify_errors other
than 0, or when a --require'd kernel has a run without complete results (for aiokern: also
no boot times).
"""
import argparse
import glob
import os
import re
import statistics
import sys

KERNELS = ["aiokern", "linux"]
DISKS = ["virtio", "ide", "virtio_null", "ide_null", "ide_2ch", "ext2"]
OPTIONAL_DISKS = {"virtio_null", "ide_null", "ide_2ch", "ext2"}     # BENCH_DISKS may leave them out
SWEEP_DEPTHS = [1, 2, 4, 8, 16, 32, 64, 128]
SWEEP_METRICS = [f"qd_sweep_{d}_iops" for d in SWEEP_DEPTHS]
METRICS = ["qd1_iops", "qd1_lat_p50_us", "qd1_lat_p99_us", "qd32_iops", "qd32_t2_iops", "qd32_t4_iops",
           "qd32_two_disks_iops", "seq64k_qd8_MBps",
           *SWEEP_METRICS,
           "submit_ebadf_ns", "getevents_idle_ns", "setup_destroy_us", "null_syscall_ns",
           "thread_create_join_us", "mutex_uncontended_ns", "futex_wake_to_run_us",
           "signal_round_trip_us",
           "noop_submit_reap_ns", "noop_qd32_ops_per_s", "ring_reap_ns",
           "io_errors", "verify_errors"]
ERROR_METRICS = ("io_errors", "verify_errors")
# bench --ext2 (disk ext2): the raw device, then file AIO on the image (user/bin/bench.c).
EXT2_METRICS = ["raw_qd1_lat_p50_us", "raw_qd1_lat_p99_us", "raw_qd32_iops",
                "direct_qd1_iops", "direct_qd1_lat_p50_us", "direct_qd1_lat_p99_us",
                "direct_qd32_iops", "warm_qd32_iops", "warm_qd32_peak_iops",
                "warm_inside_submit_pct",
                "cold_qd32_iops", "cold_submit_p50_us", "cold_submit_p99_us", "cold_submit_max_us",
                "seq_write_MBps", "seq_rewrite_MBps", "seq_read_MBps", "seq_bufread_MBps",
                "io_errors", "verify_errors"]
# Rows of the file-against-raw table: (file metric, raw metric, True when higher is better).
EXT2_RAW = [("direct_qd1_lat_p50_us", "raw_qd1_lat_p50_us", False),
            ("direct_qd1_lat_p99_us", "raw_qd1_lat_p99_us", False),
            ("direct_qd32_iops", "raw_qd32_iops", True)]
EXT2_RAW_TARGET = 0.9                               # issue 18: within 10 % of the raw device
# Printed only on the disks that run them (ide_2ch: bench --second, two IDE channels).
WHERE_RUN = {"qd32_two_disks_iops"}
AIOKERN_ONLY = {"noop_submit_reap_ns", "noop_qd32_ops_per_s", "ring_reap_ns"}
SYSCALL_TARGET = ("<=", 0.2)
# Goals for the ratio aiokern / Linux (issue 9), per disk.
TARGETS = {
    ("virtio", "qd1_lat_p50_us"): ("<=", 0.5),
    ("virtio", "qd32_iops"): (">=", 2.0),
    ("virtio", "seq64k_qd8_MBps"): (">=", 1.5),
    ("ide", "qd1_lat_p50_us"): ("<=", 0.67),
    ("ide", "qd32_iops"): (">=", 1.5),
    ("ide", "seq64k_qd8_MBps"): (">=", 1.1),
}
# Issue 18's goals on the ext2 disk, aiokern / Linux.
TARGETS.update({("ext2", "direct_qd1_lat_p50_us"): ("<=", 0.5),
                ("ext2", "direct_qd32_iops"): (">=", 2.0),
                ("ext2", "warm_qd32_iops"): (">=", 3.0)})
for _d in ("virtio", "ide"):
    for _m in ("submit_ebadf_ns", "getevents_idle_ns", "null_syscall_ns"):
        TARGETS[(_d, _m)] = SYSCALL_TARGET

# Boot time (tools/boottime.py), seconds: from spawning QEMU to init's first line, and its
# parts. Absolute targets (issue 9), not ratios.
BOOT_METRICS = ["boot_kernel_first_user_line_s", "boot_kernel_qemu_start_s",
                "boot_kernel_firmware_loader_s", "boot_kernel_kernel_s", "boot_kernel_init_s",
                "boot_iso_first_user_line_s", "boot_iso_qemu_start_s", "boot_iso_grub_ready_s",
                "boot_iso_grub_load_s", "boot_iso_kernel_s", "boot_iso_init_s"]
BOOT_TARGETS = {"boot_kernel_first_user_line_s": 0.3, "boot_iso_first_user_line_s": 1.0}

RESULT = re.compile(r"^RESULT (\S+) (\S+) (\S+)\s*$")
LOGNAME = re.compile(r"^([a-z]+)-([a-z0-9_]+)-(\d+)\.log$")
# Rows of the null-co table: (metric, True when higher is better).
LIMIT_METRICS = [("qd1_iops", True), ("qd1_lat_p50_us", False), ("qd32_iops", True),
                 ("seq64k_qd8_MBps", True), ("qd_sweep_128_iops", True)]


def parse_log(path):
    """{(disk, metric): value} of one log."""
    found = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = RESULT.match(line.replace("\r", ""))
            if m:
                try:
                    found[(m.group(1), m.group(2))] = float(m.group(3))
                except ValueError:
                    pass
    return found


def load(directory):
    """runs[kernel][disk] = list of (log name, {(disk, metric): value})."""
    runs = {k: {d: [] for d in DISKS} for k in KERNELS}
    for path in sorted(glob.glob(os.path.join(directory, "*.log"))):
        m = LOGNAME.match(os.path.basename(path))
        if m and m.group(1) in runs and m.group(2) in DISKS:
            runs[m.group(1)][m.group(2)].append((os.path.basename(path), parse_log(path)))
    return runs


def load_boot(directory):
    """boot[kernel][metric] = [seconds per boot] from DIR/KERNEL-boot.log."""
    boot = {k: {} for k in KERNELS}
    for kernel in KERNELS:
        path = os.path.join(directory, f"{kernel}-boot.log")
        if not os.path.exists(path):
            continue
        with open(path, errors="replace") as f:
            for line in f:
                m = RESULT.match(line)
                if m and m.group(1) == "boot":
                    boot[kernel].setdefault(m.group(2), []).append(float(m.group(3)))
    return boot


def boot_cell(vals, kernel):
    if not vals:
        return "pending" if kernel == "aiokern" else "n/a"
    return (f"{statistics.median(vals):.3f} [{min(vals):.3f}-{max(vals):.3f}] "
            f"n={len(vals)}")


def boot_rows(boot):
    """Rows of disk "boot": median [min-max] seconds, the absolute target and its verdict."""
    out = []
    for metric in BOOT_METRICS:
        a, l = boot["aiokern"].get(metric), boot["linux"].get(metric)
        target = ""
        if metric in BOOT_TARGETS:
            target = f"<= {BOOT_TARGETS[metric]} s"
            if a:
                target += " met" if statistics.median(a) <= BOOT_TARGETS[metric] else " not met"
        out.append(["boot", metric, boot_cell(a, "aiokern"), boot_cell(l, "linux"), "", target])
    return out


def fmt(v):
    if v >= 100:
        return f"{v:.0f}"
    return f"{v:.1f}" if v >= 10 else f"{v:.2f}"


def summary(runs, kernel, disk, metric):
    """(median, min, max, n) over the runs that printed the metric, or None."""
    vals = [r[(disk, metric)] for _, r in runs[kernel][disk] if (disk, metric) in r]
    if not vals:
        return None
    return statistics.median(vals), min(vals), max(vals), len(vals)


def cell(s, kernel, metric):
    if s is None:
        if kernel == "linux" and metric in AIOKERN_ONLY:
            return "n/a"
        return "pending" if kernel == "aiokern" else "-"
    med, lo, hi, n = s
    if metric in ERROR_METRICS:
        return f"{hi:.0f} (worst of n={n})"
    return f"{fmt(med)} [{fmt(lo)}-{fmt(hi)}] n={n}"


def run_index(name):
    """The N of KERNEL-DISK-N.log."""
    m = re.search(r"-(\d+)\.log$", name)
    return int(m.group(1)) if m else None


def paired_ratios(runs, disk, metric):
    """aiokern/Linux for each run number both kernels have (make bench-compare boots
    them one after the other, so each pair saw the same host)."""
    lx = {run_index(n): r[(disk, metric)] for n, r in runs["linux"][disk] if (disk, metric) in r}
    out = []
    for n, r in runs["aiokern"][disk]:
        i = run_index(n)
        if (disk, metric) in r and lx.get(i):
            out.append(r[(disk, metric)] / lx[i])
    return out


def ratio_cells(disk, metric, a, l, pairs=None):
    """Ratio aiokern/Linux and the target with its verdict: the ratio of the medians, or
    with pairs, the median of the per-pair ratios [min-max]."""
    goal = TARGETS.get((disk, metric))
    target = f"{goal[0]} {goal[1]}x" if goal else ""
    if pairs:
        r = statistics.median(pairs)
        text = f"{r:.2f}x [{min(pairs):.2f}-{max(pairs):.2f}]"
    elif not a or not l or l[0] == 0:
        return "", target
    else:
        r = a[0] / l[0]
        text = f"{r:.2f}x"
    if goal:
        met = r <= goal[1] if goal[0] == "<=" else r >= goal[1]
        target += " met" if met else " not met"
    return text, target


def rows(runs, paired=False):
    out = []
    for disk in DISKS:
        if not runs["aiokern"][disk] and not runs["linux"][disk]:
            continue
        for metric in EXT2_METRICS if disk == "ext2" else METRICS:
            a = summary(runs, "aiokern", disk, metric)
            l = summary(runs, "linux", disk, metric)
            if metric in WHERE_RUN and a is None and l is None:
                continue
            pairs = paired_ratios(runs, disk, metric) if paired else None
            ratio, target = ("", "") if metric in ERROR_METRICS else \
                ratio_cells(disk, metric, a, l, pairs)
            out.append([disk, metric, cell(a, "aiokern", metric), cell(l, "linux", metric),
                        ratio, target])
    return out


HEAD = ["disk", "metric", "aiokern median [min-max]", "Linux median [min-max]",
        "aiokern/Linux", "target"]
LIMIT_HEAD = ["disk", "metric", "aiokern / its null-co", "Linux / its null-co"]


def limit_cell(runs, kernel, disk, metric, higher_better):
    """The kernel's median on disk as a share of its median on disk's null-co twin:
    "63% (12278 of 19480)"; for a latency, null-co's over the disk's (100% = no cost)."""
    real = summary(runs, kernel, disk, metric)
    null = summary(runs, kernel, disk + "_null", metric)
    if not real or not null or not real[0] or not null[0]:
        return "-"
    share = real[0] / null[0] if higher_better else null[0] / real[0]
    return f"{100 * share:.0f}% ({fmt(real[0])} of {fmt(null[0])})" if higher_better else \
        f"{100 * share:.0f}% ({fmt(null[0])} of {fmt(real[0])})"


def limit_rows(runs):
    """How far each kernel is from QEMU's limit: rows only for disks with a null-co run."""
    out = []
    for disk in ("virtio", "ide"):
        if not any(runs[k][disk + "_null"] for k in KERNELS):
            continue
        for metric, higher in LIMIT_METRICS:
            out.append([disk, metric, limit_cell(runs, "aiokern", disk, metric, higher),
                        limit_cell(runs, "linux", disk, metric, higher)])
    return out


EXT2_HEAD = ["metric", "aiokern file / raw", "Linux file / raw", "target (aiokern)"]


def ext2_cell(runs, kernel, fmetric, rmetric, higher_better):
    """The kernel's median file figure as a share of its raw-device median ("94% (...)"):
    for a latency raw over file (100% = the file costs nothing more); None without both."""
    f = summary(runs, kernel, "ext2", fmetric)
    r = summary(runs, kernel, "ext2", rmetric)
    if not f or not r or not f[0] or not r[0]:
        return None, "-"
    share = f[0] / r[0] if higher_better else r[0] / f[0]
    return share, f"{100 * share:.0f}% ({fmt(f[0])} against {fmt(r[0])})"


def ext2_rows(runs):
    """O_DIRECT file AIO against the raw device, each kernel in its own boots."""
    out = []
    for fmetric, rmetric, higher in EXT2_RAW:
        share, a = ext2_cell(runs, "aiokern", fmetric, rmetric, higher)
        _, l = ext2_cell(runs, "linux", fmetric, rmetric, higher)
        verdict = "" if share is None else (" met" if share >= EXT2_RAW_TARGET else " not met")
        out.append([fmetric, a, l, f">= {100 * EXT2_RAW_TARGET:.0f}%{verdict}"])
    return out


def print_table(table, markdown, head=HEAD):
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for row in table:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(str(r[i])) for r in table + [head]) for i in range(len(head))]
    for row in [head] + table:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())


def problems(runs, required, boot, want_boot=True, disks=None):
    """Messages about runs with errors or (for required kernels) missing results; disks:
    the ones that should have run (default: every disk not optional)."""
    msgs = []
    if "aiokern" in required and want_boot:
        msgs += [f"no {m} in aiokern-boot.log" for m in BOOT_TARGETS if not boot["aiokern"].get(m)]
    for kernel in KERNELS:
        for disk in DISKS:
            for name, res in runs[kernel][disk]:
                for metric in ERROR_METRICS:
                    v = res.get((disk, metric))
                    if v is None and kernel in required:
                        msgs.append(f"{name}: no {metric} line (the run did not finish)")
                    elif v:
                        msgs.append(f"{name}: {metric} = {v:.0f}")
            wanted = disk in disks if disks else disk not in OPTIONAL_DISKS
            if kernel in required and not runs[kernel][disk] and wanted:
                msgs.append(f"no {kernel}-{disk}-*.log")
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--require", action="append", default=[], choices=KERNELS)
    ap.add_argument("--no-boot", action="store_true",
                    help="leave the boot-time rows out (make bench-compare does not boot-time)")
    ap.add_argument("--paired", action="store_true",
                    help="ratio = median of per-run aiokern/Linux ratios (runs booted in turn)")
    ap.add_argument("--disks", default="",
                    help="the disks that ran (BENCH_DISKS): each must have its logs")
    opts = ap.parse_args()
    runs = load(opts.dir)
    boot = load_boot(opts.dir)
    print_table(rows(runs, opts.paired) + ([] if opts.no_boot else boot_rows(boot)), opts.markdown)
    limits = limit_rows(runs)
    if limits:
        print("\nShare of QEMU's limit (the same kernel on null-co; latency: null-co's / the disk's):")
        print_table(limits, opts.markdown, LIMIT_HEAD)
    if any(runs[k]["ext2"] for k in KERNELS):
        print("\next2 file AIO against the raw device in the same boots (latency: raw's / the file's):")
        print_table(ext2_rows(runs), opts.markdown, EXT2_HEAD)
    msgs = problems(runs, opts.require, boot, not opts.no_boot, opts.disks.split())
    for msg in msgs:
        print(f"benchtable: {msg}", file=sys.stderr)
    return 1 if msgs else 0


if __name__ == "__main__":
    sys.exit(main())
