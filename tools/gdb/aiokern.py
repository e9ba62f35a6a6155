# aiokern.py: gdb commands for aiokern (k-dmesg, k-ps, k-aio, k-kmap, k-mem, k-user), in the mould of Linux's lx-*.
"""Python gdb helpers for the aiokern kernel.

Sourced by tools/gdb/gdbinit. Types, field offsets and enum values come from the
kernel's debug information (gdb.lookup_type, container_of by field offset);
the macros gdb cannot see (LOG_BUF_LEN, TASK_*, MAX_ORDER, AIO_RING_MAGIC, ...)
come from $(BUILD)/gdb/constants.py, generated from the C headers at build time
(tools/gdb/constants.c, tools/gdb/gen_constants.py), found next to the kernel
ELF gdb has loaded. Every command only reads memory: none changes the guest.

A frame unwinder for the trap entry (trap_common) is registered too: bt goes
on through a trap frame to the interrupted code, into user space for a system
call (with the program's symbols loaded by k-user).
"""

import importlib.util
import os
import struct

import gdb
import gdb.unwinder

LIST_WALK_MAX = 100000          # a corrupt list must not hang gdb
_consts = None
_user_symfile = None            # user program whose symbols k-user loaded


# ---------------------------------------------------------------- basics

def kernel_path():
    """Path of the kernel ELF gdb has loaded (the first objfile)."""
    name = gdb.current_progspace().filename
    if not name:
        raise gdb.GdbError('no kernel loaded: file build/kernel.elf first')
    return name


def build_dir():
    return os.path.dirname(os.path.abspath(kernel_path()))


def consts():
    """The generated constants module (loaded once)."""
    global _consts
    if _consts is None:
        path = os.path.join(build_dir(), 'gdb', 'constants.py')
        if not os.path.exists(path):
            raise gdb.GdbError('%s is missing: run make kernel (it generates it)' % path)
        spec = importlib.util.spec_from_file_location('aiokern_constants', path)
        _consts = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_consts)
        check_constants(_consts)
    return _consts


def check_constants(c):
    """Compare constants.py with what the debug info says; warn on drift."""
    checks = [('sizeof(log_buf)', c.LOG_BUF_LEN),
              ('sizeof(kmap_atomic_slots)/sizeof(kmap_atomic_slots[0])', c.KM_TYPE_NR * c.NR_CPUS),
              ('sizeof(zones[0].free_area)/sizeof(zones[0].free_area[0])', c.MAX_ORDER),
              ('(int)KM_TYPE_NR', c.KM_TYPE_NR),
              ('(int)MAX_NR_ZONES', c.MAX_NR_ZONES)]
    for expr, want in checks:
        try:
            got = int(gdb.parse_and_eval(expr))
        except gdb.error:
            continue
        if got != want:
            gdb.write('warning: %s is %d in the kernel but %d in constants.py: '
                      'rebuild (make kernel)\n' % (expr, got, want))


def lookup_type(name):
    """gdb.Type for name, or None when the kernel's debug info lacks it."""
    try:
        t = gdb.lookup_type(name)
        return t if t.fields() else None    # an incomplete struct is as good as absent
    except gdb.error:
        return None


def has_field(value_or_type, name):
    t = value_or_type.type if isinstance(value_or_type, gdb.Value) else value_or_type
    t = t.strip_typedefs()
    if t.code == gdb.TYPE_CODE_PTR:
        t = t.target().strip_typedefs()
    try:
        return any(f.name == name for f in t.fields())
    except TypeError:
        return False


def field_offset(type_name, member):
    t = gdb.lookup_type(type_name)
    for f in t.fields():
        if f.name == member:
            return f.bitpos // 8
    raise gdb.GdbError('%s has no field %s' % (type_name, member))


def container_of(ptr, type_name, member):
    """The struct type_name that holds the field member ptr points at."""
    t = gdb.lookup_type(type_name)
    addr = int(ptr) - field_offset(type_name, member)
    return gdb.Value(addr).cast(t.pointer())


def list_for_each_entry(head, type_name, member):
    """Yield each type_name * on the list whose head is the struct list_head head."""
    head_addr = int(head.address)
    node = head['next']
    for _ in range(LIST_WALK_MAX):
        if int(node) == head_addr:
            return
        if int(node) == 0:
            gdb.write('warning: NULL link in the list at %#x\n' % head_addr)
            return
        yield container_of(node, type_name, member)
        node = node['next']
    gdb.write('warning: list at %#x did not end after %d entries\n' % (head_addr, LIST_WALK_MAX))


def symbol_offset(addr):
    """(name, offset) of the symbol at or below addr, or (None, None) (gdb's info symbol)."""
    if not addr:
        return None, None
    if in_vsyscall(addr):                       # the entry page: no objfile has it
        return 'vsyscall', addr - consts().VSYSCALL_ENTRY
    try:
        out = gdb.execute('info symbol %#x' % addr, to_string=True).strip()
    except gdb.error:
        return None, None
    if out.startswith('No symbol'):
        return None, None
    name = out.splitlines()[0].split(' in section ')[0]
    if ' + ' in name:
        sym, off = name.split(' + ')
        return sym, int(off)
    return name, 0


def symbolize(addr):
    """'name+0xoff' for a code or data address, or None (gdb's info symbol)."""
    name, off = symbol_offset(addr)
    if name is None:
        return None
    return '%s+%#x' % (name, off) if off else name


def read_bytes(addr, n):
    return bytes(gdb.selected_inferior().read_memory(addr, n))


def read_u32(addr):
    return struct.unpack('<I', read_bytes(addr, 4))[0]


def c_string(arr):
    """A char array field as a Python str."""
    raw = bytes(int(arr[i]) & 0xFF for i in range(arr.type.sizeof))
    return raw.split(b'\0')[0].decode('ascii', 'replace')


def ptr(value):
    return int(value.cast(gdb.lookup_type('unsigned long')))


_symbol_addresses = {}


