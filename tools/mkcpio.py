#!/usr/bin/env python3
"""mkcpio.py: pack files into a cpio "newc" archive (the initramfs), reproducibly.

    tools/mkcpio.py -o OUT.cpio -C ROOT PATH...      (PATHs relative to ROOT)
    tools/mkcpio.py --list OUT.cpio                  (print name, mode, size of each member)

Parent directories are added first (mode 040755); files keep their permission bits as
regular files.  Owner 0:0, mtime 0, inode numbers in order, so equal inputs give equal bytes.

newc member: "070701", then 13 fields of 8 hex digits (ino, mode, uid, gid, nlink, mtime,
filesize, devmajor, devminor, rdevmajor, rdevminor, namesize incl. NUL, check=0), the
name and its NUL padded to a multiple of 4, the data padded to a multiple of 4.  The
archive ends with a member named "TRAILER!!!".
"""
import argparse
import os
import stat
import sys

MAGIC = b"070701"
TRAILER = "TRAILER!!!"


def pad4(n):
    return (4 - n % 4) % 4


def member(ino, name, mode, data, nlink=1):
    """One newc header + name + data, each padded to 4 bytes."""
    bname = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0, len(bname), 0]
    head = MAGIC + b"".join(b"%08x" % f for f in fields)
    out = head + bname + b"\0" * pad4(len(head) + len(bname))
    return out + data + b"\0" * pad4(len(data))


def parents(path):
    parts = path.split("/")[:-1]
    return ["/".join(parts[:i + 1]) for i in range(len(parts))]


def build(root, paths):
    out, seen, ino = [], set(), 1
    for path in sorted(p.strip("/") for p in paths):
        for d in parents(path):
            if d not in seen:
                seen.add(d)
                out.append(member(ino, d, stat.S_IFDIR | 0o755, b"", nlink=2))
                ino += 1
        full = os.path.join(root, path)
        with open(full, "rb") as f:
            data = f.read()
        perm = stat.S_IMODE(os.stat(full).st_mode)
        out.append(member(ino, path, stat.S_IFREG | perm, data))
        ino += 1
    out.append(member(0, TRAILER, 0, b""))
    return b"".join(out)


def parse(blob):
    """Yield (name, mode, data) for each member, stopping at the trailer."""
    pos = 0
    while True:
        if blob[pos:pos + 6] != MAGIC:
            raise ValueError(f"bad magic at offset {pos}")
        f = [int(blob[pos + 6 + 8 * i:pos + 14 + 8 * i], 16) for i in range(13)]
        size, namesize = f[6], f[11]
        start = pos + 110
        name = blob[start:start + namesize - 1].decode()
        data_at = start + namesize + pad4(110 + namesize)
        if name == TRAILER:
            return
        yield name, f[1], blob[data_at:data_at + size]
        pos = data_at + size + pad4(size)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", dest="out")
    ap.add_argument("-C", dest="root", default=".")
    ap.add_argument("--list", metavar="CPIO")
    ap.add_argument("paths", nargs="*")
    opts = ap.parse_args()
    if opts.list:
        with open(opts.list, "rb") as f:
            for name, mode, data in parse(f.read()):
                print(f"{name} {mode:06o} {len(data)}")
        return 0
    if not opts.out or not opts.paths:
        ap.error("need -o OUT and at least one PATH")
    blob = build(opts.root, opts.paths)
    tmp = opts.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, opts.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
