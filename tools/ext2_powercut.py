#!/usr/bin/env python3
"""ext2_powercut.py: the ext2 power-cut test (KTAP suite ext2_powercut).

    tools/ext2_powercut.py [--runs N] [--seed S]...

Each run: a fresh empty ext2 image (1 KiB blocks, 16 MiB); QEMU boots the shipped
kernel with run=test_powercut:load:/dev/vda:SEED (ext2_flush_ms=200, so the flusher
writes back unsynced data too) and is killed with SIGKILL at a random moment
0.3-2.5 s after the guest says it started writing. Then, on the host:
  1. every file the guest reported fsynced ("PC file", "PC prefix" lines) is on the
     image byte for byte (debugfs dump; /log.bin: its reported prefix);
  2. e2fsck -fn's findings are printed (what the cut left: see docs), e2fsck -fy
     repairs the image (status 0 or 1) and a second e2fsck -fn is clean;
  3. a second boot (run=test_powercut:verify:/dev/vda) mounts the repaired image,
     reads every file, passes its leak check, and what it reads of the recorded
     files is what was recorded.
Then one "reuse" run (issue 18; run=test_powercut:reuse:/dev/vda, 4 MiB image,
ext2_flush_ms=0, killed once the guest says "PC reuse done"): on a full file
system one file is truncated and another unlinked, unsynced, and a third takes as
many blocks and is fsynced. After the cut no block of the fsynced /y may still be
referenced by /x's or /w's inode on the image (debugfs blocks), e2fsck -fn finds
no multiply-claimed block, -fy repairs the rest and /y is there byte for byte.
Seeds are random unless given; each run prints its seed and its kill time, and
--seed S replays a run's guest load (the kill moment is random each time).
Uses the Makefile's exported QEMU, QEMU_FLAGS, KERNEL, INITRAMFS and BUILD.
"""
import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blk_image  # noqa: E402  (the KTAP report)
from ext2_image import ENV, pattern, run  # noqa: E402

LOG_SEED = 77
BOOT_TIMEOUT = 60