def symbol_address(name):
    """Address of a kernel symbol, or None (cached until symbols are loaded again:
the trap-frame unwinder asks for every frame)."""
    if name not in _symbol_addresses:
        try:
            _symbol_addresses[name] = ptr(gdb.parse_and_eval('&' + name))
        except gdb.error:
            return None
    return _symbol_addresses[name]


def pc_function(pc):
    """(function name, source file) of a code address, or (None, None)."""
    try:
        block = gdb.block_for_pc(pc)
    except RuntimeError:
        block = None
    while block is not None and block.function is None:
        block = block.superblock
    sal = gdb.find_pc_line(pc)
    filename = sal.symtab.filename if sal.symtab else None
    if block is not None:
        return block.function.name, filename
    sym = symbolize(pc)
    return (sym.split('+')[0] if sym else None), filename


# ---------------------------------------------------------------- trap frames

TRAP_FRAME_REGS = ('eax', 'ecx', 'edx', 'ebx', 'ebp', 'esi', 'edi', 'eip', 'eflags',
                   'cs', 'ds', 'es', 'fs', 'gs')


def read_trap_frame(addr):
    """The struct trap_frame at addr as a dict of its fields (u32 each)."""
    t = gdb.lookup_type('struct trap_frame')
    names = [f.name for f in t.fields()]
    values = struct.unpack('<%dI' % len(names), read_bytes(addr, 4 * len(names)))
    tf = dict(zip(names, values))
    tf['from_user'] = (tf['cs'] & 3) == 3
    # The CPU pushes esp and ss only on a change of privilege level.
    tf['sp'] = tf['user_esp'] if tf['from_user'] else addr + field_offset('struct trap_frame', 'user_esp')
    return tf


# (entry, where its frame ends, the C function it passes the frame to)
TRAP_ENTRIES = (('trap_common', 'trap_return', 'trap_dispatch'),
                ('sysenter_entry', 'sysenter_entry_end', 'sysenter_dispatch'))


def trap_return_address(pc):
    """True when pc is where trap_dispatch returns to in trap_common (or
sysenter_dispatch in sysenter_entry): the word at esp is then the frame."""
    for names in TRAP_ENTRIES:
        start, end, dispatch = (symbol_address(n) for n in names)
        if None in (start, end, dispatch) or not start + 5 <= pc <= end:
            continue
        try:
            code = read_bytes(pc - 5, 5)
        except gdb.error:
            return False
        rel = struct.unpack_from('<i', code, 1)[0]
        return code[0] == 0xE8 and (pc + rel) & 0xFFFFFFFF == dispatch
    return False


def vsyscall_caller(tf):
    """If tf's user eip is in the vsyscall page, make tf the stub's frame that
called it (eip, sp, ebp), read through the current page directory."""
    if in_vsyscall(tf['eip']):
        try:
            tf['eip'], tf['sp'], tf['ebp'] = vsyscall_unwind(tf['eip'], tf['sp'], tf['ebp'], read_u32)
        except (gdb.error, gdb.MemoryError):
            pass


class _FrameId:
    def __init__(self, sp, pc):
        u32 = gdb.lookup_type('unsigned long')
        self.sp = gdb.Value(sp).cast(u32)
        self.pc = gdb.Value(pc).cast(u32)


class TrapFrameUnwinder(gdb.unwinder.Unwinder):
    """Unwinds trap_common (kernel/trap_entry.asm) through its struct trap_frame:
the caller frame is the interrupted code, kernel or user. gdb's bt stops after
the first user frame ("previous frame inner to this frame": the user stack lies
below the kernel's); k-user prints the rest of the user stack. A user frame in
the vsyscall page (the SYSENTER trampoline, which has no symbols) is shown as
the stub that called it; k-user lists both."""

    def __init__(self):
        super().__init__('aiokern-trap-frame')

    def __call__(self, pending_frame):
        pc = int(pending_frame.read_register('pc'))
        if not trap_return_address(pc):
            return None
        try:
            # trap_common pushed the frame's address as trap_dispatch's argument.
            tf_addr = read_u32(int(pending_frame.read_register('esp')))
            tf = read_trap_frame(tf_addr)
        except (gdb.error, gdb.MemoryError):
            return None
        if tf['from_user']:
            vsyscall_caller(tf)
        u32 = gdb.lookup_type('unsigned int')
        info = pending_frame.create_unwind_info(
            _FrameId(tf_addr + field_offset('struct trap_frame', 'user_esp'),
                     symbol_address('trap_common')))
        for reg in TRAP_FRAME_REGS:
            info.add_saved_register(reg, gdb.Value(tf[reg]).cast(u32))
        info.add_saved_register('esp', gdb.Value(tf['sp']).cast(u32))
        info.add_saved_register('ss', gdb.Value(tf['user_ss'] if tf['from_user'] else
                                                int(pending_frame.read_register('ss'))).cast(u32))
        return info


# ---------------------------------------------------------------- tasks

def tasks():
    """Every struct task * on task_list, in list order."""
    return list_for_each_entry(gdb.parse_and_eval('task_list'), 'struct task', 'tasks')


def current_cpu():
    """The CPU gdb looks at: QEMU's gdbstub numbers one thread per vCPU from 1."""
    try:
        return max(gdb.selected_thread().num - 1, 0)
    except (gdb.error, AttributeError):
        return 0


def current_expr():
    """A C expression for the task the selected CPU runs (`current` is a macro
    on esp in the kernel: cpus[n].curr mirrors it at every switch)."""
    return '((struct task *)cpus[%d].curr)' % current_cpu()


def current_task():
    try:
        return ptr(gdb.parse_and_eval(current_expr()))
    except gdb.error:
        return 0


def task_state(t):
    c = consts()
    state = int(t['state'])
    names = [(c.TASK_RUNNING, 'R'), (c.TASK_INTERRUPTIBLE, 'S'),
             (c.TASK_UNINTERRUPTIBLE, 'D'), (c.TASK_ZOMBIE, 'Z'),
             (c.TASK_STOPPED, 'T'), (c.TASK_KILLABLE, 'K'), (c.TASK_DEAD, 'X')]
    for value, letter in names:
        if state == value:
            return letter
    return '?%#x' % state


