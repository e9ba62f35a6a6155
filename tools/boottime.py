#!/usr/bin/env python3
"""boottime.py: time from spawning QEMU to the first line a user program prints, booting with -kernel and from the ISO.

    tools/boottime.py [--runs N] [--variants kernel,iso] [--out FILE] [--logdir DIR] [--timeout S]
                      [--cmdline "KERNEL COMMAND LINE"]

The first user line is the first line init (/bin/init, ring 3) prints, "# init: aiokern user
space, N programs"; the kernel's own messages never start with "# init:". The clock starts
just before QEMU is spawned and stops when that line has arrived on the host through QEMU's
serial pipe; QEMU is then terminated (the rest of the boot is not needed).

The kernel prints its timeline just before it starts init ("boot: ms since reset (TSC): kmain
52.6 mm 66.3 ... init 124.6"): the guest's TSC counts from the start of the virtual machine,
so the boot splits into
    qemu_start      spawn -> virtual machine start  (host arrival of the "boot:" line - its "init" stamp)
    firmware_loader reset -> kmain                  (SeaBIOS + QEMU's multiboot loader, or SeaBIOS + GRUB)
    kernel          kmain -> the kernel starts init
    init            the kernel starts init -> init's first line on the host
For the ISO, GRUB's "Booting `aiokern'" line splits firmware_loader into grub_ready (reset ->
GRUB has read its configuration) and grub_load (-> kmain: GRUB reads the kernel and the
initramfs from the CD).

Command lines: the Makefile's (its exported QEMU, QEMU_FLAGS, KERNEL, INITRAMFS, ISO; CMDLINE
from --cmdline, as `make boottime` passes it; the defaults are the Makefile's):
    kernel: $QEMU $QEMU_FLAGS -serial stdio -kernel $KERNEL -initrd $INITRAMFS -append "$CMDLINE"
    iso:    $QEMU $QEMU_FLAGS -serial stdio -boot d -cdrom $ISO      (as `make run`; CMDLINE is in its grub.cfg)
Boots of the variants alternate, so both see the same host load.  Writes one
"RESULT boot METRIC VALUE" line per boot and metric to --out (tools/benchtable.py reads it),
each boot's serial log with host timestamps to --logdir, and a summary (median [min-max]).
Status 1 when a boot did not print the line in time.
"""
import argparse
import os
import re
import select
import shlex
import signal
import statistics
import subprocess
import sys
import time

USER_LINE = re.compile(r"^# init: ")
TIMELINE = re.compile(r"^boot: ms since reset \(TSC\):((?: \S+ [0-9.]+)+)\s*$")
GRUB_BOOTING = re.compile(r"Booting `")
TARGETS = {"kernel": 0.3, "iso": 1.0}	# issue 9, seconds
PARTS = {"kernel": ["qemu_start", "firmware_loader", "kernel", "init"],
         "iso": ["qemu_start", "grub_ready", "grub_load", "kernel", "init"]}


def command(variant, env):
    """The QEMU command line of one variant, from the Makefile's variables."""
    base = [env["QEMU"]] + shlex.split(env["QEMU_FLAGS"]) + ["-serial", "stdio"]
    if variant == "kernel":
        return base + ["-kernel", env["KERNEL"], "-initrd", env["INITRAMFS"],
                       "-append", env["CMDLINE"]]
    return base + ["-boot", "d", "-cdrom", env["ISO"]]


