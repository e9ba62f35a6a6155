#!/usr/bin/env python3
"""benchplot.py: SVG pictures from bench's serial logs: QD1 latency CDF and histogram, IOPS against queue depth.

    tools/benchplot.py [--out DIR] [--format svg|png] LOGDIR

Reads LOGDIR/KERNEL-DISK-RUN.log (tools/bench.mk writes them): the "HIST DISK qd1_lat_ns
LO:COUNT ..." lines (bench's QD1 latency histogram, log-linear buckets whose lower
bound LO is in ns) and the "RESULT DISK qd_sweep_D_iops VALUE" lines.  The runs of one
kernel and disk are merged: histograms are summed, IOPS are shown as the median with
the min-max range.  Writes into DIR (default LOGDIR/plots):

    qd1_latency_cdf.svg    share of QD1 reads completed within x us, per disk
    qd1_latency_hist.svg   share of QD1 reads per latency bucket, per disk
    qd_sweep_iops.svg      IOPS of random 4 KiB reads at depths 1..128, per disk

aiokern and Linux side by side where both ran; QEMU's null-co disk (no disk work) as
the dotted line of each kernel.  Uses Debian's python3-matplotlib (tools/deps.sh).
Status 1 when no log has anything to draw.
"""
import argparse
import os
import re
import statistics
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

KERNELS = {"aiokern": "C0", "linux": "C1"}
LABELS = {"aiokern": "aiokern", "linux": "Linux"}
PANELS = ["virtio", "ide"]              # one subplot each; DISK_null drawn in the same one
LOGNAME = re.compile(r"^(aiokern|linux)-([a-z0-9_]+)-\d+\.log$")
HIST = re.compile(r"^HIST (\S+) qd1_lat_ns((?: \d+:\d+)+)\s*$")
SWEEP = re.compile(r"^RESULT (\S+) qd_sweep_(\d+)_iops (\S+)\s*$")


def parse(logdir):
    """hists[(kernel, disk)] = {lo_ns: count}; sweeps[(kernel, disk)][depth] = [iops per run]."""
    hists, sweeps = {}, {}
    for name in sorted(os.listdir(logdir)):
        m = LOGNAME.match(name)
        if not m:
            continue
        key = (m.group(1), m.group(2))
        with open(os.path.join(logdir, name), errors="replace") as f:
            for line in f:
                line = line.replace("\r", "")
                h = HIST.match(line)
                if h and h.group(1) == key[1]:
                    hist = hists.setdefault(key, {})
                    for item in h.group(2).split():
                        lo, n = map(int, item.split(":"))
                        hist[lo] = hist.get(lo, 0) + n
                s = SWEEP.match(line)
                if s and s.group(1) == key[1]:
                    sweeps.setdefault(key, {}).setdefault(int(s.group(2)), []).append(
                        float(s.group(3)))
    return hists, sweeps


def series(kernel, disk):
    """Line style and legend label of one kernel on one disk (null-co dotted)."""
    null = disk.endswith("_null")
    label = LABELS[kernel] + (" (null-co)" if null else "")
    return dict(color=KERNELS[kernel], linestyle=":" if null else "-",
                linewidth=1.2 if null else 1.8, label=label)


def curves(data, panel):
    """The (kernel, disk) keys of data drawn in panel, in a fixed order."""
    return [(k, d) for d in (panel, panel + "_null") for k in KERNELS if (k, d) in data]


def panels(title, sharey=True):
    fig, axes = plt.subplots(1, len(PANELS), figsize=(10, 4), sharey=sharey)
    fig.suptitle(title)
    return fig, axes


def save(fig, path):
    fig.tight_layout()
    meta = {"Date": None} if path.endswith(".svg") else {}   # SVG: no time stamp, reruns diff cleanly
    fig.savefig(path, metadata=meta, dpi=80)
    plt.close(fig)
    print(f"  PLOT    {path}")


