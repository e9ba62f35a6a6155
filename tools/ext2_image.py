#!/usr/bin/env python3
"""ext2_image.py: ext2 test images made and checked with Debian's e2fsprogs.

    tools/ext2_image.py make IMG BLOCK_SIZE SIZE_MB   # mke2fs -t ext2 -d <seed tree>
    tools/ext2_image.py check IMG... [--boot IMG]      # after test_ext2 ran: KTAP
                                                       # suite ext2_host_check
    tools/ext2_image.py fuzz OUT COUNT SEED            # COUNT mutated small images, end to end

The seed tree (below) is what user/bin/test_ext2.c expects to find; the files it
writes are filled with pattern() (the same function as the C side's ext2_pat),
so `check` can compare what debugfs dumps byte for byte. `check` also runs
`e2fsck -fn`, which must find nothing to fix.
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blk_image  # noqa: E402  (the KTAP report)

SBIN = "/usr/sbin:/sbin:" + os.environ.get("PATH", "")
ENV = dict(os.environ, PATH=SBIN, E2FSPROGS_FAKE_TIME="1700000000")
FUZZ_IMAGE_KB = 256		# each fuzz variant (1 KiB blocks)


def pattern(seed, off, n):
    """Byte i of a pattern file is (i * 7 + seed + (i >> 9) * 13) & 0xff (ext2_pat in C)."""
    return bytes(((i * 7 + seed + (i >> 9) * 13) & 0xff) for i in range(off, off + n))


def run(*cmd, ok=(0,)):
    p = subprocess.run(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode not in ok:
        sys.exit(f"ext2_image: {' '.join(cmd)}: status {p.returncode}\n{p.stdout.decode()}")
    return p.stdout


def tree_writer(root):
    """put(rel, data): write data to root/rel, making its directories."""
    def put(rel, data):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return put


def seed_tree(root):
    """The files the guest reads (test_ext2's case host_files checks each)."""
    put = tree_writer(root)
    put("hello.txt", b"hello from the host\n")
    put("small.bin", pattern(1, 0, 3000))
    put("big.bin", pattern(2, 0, 300 * 1024))	# double indirect with 1 KiB blocks
    put("sub/dir/deep.txt", b"deep\n")
    for i in range(300):			# a directory of several blocks
        put(f"many/f{i:04d}", b"%d\n" % i)
    with open(os.path.join(root, "sparse.bin"), "wb") as f:
        f.write(b"head")
        f.seek(200 * 1024)
        f.write(b"tail")
    os.link(os.path.join(root, "hello.txt"), os.path.join(root, "hard.txt"))
    os.symlink("hello.txt", os.path.join(root, "short_link"))
    os.symlink("sub/" + "./" * 40 + "dir/deep.txt", os.path.join(root, "long_link"))
    os.makedirs(os.path.join(root, "empty"))


def make(img, block_size, size_mb):
    tmp = tempfile.mkdtemp(prefix="ext2seed")
    try:
        seed_tree(tmp)
        if os.path.exists(img):
            os.unlink(img)
        run("mke2fs", "-q", "-F", "-t", "ext2", "-b", str(block_size), "-d", tmp, img,
            f"{size_mb}M")
        # -D: index the large directories (htree; the kernel reads them as linear)
        run("e2fsck", "-fyD", img, ok=(0, 1))
        run("e2fsck", "-fn", img)
    finally:
        shutil.rmtree(tmp)


def debugfs(img, req):
    return run("debugfs", "-R", req, img)


def dump(img, path):
    with tempfile.NamedTemporaryFile() as t:
        out = debugfs(img, f"dump {path} {t.name}")
        if b"not found" in out.lower():
            return None
        with open(t.name, "rb") as f:
            return f.read()


# What test_ext2 leaves on the image (its cases write these; keep both in step).
EXPECT = [
    ("/new.bin", lambda: pattern(7, 0, 200 * 1024 + 123)),
    ("/newdir/inner.bin", lambda: pattern(9, 0, 5000)),
    ("/moved.txt", lambda: b"rename me\n"),
    ("/holes.bin", lambda: b"A" + bytes(100 * 1024 - 1) + b"B" + bytes(4095) + b"C"),
    ("/trunc.bin", lambda: pattern(11, 0, 1500)),
    ("/hello.txt", lambda: b"hello from the host\n"),
    ("/big.bin", lambda: pattern(2, 0, 300 * 1024)),
    ("/many/added", lambda: b"added\n"),
    ("/many/f0150", lambda: b"150\n"),
    # test_file_aio: written by buffered AIO (PWRITE, RWF_DSYNC PWRITE, PWRITEV)
    ("/aio.bin", lambda: pattern(5, 0, 4000) + pattern(6, 4000, 10000) +
     pattern(5, 14000, 200000 - 14000) + pattern(7, 200000, 8192) +
     pattern(5, 208192, 262144 - 208192)),
    ("/aiov.bin", lambda: pattern(8, 0, 8192)),
    # test_ext2 mmap_shared: page 0 by write(2), the rest (a hole until then) through a
    # MAP_SHARED mapping (a child's and the parent's), written back by msync and umount
    # test_ext2 long_names: a 200-byte name
    ("/" + "N" * 196 + ".txt", lambda: b"long name\n"),
    ("/mmap.bin", lambda: pattern(30, 0, 4096) + pattern(31, 4096, 5 * 4096 + 1000 - 4096)),
    # test_file_aio direct_io: O_DIRECT AIO writes over and past a buffered file
    ("/direct.bin", lambda: pattern(10, 0, 8192) + pattern(11, 8192, 4096) +
     pattern(10, 12288, 65536 - 12288) + pattern(12, 65536, 65536) +
     pattern(10, 131072, 131072) + pattern(13, 262144, 4096)),
]
GONE = ["/to_remove.txt", "/rmdir_me", "/rename_src.txt"]


def fsck_case(img):
    """e2fsck -fn must find nothing to fix (exit status 0)."""
    name = os.path.basename(img)
    p = subprocess.run(["e2fsck", "-fn", img], env=ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    err = None
    if p.returncode != 0 or b"Fix?" in p.stdout:
        lines = [l for l in p.stdout.decode().splitlines() if l.strip()]
        err = f"e2fsck -fn status {p.returncode}: " + " | ".join(lines[-12:])
    return (f"{name}_e2fsck", err)


def check(img):
    """KTAP cases for one image test_ext2 ran on: e2fsck, then its files."""
    name = os.path.basename(img).replace(".img", "")
    cases = [fsck_case(img)]
    for path, want in EXPECT:
        got = dump(img, path)
        err = None
        if got != want():
            err = "missing" if got is None else f"{len(got)} bytes, want {len(want())}" + (
                "" if len(got) != len(want()) else " (contents differ)")
        label = path if len(path) <= 40 else f"{path[:12]}..({len(path) - 1} bytes)"
        cases.append((f"{name}{label.replace('/', '_')}", err))
    for path in GONE:
        gone = b"not found" in debugfs(img, f"stat {path}").lower()
        cases.append((f"{name}_gone{path.replace('/', '_')}", None if gone else "still there"))
    link = debugfs(img, "stat /new_link")
    fast = b'Fast link dest: "new.bin"' in link
    cases.append((f"{name}_new_link", None if fast else "not a fast symlink to new.bin"))
    return cases


def check_boot(img):
    """The image the mount= boot parameter mounted: e2fsck, and the file test_ext2 wrote."""
    got = dump(img, "/boot.bin")
    ok = got == pattern(21, 0, 10000)
    return [fsck_case(img), ("boot_bin", None if ok else "boot.bin differs or is missing")]


def mutate(img, rng, data):
    """One corruption of a small image: random bytes of metadata, or a targeted field."""
    b = bytearray(data)
    kind = rng.randrange(10)
    if kind == 0:				# superblock magic
        b[1024 + 56] ^= 0xff
    elif kind == 1:				# impossible counts
        off = 1024 + rng.choice([0, 4, 20, 24, 32, 40])	# inodes, blocks, first, log_bs, bpg, ipg
        struct.pack_into("<I", b, off, rng.choice([0, 0xffffffff, 0x7fffffff, 3, 1 << 20]))
    else:					# bytes of the used (nonzero) blocks: bitmaps,
        used = [i for i in range(2, len(b) // 1024) if any(b[i * 1024:i * 1024 + 1024])]
        for _ in range(rng.randint(1, 16)):	# inode table, directories, indirect blocks
            blk = rng.choice(used)
            pos = blk * 1024 + rng.randrange(1024)
            b[pos] = rng.randrange(256) if rng.random() < 0.7 else b[pos] ^ (1 << rng.randrange(8))
    return bytes(b)


def patch(data, off, fmt, value):
    b = bytearray(data)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)


def debugfs_w(base, tmp, req):
    """base with one debugfs -w request applied."""
    img = os.path.join(tmp, "variant.img")
    with open(img, "wb") as f:
        f.write(base)
    run("debugfs", "-w", "-R", req, img)
    with open(img, "rb") as f:
        return f.read()


def block_of(img, path, which):
    """A block number debugfs shows for path: "(0)", "(IND)", ... """
    out = debugfs(img, f"stat {path}").decode()
    tail = out[out.index("BLOCKS:"):].split()[1]
    for part in out[out.index("BLOCKS:"):].replace(",", " ").split():
        if part.startswith(which + ":"):
            return int(part.split(":")[1].split("-")[0])
    sys.exit(f"ext2_image: no {which} block in {path}: {tail}")


def targeted(base, img, tmp):
    """Variants 1-10: one known corruption each; test_ext2's fuzz_expect[] says
    what the kernel must answer to each (keep the two in step)."""
    sb = 1024
    root_blk = block_of(img, "/", "(0)")
    ind_blk = block_of(img, "/ind.bin", "(IND)")
    return [
        patch(base, sb + 56, "<H", 0),				# 1 magic
        patch(base, sb + 4, "<I", 0xffffffff),			# 2 blocks_count
        patch(base, sb + 40, "<I", 0),				# 3 inodes_per_group
        patch(base, sb + 96, "<I", 0x8002),			# 4 unknown INCOMPAT
        patch(base, sb + 100, "<I", 0x8003),			# 5 unknown RO_COMPAT
        patch(base, root_blk * 1024 + 4, "<H", 0),		# 6 "." rec_len 0
        patch(base, ind_blk * 1024, "<I", ind_blk),		# 7 indirect block loop
        debugfs_w(base, tmp, "sif /ind.bin block[0] 16777215"),	# 8 block past the device
        debugfs_w(base, tmp, "link /d1 /d1/d2/loop"),		# 9 directory loop
        debugfs_w(base, tmp, "sif / mode 0100644"),		# 10 root not a directory
    ]


def fuzz(out, count, seed):
    """count variants of one small populated image, back to back (FUZZ_IMAGE_KB each):
    0 intact, 1-10 targeted, the rest random."""
    rng = random.Random(seed)
    tmp = tempfile.mkdtemp(prefix="ext2fuzz")
    try:
        root = os.path.join(tmp, "root")
        os.makedirs(os.path.join(root, "d1/d2"))
        for i in range(20):
            with open(os.path.join(root, f"d1/f{i}"), "wb") as f:
                f.write(pattern(i, 0, 100 * i))
        with open(os.path.join(root, "ind.bin"), "wb") as f:
            f.write(pattern(3, 0, 40 * 1024))	# single indirect
        os.symlink("d1/f3", os.path.join(root, "sl"))
        img = os.path.join(tmp, "base.img")
        run("mke2fs", "-q", "-F", "-t", "ext2", "-b", "1024", "-N", "64", "-d", root, img,
            f"{FUZZ_IMAGE_KB}K")
        with open(img, "rb") as f:
            base = f.read()
        variants = [base] + targeted(base, img, tmp)
        with open(out, "wb") as f:
            for v in variants:
                f.write(v)
            for _ in range(count - len(variants)):
                f.write(mutate(img, rng, base))
    finally:
        shutil.rmtree(tmp)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "check":
        cases, boot = [], False
        for arg in sys.argv[2:]:
            if arg == "--boot":
                boot = True
                continue
            cases += check_boot(arg) if boot else check(arg)
        sys.exit(blk_image.report("ext2_host_check", cases))
    elif len(sys.argv) == 5 and sys.argv[1] == "fuzz":
        fuzz(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
