#!/usr/bin/env python3
# blk_aio_check.py: verify, byte by byte, the disk images the blk_aio_pattern suite wrote through AIO.
"""usage: blk_aio_check.py IMAGE:SEED [IMAGE:SEED ...]

user/bin/test_blk.c (mode "pattern") writes, through io_submit, the pattern of
kernel/tests/blktest.h (tools/blk_check.py computes it) into the regions below:
every sector of each must hold it for the image's seed, and every other byte
must still be zero (make test-disks creates the images empty).
Prints a KTAP suite "blk_aio_host_check"; exit status 0 when all cases pass.
"""
import os
import sys

from blk_check import SECTOR, expected_sector

# Keep in step with pattern_regions[] and PATTERN_* in user/bin/test_blk.c.
REGIONS = [(0, 1), (1, 7), (8, 2048), (4096, 256), (20000, 2049)]     # (sector, count)
SCATTER, SCATTER_AT = 64, 10000         # one sector at SCATTER_AT + 3 * i
TAIL = 8                                # the last sectors of the image


def regions(nr_sectors):
    """Every (sector, count) the guest wrote on an image of nr_sectors."""
    return (REGIONS + [(SCATTER_AT + 3 * i, 1) for i in range(SCATTER)]
            + [(nr_sectors - TAIL, TAIL)])


def check_pattern(data, seed):
    """Blank every checked sector of data; the first mismatch, or None."""
    bad = None
    for start, count in regions(len(data) // SECTOR):
        for s in range(start, start + count):
            got = bytes(data[s * SECTOR:(s + 1) * SECTOR])
            want = expected_sector(s, seed)
            if bad is None and got != want:
                first = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
                bad = f'sector {s} byte {first}: {got[first]:#04x}, expected {want[first]:#04x}'
            data[s * SECTOR:(s + 1) * SECTOR] = bytes(SECTOR)
    return bad


def check_image(path, seed):
    """[(case name, error or None)] for one image."""
    name = os.path.basename(path).rsplit('.', 1)[0].replace('-', '_')
    try:
        with open(path, 'rb') as f:
            data = bytearray(f.read())
    except OSError as err:
        return [(f'{name}_readable', str(err))]
    if len(data) < 16 << 20 or len(data) % SECTOR:
        return [(f'{name}_size', f'{len(data)} bytes: not a 16 MiB or larger disk')]
    cases = [(f'{name}_pattern_regions', check_pattern(data, seed))]
    stray = len(data) - data.count(0)
    where = next((i for i, b in enumerate(data) if b), None) if stray else None
    cases.append((f'{name}_rest_is_zero', None if not stray
                  else f'{stray} nonzero bytes outside the regions, first at {where}'))
    return cases


def report(cases):
    print('KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: blk_aio_host_check')
    print(f'    1..{len(cases)}')
    failed = 0
    for i, (name, err) in enumerate(cases, 1):
        if err:
            failed += 1
            print(f'    # {name}: {err}')
        print(f'    {"not ok" if err else "ok"} {i} {name}')
    print(f'# blk_aio_host_check: pass:{len(cases) - failed} fail:{failed} skip:0 '
          f'total:{len(cases)}')
    print(f'{"not ok" if failed else "ok"} 1 blk_aio_host_check')
    return 1 if failed else 0


def main(args):
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    cases = []
    for arg in args:
        path, _, seed = arg.rpartition(':')
        cases += check_image(path, int(seed, 0))
    return report(cases)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