def hist_points(hist):
    """(latencies in us, counts, total) of a histogram, in bucket order."""
    los = sorted(hist)
    counts = [hist[lo] for lo in los]
    return [lo / 1000 for lo in los], counts, sum(counts)


def plot_cdf(hists, path):
    fig, axes = panels("QD1 random 4 KiB reads: share completed within a latency")
    for ax, panel in zip(axes, PANELS):
        for kernel, disk in curves(hists, panel):
            xs, counts, total = hist_points(hists[(kernel, disk)])
            acc, ys = 0, []
            for c in counts:
                acc += c
                ys.append(acc / total)
            ax.plot(xs, ys, drawstyle="steps-post", **series(kernel, disk))
        finish_latency_axes(ax, panel, "share of reads (CDF)")
    save(fig, path)


def plot_hist(hists, path):
    fig, axes = panels("QD1 random 4 KiB reads: latency histogram (buckets 1/16 octave)")
    for ax, panel in zip(axes, PANELS):
        for kernel, disk in curves(hists, panel):
            xs, counts, total = hist_points(hists[(kernel, disk)])
            ax.plot(xs, [c / total for c in counts], drawstyle="steps-mid", **series(kernel, disk))
        finish_latency_axes(ax, panel, "share of reads per bucket")
    save(fig, path)


def finish_latency_axes(ax, panel, ylabel):
    ax.set_xscale("log")
    ax.set_xlabel("latency (us, log scale)")
    ax.set_title(panel)
    ax.grid(True, which="both", alpha=0.3)
    if panel == PANELS[0]:
        ax.set_ylabel(ylabel)
    if ax.lines:
        ax.legend(fontsize="small")


def plot_sweep(sweeps, path):
    fig, axes = panels("Random 4 KiB reads: IOPS against queue depth (median, min-max bars)",
                       sharey=False)     # IDE's IOPS are a fraction of virtio's
    for ax, panel in zip(axes, PANELS):
        for kernel, disk in curves(sweeps, panel):
            runs = sweeps[(kernel, disk)]
            depths = sorted(runs)
            med = [statistics.median(runs[d]) for d in depths]
            err = [[m - min(runs[d]) for d, m in zip(depths, med)],
                   [max(runs[d]) - m for d, m in zip(depths, med)]]
            ax.errorbar(depths, med, yerr=err, marker="o", markersize=3, capsize=2,
                        **series(kernel, disk))
        ax.set_xscale("log", base=2)
        ax.set_xticks([1, 2, 4, 8, 16, 32, 64, 128])
        ax.set_xticklabels(["1", "2", "4", "8", "16", "32", "64", "128"])
        ax.set_xlabel("requests in flight")
        ax.set_title(panel)
        ax.grid(True, alpha=0.3)
        ax.set_ylim(bottom=0)
        if panel == PANELS[0]:
            ax.set_ylabel("IOPS")
        if ax.lines:
            ax.legend(fontsize="small")
    save(fig, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("logdir")
    ap.add_argument("--out", help="where the SVG files go (default LOGDIR/plots)")
    ap.add_argument("--format", choices=["svg", "png"], default="svg")
    opts = ap.parse_args()
    out = opts.out or os.path.join(opts.logdir, "plots")
    hists, sweeps = parse(opts.logdir)
    if not hists and not sweeps:
        print(f"benchplot: nothing to draw in {opts.logdir} (no HIST or qd_sweep lines)",
              file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "aiokern"           # stable ids in the SVG
    plt.rcParams["svg.fonttype"] = "none"              # text stays text (smaller, searchable)
    if hists:
        plot_cdf(hists, os.path.join(out, f"qd1_latency_cdf.{opts.format}"))
        plot_hist(hists, os.path.join(out, f"qd1_latency_hist.{opts.format}"))
    if sweeps:
        plot_sweep(sweeps, os.path.join(out, f"qd_sweep_iops.{opts.format}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
