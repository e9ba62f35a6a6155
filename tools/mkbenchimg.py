#!/usr/bin/env python3
"""mkbenchimg.py: write (or check) the benchmark disk image with its per-sector pattern, or the ext2 one.

    tools/mkbenchimg.py [--size-mib 64] IMAGE          create IMAGE unless it already holds the pattern
    tools/mkbenchimg.py --check IMAGE                  verify every sector; status 1 on a mismatch
    tools/mkbenchimg.py --ext2 [--size-mib 384] [--rand-mib 64] IMAGE
                                                       an ext2 file system (mke2fs -t ext2 -b 4096 -d,
                                                       e2fsprogs) holding "rand" (RAND MiB) and "warm"
                                                       (2 MiB), each the pattern by file offset, and
                                                       room for bench --ext2's 256 MiB "seq"; made
                                                       unless IMAGE.ok says it was with these sizes

Pattern, in 512-byte sector s, 32-bit little-endian words: word 0 is s, word 1 is
0x41494F21 ("!OIA"), word k >= 2 is (s * 0x9E3779B1) ^ (k * 0x85EBCA77), in 32-bit
arithmetic.  user/bin/bench.c checks every read against the same formula.
"""
import argparse
import os
import subprocess
import sys
import tempfile

SECTOR = 512
WORDS = SECTOR // 4
MAGIC = 0x41494F21
MUL_S = 0x9E3779B1
MUL_K = 0x85EBCA77
MASK = 0xFFFFFFFF

# As one 4096-bit little-endian integer: words 2.. hold k * MUL_K, word 1 the magic.
TEMPLATE = sum(((k * MUL_K) & MASK) << (32 * k) for k in range(2, WORDS)) | (MAGIC << 32)
# m * REPEAT puts m (< 2^32) in every word k >= 2 without carries.
REPEAT = sum(1 << (32 * k) for k in range(2, WORDS))


def sector(s):
    """The 512 bytes of sector s."""
    m = (s * MUL_S) & MASK
    return (TEMPLATE ^ (m * REPEAT) ^ (s & MASK)).to_bytes(SECTOR, "little")


def chunk(first, count):
    return b"".join(sector(s) for s in range(first, first + count))


def write_image(path, size):
    step = 2048  # sectors per write (1 MiB)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        for first in range(0, size // SECTOR, step):
            f.write(chunk(first, min(step, size // SECTOR - first)))
    os.replace(tmp, path)


def check_image(path, sample=False):
    """Number of bad sectors (every sector, or a sample of them when sample is set)."""
    size = os.path.getsize(path)
    nsec = size // SECTOR
    bad = 0
    picks = range(nsec) if not sample else sorted({0, 1, nsec // 2, nsec - 1})
    with open(path, "rb") as f:
        for s in picks:
            f.seek(s * SECTOR)
            if f.read(SECTOR) != sector(s):
                bad += 1
    return bad


def write_pattern_file(path, size):
    with open(path, "wb") as f:
        for first in range(0, size // SECTOR, 2048):
            f.write(chunk(first, min(2048, size // SECTOR - first)))


def make_ext2(path, size_mib, rand_mib):
    """The ext2 bench image (bench --ext2), unless PATH.ok already names these sizes."""
    stamp = f"ext2 {size_mib} {rand_mib}\n"
    try:
        if open(path + ".ok").read() == stamp and os.path.getsize(path) == size_mib << 20:
            return 0
    except OSError:
        pass
    with tempfile.TemporaryDirectory() as root:
        write_pattern_file(os.path.join(root, "rand"), rand_mib << 20)
        write_pattern_file(os.path.join(root, "warm"), 2 << 20)
        if os.path.exists(path):
            os.remove(path)
        subprocess.run(["mke2fs", "-q", "-F", "-t", "ext2", "-b", "4096", "-d", root, path,
                        f"{size_mib}M"], check=True)
    with open(path + ".ok", "w") as f:
        f.write(stamp)
    print(f"  IMG     {path} (ext2, {size_mib} MiB: rand {rand_mib} MiB, warm 2 MiB)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("image")
    ap.add_argument("--size-mib", type=int, help="64 (pattern), 384 (--ext2)")
    ap.add_argument("--check", action="store_true", help="verify every sector")
    ap.add_argument("--ext2", action="store_true", help="the ext2 image of bench --ext2")
    ap.add_argument("--rand-mib", type=int, default=64)
    opts = ap.parse_args()
    if opts.ext2:
        return make_ext2(opts.image, opts.size_mib or 384, opts.rand_mib)
    opts.size_mib = opts.size_mib or 64
    size = opts.size_mib << 20
    if opts.check:
        bad = check_image(opts.image)
        print(f"{opts.image}: {bad} bad sectors")
        return 1 if bad else 0
    if os.path.exists(opts.image) and os.path.getsize(opts.image) == size \
            and check_image(opts.image, sample=True) == 0:
        return 0
    write_image(opts.image, size)
    print(f"  IMG     {opts.image} ({opts.size_mib} MiB pattern)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
