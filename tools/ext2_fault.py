#!/usr/bin/env python3
"""ext2_fault.py: the image and the QEMU blkdebug rules of the ext2_fault entry.

    tools/ext2_fault.py make IMG CONF     # mke2fs -d a small tree, find its blocks with
                                          # debugfs, write blkdebug rules for them to CONF
    tools/ext2_fault.py check IMG...      # after the run: KTAP suite ext2_fault_check

What user/bin/test_ext2_fault.c finds on the image, and which of its blocks fail
(every rule fails each time, "once" off; errno 5, EIO):
  /rdata.bin   20 KiB pattern(1): reads of file block 4 (the second page)
  /ind.bin     40 KiB pattern(2): reads of its indirect block (file blocks 12-)
  /dbad/       five names: reads of its only directory block
  /ibad.txt    its inode alone in one inode-table block: reads of that block
  inode bitmap of group 0: reads (a new name needs it)
  /runs.bin    32 KiB pattern(5): reads of file block 20 (in its second block run:
               an O_DIRECT read over both runs, sent from io_submit as two device
               requests, ends -EIO)
  /wdata.bin   16 KiB pattern(3): writes of file block 1 (write-back of data)
  /wind.bin    blocks 0 and 20 only: writes of its indirect block (write-back
               of metadata: the pointer a write into the hole adds)
The guest writes only where a rule fails: after the run the image holds what it
held, except what the failed indirect block leaves: the bitmap and the inode's
block count say a block is in use that no block map points at. `check` requires
the superblock marked "not clean with errors" (umount's write-back failed),
prints what `e2fsck -fn` reports, requires exactly that kind of finding, and
then that `e2fsck -fy` repairs it and a second `e2fsck -fn` is clean.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blk_image  # noqa: E402  (the KTAP report)
from ext2_image import ENV, pattern, run, debugfs, tree_writer  # noqa: E402

BS = 1024
SIZE = "8M"
# what e2fsck may say about the run's image: the block the lost indirect-block
# write would have pointed at is marked in use, counted in i_blocks, and the
# free counts follow (anything else is a failure)
EXPECTED = re.compile(r"^\s*$|^e2fsck \d|^Pass \d: Checking|"
                      r"^Inode \d+, i_blocks is \d+, should be \d+\.  Fix\? no$|"
                      r"^Block bitmap differences: [-+ 0-9()]+$|^Fix\? no$|"
                      r"^Free blocks count wrong .*$|"
                      r"^test-ext2-fault: \*+ WARNING: Filesystem still has errors \*+$|"
                      r"^test-ext2-fault: \d+/\d+ files \([0-9.]+% non-contiguous\), "
                      r"\d+/\d+ blocks$")


def tree(root):
    put = tree_writer(root)
    put("rdata.bin", pattern(1, 0, 20 * 1024))
    put("ind.bin", pattern(2, 0, 40 * 1024))
    for i in range(5):
        put(f"dbad/f{i}", b"%d\n" % i)
    put("runs.bin", pattern(5, 0, 32 * 1024))
    put("wdata.bin", pattern(3, 0, 16 * 1024))
    with open(os.path.join(root, "wind.bin"), "wb") as f:
        f.write(pattern(4, 0, BS))
        f.seek(20 * BS)
        f.write(pattern(4, 20 * BS, BS))


def stats(img):
    out = debugfs(img, "stats").decode()
    isize = int(re.search(r"Inode size:\s+(\d+)", out).group(1))
    ibm = int(re.search(r"Group  0: .*inode bitmap at (\d+)", out).group(1))
    used = int(re.search(r"Inode count:\s+(\d+)", out).group(1)) - \
        int(re.search(r"Free inodes:\s+(\d+)", out).group(1))
    return isize, ibm, used


def bmap(img, path, lblk):
    return int(debugfs(img, f"bmap {path} {lblk}").split()[-1])


def ind_block(img, path):
    m = re.search(r"\(IND\):(\d+)", debugfs(img, f"stat {path}").decode())
    if not m:
        sys.exit(f"ext2_fault: {path} has no indirect block")
    return int(m.group(1))


def imap(img, path):
    out = debugfs(img, f"imap {path}").decode()
    m = re.search(r"Inode (\d+) .*?located at block (\d+), offset 0x([0-9a-f]+)", out, re.S)
    return int(m.group(1)), int(m.group(2)), int(m.group(3), 16)


def add_ibad(img, tmp, isize):
    """/ibad.txt with an inode that starts an inode-table block: pad names in
    /ipad take the inodes before it, so no inode the test reads shares the block."""
    per = BS // isize
    run("debugfs", "-w", "-R", "mkdir /ipad", img)
    _, _, used = stats(img)
    one = os.path.join(tmp, "one")
    with open(one, "wb") as f:
        f.write(b"pad\n")
    for i in range((per - used % per) % per):
        run("debugfs", "-w", "-R", f"write {one} /ipad/p{i}", img)
    with open(one, "wb") as f:
        f.write(b"ibad\n")
    run("debugfs", "-w", "-R", f"write {one} /ibad.txt", img)
    ino, blk, off = imap(img, "/ibad.txt")
    if off != 0:
        sys.exit(f"ext2_fault: /ibad.txt (inode {ino}) is not first in block {blk}")
    return blk


def rule(event, iotype, block):
    return (f'[inject-error]\nevent = "{event}"\niotype = "{iotype}"\nerrno = "5"\n'
            f'sector = "{block * BS // 512}"\nonce = "off"\n\n')


def make(img, conf):
    tmp = tempfile.mkdtemp(prefix="ext2fault")
    try:
        root = os.path.join(tmp, "root")
        tree(root)
        if os.path.exists(img):
            os.unlink(img)
        run("mke2fs", "-q", "-F", "-t", "ext2", "-b", str(BS), "-L", "test-ext2-fault",
            "-d", root, img, SIZE)
        isize, ibm, _ = stats(img)
        itab = add_ibad(img, tmp, isize)
        run("e2fsck", "-fn", img)
        reads = {"rdata.bin block 4": bmap(img, "/rdata.bin", 4),
                 "ind.bin indirect": ind_block(img, "/ind.bin"),
                 "dbad directory block": bmap(img, "/dbad", 0),
                 "runs.bin block 20": bmap(img, "/runs.bin", 20),
                 "ibad.txt inode table": itab,
                 "inode bitmap": ibm}
        writes = {"wdata.bin block 1": bmap(img, "/wdata.bin", 1),
                  "wind.bin indirect": ind_block(img, "/wind.bin")}
        with open(conf, "w") as f:
            f.write("# made by tools/ext2_fault.py for " + os.path.basename(img) + "\n")
            for what, blk in reads.items():
                f.write(f"# read: {what}: block {blk}\n" + rule("read_aio", "read", blk))
            for what, blk in writes.items():
                f.write(f"# write: {what}: block {blk}\n" + rule("write_aio", "write", blk))
    finally:
        shutil.rmtree(tmp)


def fsck(img, flags):
    p = subprocess.run(["e2fsck", flags, img], env=ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode(errors="replace")


def check(img):
    name = os.path.basename(img).replace(".img", "").replace("-", "_")
    state = re.search(r"Filesystem state:\s+(.*)", debugfs(img, "stats").decode())
    state = state.group(1).strip() if state else "?"
    print(f"# {name}: superblock state: {state}")
    cases = [(f"{name}_marked_with_errors",
              None if state == "not clean with errors" else f"state {state!r}")]
    rc, out = fsck(img, "-fn")
    for line in out.splitlines():
        print(f"# {name}: e2fsck -fn: {line}")
    odd = [l for l in out.splitlines() if not EXPECTED.search(l)]
    found = "Block bitmap differences" in out
    err = None
    if rc not in (0, 4) or odd or not found:
        err = f"status {rc}, bitmap finding {found}, unexpected: {' | '.join(odd[:6])}"
    cases.append((f"{name}_e2fsck_reports_lost_indirect_write", err))
    rc, out = fsck(img, "-fy")
    cases.append((f"{name}_e2fsck_repairs", None if rc in (0, 1) else f"e2fsck -fy status {rc}"))
    rc, out = fsck(img, "-fn")
    cases.append((f"{name}_e2fsck_clean_after", None if rc == 0 else f"status {rc}: {out[-300:]}"))
    for path, seed, n in (("/rdata.bin", 1, 20480), ("/ind.bin", 2, 40960),
                          ("/runs.bin", 5, 32768)):
        with tempfile.NamedTemporaryFile() as t:
            debugfs(img, f"dump {path} {t.name}")
            ok = open(t.name, "rb").read() == pattern(seed, 0, n)
        cases.append((f"{name}{path.replace('/', '_').replace('.', '_')}_intact",
                      None if ok else "differs"))
    return cases


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "check":
        cases = []
        for img in sys.argv[2:]:
            cases += check(img)
        sys.exit(blk_image.report("ext2_fault_check", cases))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
