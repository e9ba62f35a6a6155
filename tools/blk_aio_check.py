#!/usr/bin/env python3
# blk_aio_check.py: verify, byte by byte, the disk images the blk_aio_pattern suite wrote through AIO.
"""usage: blk_aio_check.py IMAGE:SEED [IMAGE:SEED ...]

user/bin/test_blk.c (mode "pattern") writes, through io_submit, the pattern of
kernel/tests/blktest.h (tools/blk_image.py computes it) into the regions below:
every sector of each must hold it for the image's seed, and every other byte
must still be zero (make test-disks creates the images empty).
Prints a KTAP suite "blk_aio_host_check"; exit status 0 when all cases pass.
"""
import sys

import blk_image

# Keep in step with pattern_regions[] and PATTERN_* in user/bin/test_blk.c.
REGIONS = [(0, 1), (1, 7), (8, 2048), (4096, 256), (20000, 2049)]     # (sector, count)
SCATTER, SCATTER_AT = 64, 10000         # one sector at SCATTER_AT + 3 * i
TAIL = 8                                # the last sectors of the image


def regions(nr_sectors):
    """Every (sector, count) the guest wrote on an image of nr_sectors."""
    return (REGIONS + [(SCATTER_AT + 3 * i, 1) for i in range(SCATTER)]
            + [(nr_sectors - TAIL, TAIL)])


def check_image(path, seed):
    """[(case name, error or None)] for one image."""
    name, data = blk_image.load(path)
    if isinstance(data, OSError):
        return [(f'{name}_readable', str(data))]
    if len(data) < 16 << 20 or len(data) % blk_image.SECTOR:
        return [(f'{name}_size', f'{len(data)} bytes: not a 16 MiB or larger disk')]
    return [(f'{name}_pattern_regions',
             blk_image.check_regions(data, regions(len(data) // blk_image.SECTOR), seed)),
            (f'{name}_rest_is_zero', blk_image.rest_is_zero(data))]


if __name__ == '__main__':
    sys.exit(blk_image.main(sys.argv[1:], 'blk_aio_host_check', check_image, __doc__))
