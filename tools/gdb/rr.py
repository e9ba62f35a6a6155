# rr.py: gdb helpers for QEMU record/replay sessions (make replay): k-rr and $k_batch_has.
"""Loaded by tools/gdb/gdbinit next to aiokern.py.

k-rr            where the replay is: QEMU's instruction count (monitor info replay)
$k_batch_has(iocbpp, nr, obj)
                1 + the index of the user iocb address obj in an io_submit batch
                (the user array iocbpp[0..nr-1]), 0 when it is not there: the
                condition that stops reverse-continue at the submit of the
                request a later stop in aio_complete names (req->ki_user_obj).
"""
import gdb

BATCH_MAX = 4096        # longer batches are not searched (a conditional breakpoint runs this at every hit)


class BatchHas(gdb.Function):
    """$k_batch_has(iocbpp, nr, obj): 1 + index of iocb address obj in iocbpp[0..nr-1], or 0."""

    def __init__(self):
        super().__init__('k_batch_has')

    def invoke(self, iocbpp, nr, obj):
        base, n, want = int(iocbpp), int(nr), int(obj) & 0xffffffff
        if n <= 0 or n > BATCH_MAX:
            return 0
        try:
            mem = gdb.selected_inferior().read_memory(base, 4 * n).tobytes()
        except gdb.MemoryError:
            return 0
        for i in range(n):
            if int.from_bytes(mem[4 * i:4 * i + 4], 'little') == want:
                return i + 1
        return 0


class KRr(gdb.Command):
    """Print where a replay is: QEMU's instruction count since the recording began.
Usage: k-rr    (QEMU started by make replay; elsewhere QEMU says replay is off)"""

    def __init__(self):
        super().__init__('k-rr', gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        try:
            text = gdb.execute('monitor info replay', to_string=True)
        except gdb.error as e:
            gdb.write('k-rr: %s\n' % e)
            return
        gdb.write(text if text.endswith('\n') else text + '\n')


BatchHas()
KRr()
