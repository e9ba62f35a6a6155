#!/usr/bin/env python3
"""linuxkernel.py: fetch Debian's amd64 kernel into a cache and pack a benchmark initramfs for it.

    tools/linuxkernel.py --cache DIR --out DIR --init BIN --bench BIN

1. The kernel package: the versioned dependency of `linux-image-amd64` (for example
   linux-image-6.1.0-57-amd64), fetched with `apt-get download` into the cache once.
2. From it: boot/vmlinuz-* and the modules the benchmark disks need (virtio_blk,
   virtio_pci, ata_piix, sd_mod, and ext4 for bench --ext2) with their dependencies.  The package carries no
   modules.dep (depmod makes it at install time), so the dependencies come from each
   module's .modinfo "depends=" field; modules listed in modules.builtin are skipped;
   .ko.xz files are decompressed.
3. OUT/vmlinuz and OUT/initramfs.cpio (newc): /init, /bin/bench, /lib/modules/*.ko,
   /modules (the load order, dependencies first), /dev/console.
"""
import argparse
import glob
import lzma
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tarfile

META = "linux-image-amd64"
# The disks', and ext4 (Debian builds no ext2.ko: ext4 mounts ext2) with crc32c for it.
WANTED = ["virtio_blk", "virtio_pci", "ata_piix", "sd_mod", "ext4", "crc32c_generic"]


def log(msg):
    print(f"  LINUX   {msg}", flush=True)


# ---------------- the package ----------------

def versioned_package():
    """linux-image-6.1.0-N-amd64, as apt currently resolves the metapackage; None offline."""
    try:
        text = subprocess.run(["apt-cache", "depends", META], capture_output=True,
                              text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    m = re.search(r"Depends:\s*(linux-image-[0-9][^\s]*-amd64)\b", text)
    return m.group(1) if m else None


def fetch_deb(cache):
    """Path of the kernel .deb in the cache, downloading it when missing."""
    os.makedirs(cache, exist_ok=True)
    name = versioned_package()
    pattern = f"{name}_*_amd64.deb" if name else "linux-image-*-amd64_*_amd64.deb"
    found = sorted(glob.glob(os.path.join(cache, pattern)))
    if found:
        return found[-1]
    if not name:
        sys.exit(f"linuxkernel.py: apt-cache cannot resolve {META} (try: apt-get update)")
    log(f"apt-get download {name} into {cache}")
    subprocess.run(["apt-get", "download", "-q", name], cwd=cache, check=True)
    found = sorted(glob.glob(os.path.join(cache, pattern)))
    if not found:
        sys.exit(f"linuxkernel.py: apt-get download {name} left no .deb in {cache}")
    return found[-1]


def extract(deb, dest, want):
    """Extract the members for which want(name) is true into dest (one streaming pass)."""
    proc = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE)
    names = []
    with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
        for member in tar:
            name = member.name.lstrip("./")
            names.append(name)
            if member.isfile() and want(name):
                tar.extract(member, dest, set_attrs=False)
    if proc.wait() != 0:
        sys.exit(f"linuxkernel.py: dpkg-deb failed on {deb}")
    return names


def package_names(deb, root):
    """Every member name of the package; vmlinuz and modules.builtin extracted (once)."""
    listing = os.path.join(root, ".names")
    if os.path.exists(listing):
        with open(listing) as f:
            return f.read().split("\n")
    names = extract(deb, root, lambda n: n.startswith("boot/vmlinuz-")
                    or n.endswith("/modules.builtin"))
    with open(listing, "w") as f:
        f.write("\n".join(names))
    return names


# ---------------- modules ----------------

def mod_name(path):
    """'lib/modules/V/kernel/drivers/x/t10-pi.ko.xz' -> 't10_pi'."""
    base = os.path.basename(path)
    return re.sub(r"\.ko(\.[a-z]+)?$", "", base).replace("-", "_")