# ---------------------------------------------------------------- memory

def page_pfn(page):
    """pfn of a struct page * (page - mem_map)."""
    mem_map = gdb.parse_and_eval('mem_map')
    return (ptr(page) - ptr(mem_map)) // mem_map.dereference().type.sizeof


def phys_read_lowmem(phys, n):
    """Read physical memory through the direct map; None above the low-memory limit."""
    c = consts()
    max_low_pfn = int(gdb.parse_and_eval('max_low_pfn'))
    if (phys + n - 1) >> c.PAGE_SHIFT >= max_low_pfn:
        return None
    return read_bytes(c.KERNEL_BASE + phys, n)


def kernel_mapping_of(pfn):
    """A kernel virtual address that maps pfn right now (kmap or kmap_atomic), or None."""
    c = consts()
    page = gdb.parse_and_eval('&mem_map[%d]' % pfn)
    virt = ptr(page['virtual']) if has_field(page, 'virtual') else 0
    if virt and not (int(page['flags']) & c.PG_SLAB):
        return virt
    slots = gdb.parse_and_eval('kmap_atomic_slots')
    for i in range(c.KM_TYPE_NR * c.NR_CPUS):
        p = slots[i]['page']
        if ptr(p) and page_pfn(p) == pfn:
            return c.FIXADDR_TOP - ((c.FIX_KMAP_BEGIN + i) << c.PAGE_SHIFT)
    return None


def phys_read_qemu(phys, n):
    """Read guest physical memory through QEMU's gdbstub physical mode; None if unsupported."""
    try:
        gdb.execute('maintenance packet Qqemu.PhyMemMode:1', to_string=True)
    except gdb.error:
        return None
    try:
        gdb.execute('maintenance flush dcache', to_string=True)
        return read_bytes(phys, n)
    except gdb.error:
        return None
    finally:
        gdb.execute('maintenance packet Qqemu.PhyMemMode:0', to_string=True)
        gdb.execute('maintenance flush dcache', to_string=True)


def phys_read(phys, n):
    """n bytes of physical memory (within one page) and how they were reached, or (None, why)."""
    c = consts()
    data = phys_read_lowmem(phys, n)
    if data is not None:
        return data, 'direct map'
    virt = kernel_mapping_of(phys >> c.PAGE_SHIFT)
    if virt is not None:
        return read_bytes(virt + (phys & (c.PAGE_SIZE - 1)), n), 'kmap %#x' % virt
    data = phys_read_qemu(phys, n)
    if data is not None:
        return data, 'qemu physical'
    return None, 'highmem page, not mapped now'


def pgdir_to_phys(pgdir, va):
    """Translate va through the page directory at kernel address pgdir; None when not mapped."""
    c = consts()
    if not pgdir:
        return None
    pde = read_u32(pgdir + 4 * (va >> 22))
    if not pde & c.PTE_PRESENT:
        return None
    if pde & c.PTE_PSE:
        return (pde & 0xFFC00000) | (va & 0x3FFFFF)
    table = phys_read_lowmem((pde & ~0xFFF) + 4 * ((va >> 12) & 0x3FF), 4)
    if table is None:
        return None
    pte = struct.unpack('<I', table)[0]
    if not pte & c.PTE_PRESENT:
        return None
    return (pte & ~0xFFF) | (va & 0xFFF)


def user_read(mm, va, n):
    """n bytes at user address va of address space mm, or (None, why)."""
    c = consts()
    out = b''
    how = None
    while n > 0:
        chunk = min(n, c.PAGE_SIZE - (va & (c.PAGE_SIZE - 1)))
        phys = pgdir_to_phys(ptr(mm['pgdir']), va)
        if phys is None:
            return None, 'not mapped'
        data, how = phys_read(phys, chunk)
        if data is None:
            return None, how
        out += data
        va += chunk
        n -= chunk
    return out, how


# ---------------------------------------------------------------- k-dmesg

def log_ring_text(data, end, size):
    """The log as printed: the last min(end, size) bytes of a ring whose write
    position is end % size (end counts every byte ever logged)."""
    if end <= size:
        return data[:end]
    start = end % size
    return data[start:size] + data[:start]


