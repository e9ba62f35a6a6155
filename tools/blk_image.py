# blk_image.py: what blk_check.py and blk_aio_check.py share: the blktest pattern, the image checks, the KTAP report.
"""Shared by the host checks of disk images a guest suite wrote.

The pattern is blktest_word() of kernel/tests/blktest.h (user/bin/test_blk.c
has its own copy). A check reads an image, verifies every sector of the
regions the guest wrote, then requires every other byte to be zero (make
test-disks creates the images empty).
"""
import os
import struct
import sys

SECTOR = 512


def word(sector, w, seed):
    """blktest_word(): (u32)s * 0x9E3779B1 ^ w * 0x01000193 ^ (u32)(s >> 32) ^ seed."""
    return (((sector * 0x9E3779B1) & 0xFFFFFFFF) ^ ((w * 0x01000193) & 0xFFFFFFFF)
            ^ (sector >> 32) ^ seed)


def expected_sector(sector, seed):
    return struct.pack('<128I', *(word(sector, w, seed) for w in range(SECTOR // 4)))


def load(path):
    """(case-name prefix, bytearray of the image or the OSError)."""
    name = os.path.basename(path).rsplit('.', 1)[0].replace('-', '_')
    try:
        with open(path, 'rb') as f:
            return name, bytearray(f.read())
    except OSError as err:
        return name, err


def check_regions(data, regions, seed):
    """Blank every sector of regions [(sector, count)] in data after checking
    it; the first mismatch as a message, or None."""
    bad = None
    for start, count in regions:
        for s in range(start, start + count):
            got = bytes(data[s * SECTOR:(s + 1) * SECTOR])
            want = expected_sector(s, seed)
            if bad is None and got != want:
                first = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
                bad = f'sector {s} byte {first}: {got[first]:#04x}, expected {want[first]:#04x}'
            data[s * SECTOR:(s + 1) * SECTOR] = bytes(SECTOR)
    return bad


def rest_is_zero(data):
    """None when data (the regions blanked) is all zero, else where it is not."""
    stray = len(data) - data.count(0)
    if not stray:
        return None
    where = next(i for i, b in enumerate(data) if b)
    return f'{stray} nonzero bytes outside the regions, first at {where}'


def report(suite, cases):
    """Print cases [(name, error or None)] as KTAP suite `suite`; the exit status."""
    print(f'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: {suite}')
    print(f'    1..{len(cases)}')
    failed = 0
    for i, (name, err) in enumerate(cases, 1):
        if err:
            failed += 1
            print(f'    # {name}: {err}')
        print(f'    {"not ok" if err else "ok"} {i} {name}')
    print(f'# {suite}: pass:{len(cases) - failed} fail:{failed} skip:0 total:{len(cases)}')
    print(f'{"not ok" if failed else "ok"} 1 {suite}')
    return 1 if failed else 0


def main(args, suite, check_image, usage):
    """Run check_image(path, seed) on each IMAGE:SEED of args and report."""
    if not args:
        print(usage, file=sys.stderr)
        return 2
    cases = []
    for arg in args:
        path, _, seed = arg.rpartition(':')
        cases += check_image(path, int(seed, 0))
    return report(suite, cases)