def fnv(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def qemu_cmd(img, append):
    e = os.environ
    return (f'{e["QEMU"]} {e["QEMU_FLAGS"]} -serial stdio -kernel {e["KERNEL"]} '
            f'-initrd {e["INITRAMFS"]} -drive file={img},format=raw,if=none,id=d0 '
            f'-device virtio-blk-pci,drive=d0').split() + ["-append", append]


def load_and_cut(img, seed, delay, log, append=None, mark="PC start"):
    """Boot the load, kill QEMU delay seconds after a line starting with mark:
    whether it came, and the console lines."""
    lines, started = [], threading.Event()
    append = append or f"lowmem=128M ext2_flush_ms=200 run=test_powercut:load:/dev/vda:{seed}"
    p = subprocess.Popen(qemu_cmd(img, append), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def reader():
        for raw in p.stdout:
            line = raw.decode(errors="replace")
            lines.append(line)
            log.write(line)
            if line.startswith(mark):
                started.set()
    t = threading.Thread(target=reader, daemon=True)
    t.start()
    ok = started.wait(BOOT_TIMEOUT)
    if ok:
        time.sleep(delay)
    p.send_signal(signal.SIGKILL)
    p.wait()
    t.join(5)
    return ok, lines


def records(lines):
    """{path: ("file", len, fnv) or ("prefix", len)}: the last record of each path
    (only whole lines: a line the cut broke says nothing)."""
    rec = {}
    for line in lines:
        if not line.endswith("\n"):
            continue
        m = re.match(r"PC file (\S+) (\d+) ([0-9a-f]{8})$", line.strip())
        if m:
            rec[m.group(1)] = ("file", int(m.group(2)), int(m.group(3), 16))
        m = re.match(r"PC prefix (\S+) (\d+)$", line.strip())
        if m:
            rec[m.group(1)] = ("prefix", int(m.group(2)))
    return rec


def dump(img, path):
    with tempfile.NamedTemporaryFile() as t:
        out = run("debugfs", "-R", f"dump {path} {t.name}", img)
        if b"not found" in out.lower() or b"File not found" in out:
            return None
        with open(t.name, "rb") as f:
            return f.read()


def on_image(img, rec):
    """The first recorded file that is not on img as recorded, or None."""
    for path, r in sorted(rec.items()):
        got = dump(img, path)
        if got is None:
            return f"{path}: missing"
        if r[0] == "file" and (len(got) != r[1] or fnv(got) != r[2]):
            return f"{path}: {len(got)} bytes fnv {fnv(got):08x}, fsynced {r[1]} fnv {r[2]:08x}"
        if r[0] == "prefix" and got[:r[1]] != pattern(LOG_SEED, 0, r[1]):
            return f"{path}: {len(got)} bytes, the fsynced first {r[1]} differ"
    return None


def fsck(img, flag):
    p = subprocess.run(["e2fsck", flag, img], env=ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode(errors="replace")


def second_boot(img, rec, log):
    """Boot run=test_powercut:verify: None when it passed and read what was recorded."""
    p = subprocess.run(qemu_cmd(img, "lowmem=128M run=test_powercut:verify:/dev/vda"),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=BOOT_TIMEOUT)
    out = p.stdout.decode(errors="replace")
    log.write(out)
    if p.returncode != 33:
        return f"QEMU status {p.returncode} (33: all passed)"
    have = {m.group(1): (int(m.group(2)), int(m.group(3), 16))
            for m in re.finditer(r"^PC have (\S+) (\d+) ([0-9a-f]{8})", out, re.M)}
    m = re.search(r"^PC log (\d+) (\d+)", out, re.M)
    for path, r in sorted(rec.items()):
        if r[0] == "prefix":
            if not m or int(m.group(2)) < r[1]:
                return f"{path}: fewer than the fsynced {r[1]} good bytes"
        elif have.get(path) != (r[1], r[2]):
            return f"{path}: read {have.get(path)}, fsynced {(r[1], r[2])}"
    return None


def one_run(n, seed, delay, build):
    img = os.path.join(build, f"disk-ext2-powercut-{n}.img")
    if os.path.exists(img):
        os.unlink(img)
    run("mke2fs", "-q", "-F", "-t", "ext2", "-b", "1024", img, "16M")
    name = f"run{n}"
    print(f"# {name}: seed {seed}, SIGKILL {delay:.2f} s after the load started")
    with open(os.path.join(build, "logs", f"ext2_powercut-{n}.log"), "w") as log:
        started, lines = load_and_cut(img, seed, delay, log)
        rec = records(lines)
        files = sum(1 for r in rec.values() if r[0] == "file")
        print(f"# {name}: {files} files and the log's prefix reported fsynced, "
              f"{sum(l.startswith('PC ') for l in lines)} records")
        cases = [(f"{name}_load_started", None if started else "no 'PC start' line")]
        cases.append((f"{name}_fsynced_on_image", on_image(img, rec) if rec else "no record"))
        rc, out = fsck(img, "-fn")
        print(f"# {name}: e2fsck -fn status {rc}" + (" (clean)" if rc == 0 else ":"))
        for line in out.splitlines()[1:]:
            if line.strip() and not line.startswith("Pass ") and line.strip() != "Fix? no":
                print(f"# {name}: e2fsck -fn: {line.replace('  Fix? no', '')}")
        rc, out = fsck(img, "-fy")
        cases.append((f"{name}_e2fsck_repairs", None if rc in (0, 1) else f"status {rc}"))
        rc, out = fsck(img, "-fn")
        cases.append((f"{name}_e2fsck_clean", None if rc == 0 else f"status {rc}: {out[-300:]}"))
        cases.append((f"{name}_fsynced_after_repair", on_image(img, rec) if rec else "no record"))
        cases.append((f"{name}_second_boot", second_boot(img, rec, log)))
    return cases


def blocks_of(img, path):
    """The blocks path's inode points at on img (data and indirect), as a set."""
    out = run("debugfs", "-R", f"blocks {path}", img).decode(errors="replace")
    return {int(w) for w in out.split() if w.isdigit()}


def reuse_run(build):
    """The reuse run (see the head): its cases."""
    img = os.path.join(build, "disk-ext2-powercut-reuse.img")
    if os.path.exists(img):
        os.unlink(img)
    run("mke2fs", "-q", "-F", "-t", "ext2", "-b", "1024", "-m", "0", img, "4M")
    print("# reuse: X truncated and W unlinked on a full file system, Y takes their blocks")
    with open(os.path.join(build, "logs", "ext2_powercut-reuse.log"), "w") as log:
        done, lines = load_and_cut(img, 0, 0.2, log, mark="PC reuse",
                                   append="lowmem=128M ext2_flush_ms=0 "
                                          "run=test_powercut:reuse:/dev/vda")
    failed = [l.strip() for l in lines if l.startswith("PC reuse failed")]
    cases = [("reuse_y_fsynced", failed[0] if failed else None if done else "no 'PC reuse' line")]
    rec = records(lines)
    y = blocks_of(img, "/y")
    shared = sorted((blocks_of(img, "/x") | blocks_of(img, "/w")) & y)
    print(f"# reuse: /y has {len(y)} blocks, {len(shared)} of them still /x's or /w's")
    cases.append(("reuse_no_block_of_y_elsewhere", f"blocks {shared[:8]}..." if shared else
                  None if y else "no /y on the image"))
    rc, out = fsck(img, "-fn")
    dup = [l for l in out.splitlines() if "multiply-claimed" in l.lower()]
    print(f"# reuse: e2fsck -fn status {rc}")
    cases.append(("reuse_e2fsck_no_duplicates", dup[0] if dup else None))
    rc, out = fsck(img, "-fy")
    cases.append(("reuse_e2fsck_repairs", None if rc in (0, 1) else f"status {rc}"))
    rc, out = fsck(img, "-fn")
    cases.append(("reuse_e2fsck_clean", None if rc == 0 else f"status {rc}: {out[-300:]}"))
    cases.append(("reuse_y_after_repair", on_image(img, rec) if rec else "no record"))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, action="append", default=[])
    args = ap.parse_args()
    build = os.environ.get("BUILD", "build")
    os.makedirs(os.path.join(build, "logs"), exist_ok=True)
    rng = random.Random()
    seeds = args.seed + [rng.randrange(1, 1 << 31) for _ in range(args.runs - len(args.seed))]
    cases = reuse_run(build)
    for n, seed in enumerate(seeds, 1):
        cases += one_run(n, seed, random.Random(seed ^ int(time.time())).uniform(0.3, 2.5), build)
    sys.exit(blk_image.report("ext2_powercut", cases))


if __name__ == "__main__":
    main()