def modinfo_depends(data):
    """The depends= list of a module image (ELF64 .modinfo section)."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def section(i):
        off = shoff + i * shentsize
        name, = struct.unpack_from("<I", data, off)
        offset, size = struct.unpack_from("<QQ", data, off + 0x18)
        return name, offset, size

    _, stroff, _ = section(shstrndx)
    for i in range(shnum):
        name, offset, size = section(i)
        if data[stroff + name:stroff + name + 9] == b".modinfo\0":
            for field in data[offset:offset + size].split(b"\0"):
                if field.startswith(b"depends="):
                    deps = field[8:].decode()
                    return [d.replace("-", "_") for d in deps.split(",") if d]
    return []


def read_module(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".xz"):
        data = lzma.decompress(data)
    elif not path.endswith(".ko"):
        sys.exit(f"linuxkernel.py: cannot decompress {path}")
    return data


class Modules:
    """Resolve WANTED and their dependencies from the package, extracting as needed."""

    def __init__(self, deb, root, names):
        self.deb, self.root = deb, root
        self.paths = {mod_name(n): n for n in names if re.search(r"\.ko(\.[a-z]+)?$", n)}
        builtin = glob.glob(os.path.join(root, "lib/modules/*/modules.builtin"))
        self.builtin = set()
        if builtin:
            with open(builtin[0]) as f:
                self.builtin = {mod_name(line.strip()) for line in f if line.strip()}
        self.data, self.deps = {}, {}

    def load(self, names):
        missing = [n for n in names if not os.path.exists(os.path.join(self.root, self.paths[n]))]
        if missing:
            want = {self.paths[n] for n in missing}
            extract(self.deb, self.root, lambda name: name in want)
        for n in names:
            self.data[n] = read_module(os.path.join(self.root, self.paths[n]))
            self.deps[n] = modinfo_depends(self.data[n])

    def resolve(self, wanted):
        todo = [n for n in wanted if n not in self.builtin]
        while todo:
            for n in todo:
                if n not in self.paths:
                    sys.exit(f"linuxkernel.py: module {n} is not in {self.deb}")
            self.load(todo)
            todo = sorted({d for n in todo for d in self.deps[n]} - set(self.data) - self.builtin)
        return self.order(wanted)

    def order(self, wanted):
        """Dependencies before their users (depth-first)."""
        done = []

        def visit(n):
            if n in done or n in self.builtin:
                return
            for d in self.deps[n]:
                visit(d)
            done.append(n)

        for n in wanted:
            visit(n)
        return done


# ---------------- the initramfs ----------------

def cpio_entry(ino, name, mode, data=b"", rdev=(0, 0)):
    bname = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(bname), 0]
    head = b"070701" + b"".join(b"%08x" % f for f in fields)
    pad = (4 - (len(head) + len(bname)) % 4) % 4
    return head + bname + b"\0" * pad + data + b"\0" * ((4 - len(data) % 4) % 4)


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def initramfs(path, init, bench, mods, order):
    entries = [("dev", stat.S_IFDIR | 0o755, b"", (0, 0)),
               ("dev/console", stat.S_IFCHR | 0o600, b"", (5, 1)),
               ("bin", stat.S_IFDIR | 0o755, b"", (0, 0)),
               ("lib", stat.S_IFDIR | 0o755, b"", (0, 0)),
               ("lib/modules", stat.S_IFDIR | 0o755, b"", (0, 0)),
               ("init", stat.S_IFREG | 0o755, read_file(init), (0, 0)),
               ("bin/bench", stat.S_IFREG | 0o755, read_file(bench), (0, 0))]
    for n in order:
        entries.append((f"lib/modules/{n}.ko", stat.S_IFREG | 0o644, mods.data[n], (0, 0)))
    listing = "".join(f"/lib/modules/{n}.ko\n" for n in order).encode()
    entries.append(("modules", stat.S_IFREG | 0o644, listing, (0, 0)))
    blob = b"".join(cpio_entry(i + 1, *e) for i, e in enumerate(entries))
    blob += cpio_entry(0, "TRAILER!!!", 0)
    with open(path + ".tmp", "wb") as f:
        f.write(blob)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", required=True, help="download and extraction cache")
    ap.add_argument("--out", required=True, help="where vmlinuz and initramfs.cpio go")
    ap.add_argument("--init", required=True)
    ap.add_argument("--bench", required=True)
    opts = ap.parse_args()
    deb = fetch_deb(opts.cache)
    root = os.path.join(opts.cache, os.path.basename(deb)[:-4])
    names = package_names(deb, root)
    mods = Modules(deb, root, names)
    order = mods.resolve(WANTED)
    os.makedirs(opts.out, exist_ok=True)
    vmlinuz = glob.glob(os.path.join(root, "boot/vmlinuz-*"))[0]
    shutil.copyfile(vmlinuz, os.path.join(opts.out, "vmlinuz"))
    initramfs(os.path.join(opts.out, "initramfs.cpio"), opts.init, opts.bench, mods, order)
    log(f"{os.path.basename(vmlinuz)}, modules: {' '.join(order)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
