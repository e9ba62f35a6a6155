#!/usr/bin/env python3
# blk_check.py: verify, byte by byte, the disk images the blk_pattern suite wrote.
"""usage: blk_check.py IMAGE:SEED [IMAGE:SEED ...]

Every sector of each region (kernel/tests/blk_pattern_test.c) must hold the
pattern of kernel/tests/blktest.h for its seed, and every other byte of the
image must still be zero (the images are created empty by make test-disks).
Prints a KTAP suite "blk_host_check"; exit status 0 when all cases pass.
"""
import sys

import blk_image

REGIONS = [(0, 1), (1, 7), (100, 64), (2048, 256), (32760, 8)]   # (sector, count)
IMAGE_SECTORS = 32768


def check_image(path, seed):
    """[(case name, error or None)] for one image."""
    name, data = blk_image.load(path)
    if isinstance(data, OSError):
        return [(f'{name}_readable', str(data))]
    size = IMAGE_SECTORS * blk_image.SECTOR
    return [(f'{name}_size', None if len(data) == size else f'{len(data)} bytes, expected {size}'),
            (f'{name}_pattern_regions', blk_image.check_regions(data, REGIONS, seed)),
            (f'{name}_rest_is_zero', blk_image.rest_is_zero(data))]


if __name__ == '__main__':
    sys.exit(blk_image.main(sys.argv[1:], 'blk_host_check', check_image, __doc__))