class KDmesg(gdb.Command):
    """Print the kernel log ring (log_buf/log_end), oldest byte first.
Usage: k-dmesg [N]   (only the last N lines with N)"""

    def __init__(self):
        super().__init__('k-dmesg', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        c = consts()
        end = int(gdb.parse_and_eval('log_end'))
        addr = int(gdb.parse_and_eval('&log_buf[0]'))
        data = read_bytes(addr, c.LOG_BUF_LEN)
        text = log_ring_text(data, end, c.LOG_BUF_LEN).decode('utf-8', 'replace')
        if arg.strip():
            text = ''.join(text.splitlines(True)[-int(arg):])
        gdb.write(text)
        if text and not text.endswith('\n'):
            gdb.write('\n')


# ---------------------------------------------------------------- k-ps

def wait_channel_name(chan, known):
    """What a task waits on: a symbol, a known object, or a wait queue address."""
    if not chan:
        return '-'
    if chan in known:
        return known[chan]
    sym = symbolize(chan)
    if sym:
        return sym
    return 'waitq %#x' % chan


# Code a sleeping task is inside of without being the reason it sleeps: the
# scheduler, the wait-queue primitives, the trap path (Linux's sched text).
SCHED_FILES = ('kernel/sched.c', 'kernel/wait.c', 'kernel/trap.c', 'kernel/switch.asm',
               'kernel/trap_entry.asm')
STACK_WALK_MAX = 32


def sleeping_in(t):
    """Where a task that is not running stopped: the first function of its
    saved kernel stack outside SCHED_FILES ('name+0xoff'), 'user-mode' when it
    was preempted there, or '-'. Walks the frame-pointer chain from the
    registers switch_context saved (edi, esi, ebx, ebp, return address) and
    goes on through a trap frame to the interrupted code."""
    try:
        ebp, pc = struct.unpack('<2I', read_bytes(int(t['esp']) + 12, 8))
        is_return = True        # pc is a return address (look up the call: pc - 1)
        fallback = None
        for _ in range(STACK_WALK_MAX):
            name, filename = pc_function(pc - 1 if is_return else pc)
            if name is None:
                break
            if not filename or not filename.endswith(SCHED_FILES):
                return symbolize(pc) or '%#x' % pc
            if not filename.endswith('.asm'):
                fallback = symbolize(pc)
            if not ebp:
                break
            caller_ebp, ret = struct.unpack('<2I', read_bytes(ebp, 8))
            if trap_return_address(ret):
                # ebp is trap_dispatch's frame: its argument is the trap frame.
                tf = read_trap_frame(read_u32(ebp + 8))
                if tf['from_user']:
                    return 'user-mode'
                ebp, pc, is_return = tf['ebp'], tf['eip'], False
                continue
            ebp, pc, is_return = caller_ebp, ret, True
        return fallback or '-'
    except (gdb.error, gdb.MemoryError):
        return '?'


# Wait queues that have a name but no symbol of their own (k-ps): each CPU's
# worker queue of the system workqueue (kernel/workqueue.c: one worker per CPU).
KNOWN_WAIT_QUEUES = ['system_wq->cwq[%d].more_work']


def known_wait_queue_exprs():
    """KNOWN_WAIT_QUEUES with %d filled in by every index of system_wq->cwq."""
    try:
        n = int(gdb.parse_and_eval('sizeof(system_wq->cwq) / sizeof(system_wq->cwq[0])'))
    except gdb.error:
        n = 0
    return [e % i if '%d' in e else e for e in KNOWN_WAIT_QUEUES
            for i in (range(n) if '%d' in e else [0])]


def known_wait_queues():
    """{address: name} of KNOWN_WAIT_QUEUES and of every AIO context's ctx->wait."""
    known = {}
    for expr in known_wait_queue_exprs():
        try:
            known[int(gdb.parse_and_eval('&' + expr))] = expr
        except gdb.error:
            pass
    try:
        for t, ctx in all_contexts():
            known[int(ctx['wait'].address)] = 'aio ctx %#x wait' % int(ctx['ring']['user_base'])
    except gdb.error:
        pass
    return known


class KPs(gdb.Command):
    """List the tasks on task_list: pid, state, name, where and on what they wait.
State: R running or runnable, S interruptible sleep, D uninterruptible, Z zombie;
'*' marks the current task. WCHAN is the function a task that is not running
stopped in (the first caller outside the scheduler and the wait-queue code, as
Linux's wchan), 'user-mode' for a task preempted there, '-' for the current
task and a zombie. WAIT is wait_channel symbolized (info symbol), or the wait queue's
address when it has no symbol."""

    def __init__(self):
        super().__init__('k-ps', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cur = current_task()
        known = known_wait_queues()
        gdb.write('%5s %-3s %-10s %-16s %-4s %8s %-26s %s\n' %
                  ('PID', 'ST', 'TASK', 'NAME', 'MM', 'SWITCHES', 'WCHAN', 'WAIT'))
        n = 0
        for t in tasks():
            state = task_state(t) + ('*' if ptr(t) == cur else '')
            mm = 'user' if ptr(t['mm']) else '-'
            wchan = '-' if ptr(t) == cur or state == 'Z' else sleeping_in(t)
            gdb.write('%5d %-3s %#010x %-16s %-4s %8d %-26s %s\n' %
                      (int(t['pid']), state, ptr(t), c_string(t['name']), mm,
                       int(t['nr_switches']), wchan,
                       wait_channel_name(ptr(t['wait_channel']), known)))
            n += 1
        gdb.write('%d tasks (nr_tasks %d)\n' % (n, int(gdb.parse_and_eval('nr_tasks'))))


# ---------------------------------------------------------------- k-aio

def task_contexts(t):
    """The struct kioctx * of task t's address space (empty without one)."""
    mm = t['mm']
    if not ptr(mm) or not has_field(mm, 'aio'):
        return []
    aio = mm['aio']
    if not ptr(aio):
        return []
    return list(list_for_each_entry(aio['contexts'], 'struct kioctx', 'mm_list'))


def all_contexts():
    """(task, ctx) for every context; an address space shared by tasks is shown once."""
    if lookup_type('struct kioctx') is None:
        return []
    seen, out = set(), []
    for t in tasks():
        mm = ptr(t['mm'])
        if not mm or mm in seen:
            continue
        seen.add(mm)
        out.extend((t, ctx) for ctx in task_contexts(t))
    return out


def opcode_name(op):
    c = consts()
    names = {c.IOCB_CMD_PREAD: 'PREAD', c.IOCB_CMD_PWRITE: 'PWRITE', c.IOCB_CMD_FSYNC: 'FSYNC',
             c.IOCB_CMD_FDSYNC: 'FDSYNC', c.IOCB_CMD_NOOP: 'NOOP'}
    return names.get(op, 'op%d' % op)


def file_fd(t, filp):
    """Descriptor numbers of task t that point at struct file filp."""
    if not has_field(t, 'files') or not ptr(t['files']):
        return []
    fds = ptr(t['files']['fd'])         # NR_OPEN slots, read at once
    if not fds:
        return []
    n = consts().NR_OPEN
    raw = bytes(gdb.selected_inferior().read_memory(fds, 4 * n))
    return [i for i, p in enumerate(struct.unpack('<%dI' % n, raw)) if p == filp]


def kif_flags(flags):
    c = consts()
    if not getattr(c, 'HAVE_AIO_CORE', 0):
        return '%#x' % flags
    names = [(c.KIF_COMPLETED, 'completed'), (c.KIF_CANCELLING, 'cancelling'),
             (c.KIF_CANCELLED, 'cancelled')]
    out = [n for bit, n in names if flags & bit]
    return ','.join(out) if out else '-'


def ring_header(mm, ctx):
    """The ring header as user space sees it: (dict, how) or (None, why)."""
    c = consts()
    ring = ctx['ring']
    if not ptr(ring['pages']) or int(ring['nr_pages']) == 0:
        return None, 'no pages'
    page0 = ring['pages'][0]
    data, how = phys_read(page_pfn(page0) << c.PAGE_SHIFT, c.AIO_RING_HEADER_SIZE)
    if data is None:
        data, how = user_read(mm, int(ring['user_base']), c.AIO_RING_HEADER_SIZE)
    if data is None:
        return None, how
    keys = ('id', 'nr', 'head', 'tail', 'magic', 'compat', 'incompat', 'header_length')
    return dict(zip(keys, struct.unpack('<8I', data))), how


def show_ring(mm, ctx):
    c = consts()
    ring = ctx['ring']
    nr, ktail = int(ring['nr']), int(ring['tail'])
    gdb.write('  ring: %d pages at user %#x, nr %d, trusted tail %d\n' %
              (int(ring['nr_pages']), int(ring['user_base']), nr, ktail))
    hdr, how = ring_header(mm, ctx)
    if hdr is None:
        gdb.write('  ring header: (%s)\n' % how)
        return
    magic = 'ok' if hdr['magic'] == c.AIO_RING_MAGIC else 'BAD %#x' % hdr['magic']
    unreaped = (hdr['tail'] + nr - hdr['head']) % nr if nr and hdr['head'] < nr else '?'
    gdb.write('  ring header (%s): id %#x nr %d head %d tail %d magic %s compat %d '
              'incompat %d header_length %d; %s events unreaped\n' %
              (how, hdr['id'], hdr['nr'], hdr['head'], hdr['tail'], magic, hdr['compat'],
               hdr['incompat'], hdr['header_length'], unreaped))
    if hdr['tail'] != ktail or hdr['nr'] != nr:
        gdb.write('  note: the user-visible header differs from the kernel\'s trusted copy\n')


def user_iocb(mm, addr):
    """Fields of the user's struct iocb at addr, or (None, why)."""
    c = consts()
    data, how = user_read(mm, addr, c.IOCB_SIZE)
    if data is None:
        return None, how
    u32 = lambda off: struct.unpack_from('<I', data, off)[0]
    u64 = lambda off: struct.unpack_from('<Q', data, off)[0]
    return {'key': u32(c.IOCB_OFF_KEY), 'opcode': struct.unpack_from('<H', data, c.IOCB_OFF_OPCODE)[0],
            'fildes': u32(c.IOCB_OFF_FILDES), 'buf': u64(c.IOCB_OFF_BUF),
            'nbytes': u64(c.IOCB_OFF_NBYTES),
            'offset': struct.unpack_from('<q', data, c.IOCB_OFF_OFFSET)[0]}, how


def show_requests(t, mm, ctx):
    reqs = list(list_for_each_entry(ctx['active_reqs'], 'struct kiocb', 'ki_list'))
    if not reqs:
        gdb.write('  no active requests\n')
        return
    gdb.write('  %4s %-10s %-6s %-11s %-10s %5s %-12s %-10s %10s %10s %s\n' %
              ('KEY', 'IOCB', 'OP', 'FD', 'FILE', 'USERS', 'FLAGS', 'BUF', 'NBYTES',
               'OFFSET', 'CANCEL'))
    for req in reqs:
        filp = ptr(req['ki_filp'])
        fds = file_fd(t, filp)
        cb, why = user_iocb(mm, int(req['ki_user_obj']))
        fd = ','.join(map(str, fds)) if fds else '?'
        if cb is not None:
            if not fds or cb['fildes'] not in fds:
                fd += ' (iocb %d)' % cb['fildes']
            buf, nbytes, off = '%#x' % cb['buf'], str(cb['nbytes']), str(cb['offset'])
        else:
            buf, nbytes, off = '(%s)' % why, '-', '-'
        cancel = symbolize(ptr(req['ki_cancel'])) or '-'
        gdb.write('  %4d %#010x %-6s %-11s %#010x %5d %-12s %-10s %10s %10s %s\n' %
                  (int(req['ki_key']), int(req['ki_user_obj']), opcode_name(int(req['ki_opcode'])),
                   fd, filp, int(req['ki_users']['counter']), kif_flags(int(req['ki_flags'])), buf, nbytes,
                   off, cancel))


class KAio(gdb.Command):
    """Show the AIO contexts of every task with an address space, or of one pid.
Usage: k-aio [PID]
Per context (struct kioctx on mm->aio->contexts): its id (the ring's user
address), max_reqs, reqs_active, the kernel's ring nr and trusted tail, and the
ring header as user space sees it (read through the direct map, a current kmap,
or QEMU's physical-memory mode for a HighMem page). Then each active request
(struct kiocb on active_reqs): key, user iocb address, opcode, descriptor (from
the task's fd table; the iocb's aio_fildes when they differ), struct file,
references, flags, and the buffer, length and offset read from the user iocb."""

    def __init__(self):
        super().__init__('k-aio', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        want = int(arg) if arg.strip() else None
        if lookup_type('struct kioctx') is None:
            gdb.write('no AIO contexts (this kernel has no AIO core: struct kioctx unknown)\n')
            return
        shown = 0
        seen = set()
        for t in tasks():
            if want is not None and int(t['pid']) != want:
                continue
            mm = t['mm']
            if not ptr(mm) or ptr(mm) in seen:
                continue
            seen.add(ptr(mm))
            ctxs = task_contexts(t)
            gdb.write('pid %d %s: mm %#x, %d AIO context%s\n' %
                      (int(t['pid']), c_string(t['name']), ptr(mm), len(ctxs),
                       '' if len(ctxs) == 1 else 's'))
            for ctx in ctxs:
                shown += 1
                gdb.write(' ctx %#x (kioctx %#x): max_reqs %d reqs_active %d users %d%s\n' %
                          (int(ctx['ring']['user_base']), ptr(ctx), int(ctx['max_reqs']),
                           int(ctx['reqs_active']), int(ctx['users']['counter']),
                           ' DEAD' if bool(ctx['dead']) else ''))
                show_ring(mm.dereference(), ctx)
                show_requests(t, mm.dereference(), ctx)
        if not shown:
            who = 'pid %d' % want if want is not None else 'any task'
            gdb.write('no AIO contexts (%s)\n' % who)
        try:
            gdb.write('aio_nr %d / aio_max_nr %d\n' % (int(gdb.parse_and_eval('aio_nr.counter')),
                                                      int(gdb.parse_and_eval('aio_max_nr'))))
        except gdb.error:
            pass


# ---------------------------------------------------------------- k-kmap

class KKmap(gdb.Command):
    """Show the kmap_atomic slots in use (slot, address, page, pfn, caller) and
the persistent kmap entries in use (entry, address, count, page, pfn).
Usage: k-kmap [-a]   (-a: list free atomic slots too)"""

    def __init__(self):
        super().__init__('k-kmap', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        c = consts()
        show_all = arg.strip() == '-a'
        slots = gdb.parse_and_eval('kmap_atomic_slots')
        names = gdb.parse_and_eval('km_type_names')
        used = 0
        gdb.write('kmap_atomic slots (%d):\n' % c.KM_TYPE_NR)
        gdb.write('  %-15s %-10s %-10s %-8s %s\n' % ('SLOT', 'VADDR', 'PAGE', 'PFN', 'CALLER'))
        for i in range(c.KM_TYPE_NR * c.NR_CPUS):
            page = slots[i]['page']
            if i >= c.KM_TYPE_NR and not ptr(page):
                continue            # another CPU's free slot: not worth a line
            t = i % c.KM_TYPE_NR
            name = names[t].string() if ptr(names[t]) else 'slot%d' % t
            if i >= c.KM_TYPE_NR:
                name += '@cpu%d' % (i // c.KM_TYPE_NR)
            va = c.FIXADDR_TOP - ((c.FIX_KMAP_BEGIN + i) << c.PAGE_SHIFT)
            if ptr(page):
                used += 1
                caller = int(slots[i]['caller'])
                gdb.write('  %-15s %#010x %#010x %#07x  %s\n' %
                          (name, va, ptr(page), page_pfn(page),
                           symbolize(caller) or '%#x' % caller))
            elif show_all:
                gdb.write('  %-15s %#010x (free)\n' % (name, va))
        gdb.write('  %d of %d slots in use\n' % (used, c.KM_TYPE_NR))
        self.persistent(c)

    def persistent(self, c):
        try:
            counts = gdb.parse_and_eval('pkmap_count')
            ptes = ptr(gdb.parse_and_eval('kernel_ptes'))
        except gdb.error:
            gdb.write('persistent kmaps: (pkmap_count not in the debug info)\n')
            return
        data = read_bytes(int(counts.address), 4 * c.LAST_PKMAP)
        values = struct.unpack('<%dI' % c.LAST_PKMAP, data)
        inuse = [(nr, n) for nr, n in enumerate(values) if n]
        gdb.write('persistent kmaps (%d entries at %#x): %d in use\n' %
                  (c.LAST_PKMAP, c.PKMAP_BASE, len(inuse)))
        if inuse:
            gdb.write('  %-5s %-10s %5s %-10s %s\n' % ('ENTRY', 'VADDR', 'COUNT', 'PAGE', 'PFN'))
        for nr, n in inuse:
            va = c.PKMAP_BASE + (nr << c.PAGE_SHIFT)
            pte = read_u32(ptes + 4 * ((va - c.KERNEL_BASE) >> c.PAGE_SHIFT))
            pfn = pte >> c.PAGE_SHIFT
            page = int(gdb.parse_and_eval('&mem_map[%d]' % pfn))
            gdb.write('  %-5d %#010x %5d %#010x %#07x\n' % (nr, va, n, page, pfn))


# ---------------------------------------------------------------- k-mem

class KMem(gdb.Command):
    """Free pages per zone and per order (zones[z].free_area[o].nr_free, in
blocks of 2^o pages), and the slab caches on kmem_caches."""

    def __init__(self):
        super().__init__('k-mem', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        c = consts()
        zones = gdb.parse_and_eval('zones')
        gdb.write('%-8s %-13s %8s %8s  %s\n' % ('ZONE', 'PFNS', 'PAGES', 'FREE',
                                               'FREE BLOCKS BY ORDER 0..%d' % (c.MAX_ORDER - 1)))
        total = 0
        for z in range(c.MAX_NR_ZONES):
            zone = zones[z]
            blocks = [int(zone['free_area'][o]['nr_free']) for o in range(c.MAX_ORDER)]
            free = sum(n << o for o, n in enumerate(blocks))
            total += free
            note = '' if free == int(zone['free_pages']) else \
                '  (MISMATCH: free_pages %d)' % int(zone['free_pages'])
            gdb.write('%-8s %05x-%05x %8d %8d  %s%s\n' %
                      (zone['name'].string(), int(zone['start_pfn']), int(zone['end_pfn']),
                       int(zone['present_pages']), free, ' '.join(map(str, blocks)), note))
        gdb.write('total free: %d pages (%d KiB)\n' % (total, total * c.PAGE_SIZE // 1024))
        gdb.write('\n%-16s %7s %7s %6s %6s %7s %6s %6s\n' %
                  ('CACHE', 'OBJSIZE', 'STRIDE', 'ORDER', 'INUSE', 'PERSLAB', 'SLABS', 'PAGES'))
        pages = 0
        for cache in list_for_each_entry(gdb.parse_and_eval('kmem_caches'),
                                         'struct kmem_cache', 'list'):
            pages += int(cache['pages'])
            gdb.write('%-16s %7d %7d %6d %6d %7d %6d %6d\n' %
                      (cache['name'].string(), int(cache['object_size']), int(cache['size']),
                       int(cache['order']), int(cache['objs_in_use']),
                       int(cache['objs_per_slab']), int(cache['nr_slabs']), int(cache['pages'])))
        gdb.write('slab pages: %d\n' % pages)


# ---------------------------------------------------------------- k-user

def user_frame(t):
    """The trap frame task t entered the kernel by from user mode, or None."""
    if not ptr(t['mm']):
        return None
    addr = int(t['kstack_top']) - gdb.lookup_type('struct trap_frame').sizeof
    tf = read_trap_frame(addr)
    if not tf['from_user']:
        return None
    tf['addr'] = addr
    return tf


def trap_cause(tf):
    """Why the trap frame was made: 'system call N sys_x', 'irq N', or the exception."""
    c = consts()
    if tf['vector'] == c.T_SYSCALL:
        try:
            table = gdb.parse_and_eval('syscall_table')
            n = table.type.range()[1] + 1
            fn = symbolize(ptr(table[tf['eax']])) if tf['eax'] < n else None
        except gdb.error:
            fn = None
        return 'system call %d %s' % (tf['eax'], fn or '(unknown)')
    if c.T_IRQ_BASE <= tf['vector'] < c.T_IRQ_BASE + c.NR_IRQS:      # lines and MSI
        return 'irq %d' % (tf['vector'] - c.T_IRQ_BASE)
    return 'exception %d' % tf['vector']


# Single-byte pushes of general registers (push eax .. push edi), as the
# system-call stubs (gen/user/syscalls.S) use before they enter the kernel.
PUSH_REG = range(0x50, 0x58)
PUSH_EBP = 0x55
FRAME_PROLOGUE = b'\x55\x89\xe5'     # push ebp; mov ebp, esp
INT_0X80 = b'\xcd\x80'
CALL_REL32 = 0xE8


def ends_with_kernel_entry(code, eip):
    """True when the code just before eip enters the kernel: int 0x80, or a
call to the vsyscall page (the stubs of gen/user/syscalls.S)."""
    if code.endswith(INT_0X80):
        return True
    if len(code) < 5 or code[-5] != CALL_REL32:
        return False
    target = (eip + struct.unpack('<i', code[-4:])[0]) & 0xFFFFFFFF
    return target == consts().VSYSCALL_ENTRY


def in_vsyscall(eip):
    c = consts()
    return c.VSYSCALL_ENTRY <= eip < c.VSYSCALL_ENTRY + c.PAGE_SIZE


def vsyscall_unwind(eip, esp, ebp, read32):
    """From inside the vsyscall page to the stub that called it: (eip, esp, ebp).
The SYSENTER trampoline pushed ebp first (at offset 0); int 0x80's pushed nothing.
read32(va) reads a user word."""
    entry = consts().VSYSCALL_ENTRY
    if read32(entry) & 0xFF == PUSH_EBP and eip > entry:
        ebp = read32(esp)
        esp += 4
    return read32(esp), esp + 4, ebp


def user_stack(mm, tf):
    """Return addresses of the user stack from the trap frame tf: ([eip, ret, ...], note).
Frame 0 is unwound by what its code is: the vsyscall page's trampoline (back to
the stub that called it), a system-call stub (pushes, then the kernel entry: the
return address is above the pushes), or a function that sets up ebp (the user
programs are built with -fno-omit-frame-pointer); then the chain of frame
pointers. Code without a frame pointer (newlib) ends the walk there."""
    c = consts()
    pcs = [tf['eip']]
    eip, esp, ebp = tf['eip'], tf['user_esp'], tf['ebp']

    def u32s(va, n):
        data = user_read(mm, va, 4 * n)[0]
        if data is None:
            raise ValueError('user address %#x not mapped' % va)
        return struct.unpack('<%dI' % n, data)

    try:
        if in_vsyscall(eip):
            eip, esp, ebp = vsyscall_unwind(eip, esp, ebp, lambda va: u32s(va, 1)[0])
            pcs.append(eip)
        name, off = symbol_offset(eip)
        if name is None:
            return pcs, 'no symbol at eip: load the program\'s symbols (k-user NAME)'
        code = user_read(mm, eip - off, off)[0] if off <= 64 else None
        prologue = user_read(mm, eip - off, 3)[0]
        if code is not None and ends_with_kernel_entry(code, eip) and tf['vector'] == c.T_SYSCALL:
            pushes = 0
            while pushes < len(code) and code[pushes] in PUSH_REG:
                pushes += 1
            if PUSH_EBP in code[:pushes]:               # the caller's ebp is in its slot
                ebp = u32s(esp + 4 * (pushes - 1 - code[:pushes].index(PUSH_EBP)), 1)[0]
            pcs.append(u32s(esp + 4 * pushes, 1)[0])
        elif prologue == FRAME_PROLOGUE and off < 3:    # in the prologue itself
            pcs.append(u32s(esp + 4 * off if off < 2 else esp + 4, 1)[0])
        elif prologue != FRAME_PROLOGUE:
            return pcs, '%s keeps no frame pointer: the callers are unknown' % name
        for _ in range(STACK_WALK_MAX):
            if not esp <= ebp < c.USER_TOP - 8 or ebp & 3:
                break
            caller_ebp, ret = u32s(ebp, 2)
            if not ret:
                break
            pcs.append(ret)
            if caller_ebp <= ebp:
                break
            ebp = caller_ebp
    except ValueError as e:
        return pcs, str(e)
    return pcs, None


def show_user_frame(t):
    """Print where task t is in user space; set $user_eip, $user_esp, $user_ebp."""
    tf = user_frame(t)
    name = c_string(t['name'])
    if tf is None:
        gdb.write('pid %d %s: no user frame (not a user process, or not from user mode)\n' %
                  (int(t['pid']), name))
        return
    u32 = gdb.lookup_type('unsigned long')
    for reg, key in (('eip', 'eip'), ('esp', 'user_esp'), ('ebp', 'ebp')):
        gdb.set_convenience_variable('user_' + reg, gdb.Value(tf[key]).cast(u32))
    gdb.write('pid %d %s entered the kernel from user mode by %s; trap frame %#x:\n'
              '  eip %#010x esp %#010x ebp %#010x ($user_eip $user_esp $user_ebp)\n' %
              (int(t['pid']), name, trap_cause(tf), tf['addr'], tf['eip'], tf['user_esp'], tf['ebp']))
    gdb.write('user stack (frame pointers):\n')
    pcs, note = user_stack(t['mm'].dereference(), tf)
    for i, pc in enumerate(pcs):
        look = pc if i == 0 else pc - 1       # a return address: the line of the call
        sal = gdb.find_pc_line(look)
        where = ' at %s:%d' % (sal.symtab.filename, sal.line) if sal.symtab and sal.line else ''
        gdb.write('  #%-2d %#010x in %s%s\n' % (i, pc, symbolize(pc) or '??', where))
    if note:
        gdb.write('  (%s)\n' % note)


class KUser(gdb.Command):
    """Load the symbols of a user program: k-user NAME loads $(BUILD)/user/bin/NAME.
Every program links at 0x08048000, so only one set is loaded at a time: the
previous one is removed first. 'k-user' alone loads the program named like the
current task (when it is a user process) or lists the programs; 'k-user -' unloads.
When the current task is a user process, k-user then shows where it is in user
space: the trap frame it entered the kernel by (the system call), its user eip,
esp and ebp (also set as $user_eip, $user_esp, $user_ebp: info symbol $user_eip),
and the user stack by its frame pointers, symbolized with the loaded program.
gdb's own bt reaches the first user frame too (the trap-frame unwinder)."""

    def __init__(self):
        super().__init__('k-user', gdb.COMMAND_FILES)

    def invoke(self, arg, from_tty):
        global _user_symfile
        bindir = os.path.join(build_dir(), 'user', 'bin')
        name = arg.strip()
        cur = current_task()
        user_cur = cur and ptr(gdb.parse_and_eval(current_expr() + '->mm'))
        if not name and user_cur:
            name = c_string(gdb.parse_and_eval(current_expr() + '->name'))
        if not name:
            progs = sorted(f for f in os.listdir(bindir) if '.' not in f and
                           os.access(os.path.join(bindir, f), os.X_OK)) if os.path.isdir(bindir) else []
            gdb.write('user programs in %s: %s\n' % (bindir, ' '.join(progs) or '(none: make user)'))
            return
        if _user_symfile:
            gdb.execute('remove-symbol-file %s' % _user_symfile, to_string=True)
            gdb.write('unloaded %s\n' % _user_symfile)
            _user_symfile = None
        if name == '-':
            return
        path = os.path.join(bindir, os.path.basename(name))
        if not os.path.exists(path):
            raise gdb.GdbError('%s does not exist (make user builds the programs)' % path)
        gdb.execute('add-symbol-file %s' % path, to_string=True)
        _user_symfile = path
        gdb.write('loaded symbols of %s\n' % path)
        if user_cur:
            show_user_frame(gdb.parse_and_eval(current_expr()).dereference())


TRACE_CATEGORIES = ('aio', 'blk', 'irq', 'sched', 'syscall')    # include/trace.h's bits


def trace_buffered(b, rec_size):
    """The records of one struct trace_buf not drained yet, oldest first."""
    recs, nr, rpos = int(b['recs']), int(b['nr']), int(b['rpos'])
    left = (int(b['head']) - int(b['tail'])) & 0xFFFFFFFF
    data = bytearray()
    while recs and left:
        run = min(left, nr - rpos)
        data += read_bytes(recs + rpos * rec_size, run * rec_size)
        rpos = 0 if rpos + run == nr else rpos + run
        left -= run
    return bytes(data)


class KTrace(gdb.Command):
    """k-trace [FILE]: the trace buffers (kernel/trace.c): categories on, and per CPU
the records written, drained, buffered and the overruns. The buffered records (not
yet sent to the debugcon port) go to FILE (default build/trace-gdb.bin) in the
port's own stream format, so that tools/trace2json.py converts them. Reads guest
memory only: the kernel still drains them later."""

    def __init__(self):
        super().__init__('k-trace', gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        c = consts()
        path = arg.strip() or os.path.join(build_dir(), 'trace-gdb.bin')
        mask = int(gdb.parse_and_eval('trace_mask'))
        bufs = gdb.parse_and_eval('trace_bufs')
        khz = int(gdb.parse_and_eval('tsc_khz'))
        rec_size = lookup_type('struct trace_rec').sizeof
        on = [n for i, n in enumerate(TRACE_CATEGORIES) if mask & (1 << i)]
        gdb.write('trace: %s\n' % (' '.join(on) if on else 'off'))
        out = bytearray()
        for cpu in range(bufs.type.range()[1] + 1):
            b = bufs[cpu]
            head, tail, over = int(b['head']), int(b['tail']), int(b['overruns'])
            data = trace_buffered(b, rec_size)
            gdb.write('cpu%d: %d records of %d bytes, written %d, drained %d, buffered %d, '
                      'overruns %d\n' % (cpu, int(b['nr']), rec_size, head, tail,
                                         len(data) // rec_size, over))
            if data:
                out += struct.pack('<IHHIIIIII', c.TRACE_MAGIC, c.TRACE_VERSION, cpu, tail,
                                   len(data) // rec_size, head, over, khz, 0) + data
        with open(path, 'wb') as f:
            f.write(out)
        gdb.write('k-trace: %d bytes to %s (tools/trace2json.py %s -o trace.json)\n' %
                  (len(out), path, path))


KDmesg()
KPs()
KAio()
KKmap()
KMem()
KUser()
KTrace()
gdb.unwinder.register_unwinder(None, TrapFrameUnwinder(), replace=True)
gdb.events.new_objfile.connect(lambda event: _symbol_addresses.clear())
gdb.events.clear_objfiles.connect(lambda event: _symbol_addresses.clear())
gdb.write('aiokern helpers: k-dmesg k-ps k-aio k-kmap k-mem k-user k-trace (help k-aio, ...)\n')
