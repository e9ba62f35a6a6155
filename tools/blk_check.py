#!/usr/bin/env python3
# blk_check.py: verify, byte by byte, the disk images the blk_pattern suite wrote.
"""usage: blk_check.py IMAGE:SEED [IMAGE:SEED ...]

Every sector of each region (kernel/tests/blk_pattern_test.c) must hold the
pattern of kernel/tests/blktest.h for its seed, and every other byte of the
image must still be zero (the images are created empty by make test-disks).
Prints a KTAP suite "blk_host_check"; exit status 0 when all cases pass.
"""
import os
import struct
import sys

SECTOR = 512
REGIONS = [(0, 1), (1, 7), (100, 64), (2048, 256), (32760, 8)]   # (sector, count)
IMAGE_SECTORS = 32768


def word(sector, w, seed):
    """blktest_word(): (u32)s * 0x9E3779B1 ^ w * 0x01000193 ^ (u32)(s >> 32) ^ seed."""
    return (((sector * 0x9E3779B1) & 0xFFFFFFFF) ^ ((w * 0x01000193) & 0xFFFFFFFF)
            ^ (sector >> 32) ^ seed)


def expected_sector(sector, seed):
    return struct.pack('<128I', *(word(sector, w, seed) for w in range(SECTOR // 4)))


def check_image(path, seed):
    """[(case name, error or None)] for one image."""
    name = os.path.basename(path).rsplit('.', 1)[0].replace('-', '_')
    try:
        with open(path, 'rb') as f:
            data = bytearray(f.read())
    except OSError as err:
        return [(f'{name}_readable', str(err))]
    cases = [(f'{name}_size', None if len(data) == IMAGE_SECTORS * SECTOR
              else f'{len(data)} bytes, expected {IMAGE_SECTORS * SECTOR}')]
    bad = None
    for start, count in REGIONS:
        for s in range(start, start + count):
            got = bytes(data[s * SECTOR:(s + 1) * SECTOR])
            if bad is None and got != expected_sector(s, seed):
                first = next(i for i, (a, b) in enumerate(zip(got, expected_sector(s, seed)))
                             if a != b)
                bad = f'sector {s} byte {first}: {got[first]:#04x}'
            data[s * SECTOR:(s + 1) * SECTOR] = bytes(SECTOR)    # checked: blank it
    cases.append((f'{name}_pattern_regions', bad))
    stray = len(data) - data.count(0)
    where = next((i for i, b in enumerate(data) if b), None) if stray else None
    cases.append((f'{name}_rest_is_zero', None if not stray
                  else f'{stray} nonzero bytes outside the regions, first at {where}'))
    return cases


def main(args):
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    cases = []
    for arg in args:
        path, _, seed = arg.rpartition(':')
        cases += check_image(path, int(seed, 0))
    print('KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: blk_host_check')
    print(f'    1..{len(cases)}')
    failed = 0
    for i, (name, err) in enumerate(cases, 1):
        if err:
            failed += 1
            print(f'    # {name}: {err}')
        print(f'    {"not ok" if err else "ok"} {i} {name}')
    print(f'# blk_host_check: pass:{len(cases) - failed} fail:{failed} skip:0 total:{len(cases)}')
    print(f'{"not ok" if failed else "ok"} 1 blk_host_check')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