def stop(proc):
    """Terminate QEMU (SIGTERM: it exits at once) and reap it."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def boot_once(cmd, timeout):
    """Boot once: [(host seconds since spawn, line)], and the time of the first user line or None."""
    lines, pending, found = [], b"", None
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    fd = proc.stdout.fileno()
    try:
        while found is None:
            left = timeout - (time.monotonic() - t0)
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            chunk = os.read(fd, 4096)	# QEMU writes serial bytes as the guest sends them
            now = time.monotonic() - t0
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                line = raw.decode(errors="replace").rstrip("\r")
                lines.append((now, line))
                if found is None and USER_LINE.match(line):
                    found = now
    finally:
        stop(proc)
    return lines, found


def analyse(variant, lines, first):
    """{part: seconds} and the guest timeline {mark: ms} of one boot."""
    timeline, t_line, t_grub = {}, None, None
    for t, line in lines:
        m = TIMELINE.match(line)
        if m and t_line is None:
            words = m.group(1).split()
            timeline = {words[i]: float(words[i + 1]) for i in range(0, len(words), 2)}
            t_line = t
        if t_grub is None and GRUB_BOOTING.search(line):
            t_grub = t
    parts = {"first_user_line": first}
    if "kmain" in timeline and "init" in timeline and t_line is not None:
        start = t_line - timeline["init"] / 1000
        parts["qemu_start"] = start
        parts["kernel"] = (timeline["init"] - timeline["kmain"]) / 1000
        parts["init"] = first - t_line
        if variant == "iso" and t_grub is not None:
            parts["grub_ready"] = t_grub - start
            parts["grub_load"] = timeline["kmain"] / 1000 - (t_grub - start)
        else:
            parts["firmware_loader"] = timeline["kmain"] / 1000
    return parts, timeline


def write_log(path, cmd, lines):
    with open(path, "w") as f:
        f.write("# " + shlex.join(cmd) + "\n")
        for t, line in lines:
            f.write(f"{t:9.4f} {line}\n")


def summary(vals):
    return f"{statistics.median(vals):.3f} [{min(vals):.3f}-{max(vals):.3f}] n={len(vals)}"


def report(variant, results, timelines):
    """The summary of one variant on stdout; True when its target is met."""
    firsts = [r["first_user_line"] for r in results]
    target = TARGETS[variant]
    met = bool(firsts) and statistics.median(firsts) <= target
    if firsts:
        print(f"  boot_{variant}_first_user_line_s  {summary(firsts)}  target <= {target} s "
              f"{'met' if met else 'not met'}")
    for part in PARTS[variant]:
        vals = [r[part] for r in results if part in r]
        if vals:
            print(f"    {part:<16} {summary(vals)}")
    marks = [k for k in (timelines[0] if timelines else {})]
    if marks:
        med = [f"{k} {statistics.median(t[k] for t in timelines if k in t):.1f}" for k in marks]
        print("    guest timeline, median ms since reset: " + ", ".join(med))
    return met


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--variants", default="kernel,iso")
    ap.add_argument("--out", default=None, help="RESULT lines (default: stdout only)")
    ap.add_argument("--logdir", default=None)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per boot")
    ap.add_argument("--cmdline", default=None, help="-append for -kernel (default $CMDLINE); "
                    "the ISO has its own in grub.cfg")
    opts = ap.parse_args()
    env = {"QEMU": "qemu-system-i386",
           "QEMU_FLAGS": "-accel tcg -m 256M -display none -no-reboot -nic none "
                         "-device isa-debug-exit,iobase=0xf4,iosize=0x04",
           "KERNEL": "build/kernel.elf", "INITRAMFS": "build/initramfs.cpio",
           "ISO": "build/aiokern.iso", "CMDLINE": "lowmem=128M run=aiodemo"}
    env.update({k: os.environ[k] for k in env if os.environ.get(k)})
    if opts.cmdline is not None:
        env["CMDLINE"] = opts.cmdline
    variants = opts.variants.split(",")
    if any(v not in TARGETS for v in variants):
        ap.error("variants are kernel and iso")
    if opts.logdir:
        os.makedirs(opts.logdir, exist_ok=True)
    results = {v: [] for v in variants}
    timelines = {v: [] for v in variants}
    out, failed = [], 0
    for v in variants:
        print(f"  BOOT    {v}: {shlex.join(command(v, env))}")
    for run in range(1, opts.runs + 1):
        for v in variants:
            cmd = command(v, env)
            lines, first = boot_once(cmd, opts.timeout)
            if opts.logdir:
                write_log(os.path.join(opts.logdir, f"boot-{v}-{run}.log"), cmd, lines)
            if first is None:
                failed += 1
                print(f"  BOOT    {v} {run}/{opts.runs}: no '# init:' line within "
                      f"{opts.timeout:.0f} s ({len(lines)} lines)")
                continue
            parts, timeline = analyse(v, lines, first)
            results[v].append(parts)
            if timeline:
                timelines[v].append(timeline)
            out += [f"RESULT boot boot_{v}_{k}_s {val:.4f}" for k, val in parts.items()]
            detail = ", ".join(f"{k} {parts[k]:.3f}" for k in PARTS[v] if k in parts)
            print(f"  BOOT    {v} {run}/{opts.runs}: first user line {first:.3f} s ({detail})")
    if opts.out:
        with open(opts.out, "w") as f:
            f.write("".join(line + "\n" for line in out))
    for v in variants:
        report(v, results[v], timelines[v])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
