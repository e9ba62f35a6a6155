# aiokern.py: gdb commands for aiokern (k-dmesg, k-ps, k-aio, k-kmap, k-mem, k-user), in the mould of Linux's lx-*.
"""Python gdb helpers for the aiokern kernel.

Sourced by tools/gdb/gdbinit. Types, field offsets and enum values come from the
kernel's debug information (gdb.lookup_type, container_of by field offset);
the macros gdb cannot see (LOG_BUF_LEN, TASK_*, MAX_ORDER, AIO_RING_MAGIC, ...)
come from $(BUILD)/gdb/constants.py, generated from the C headers at build time
(tools/gdb/constants.c, tools/gdb/gen_constants.py), found next to the kernel
ELF gdb has loaded. Every command only reads memory: none changes the guest.
"""

import importlib.util
import os
import struct

import gdb

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
              ('sizeof(kmap_atomic_slots)/sizeof(kmap_atomic_slots[0])', c.KM_TYPE_NR),
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


def symbolize(addr):
    """'name+0xoff' for a code or data address, or None (gdb's info symbol)."""
    if not addr:
        return None
    try:
        out = gdb.execute('info symbol %#x' % addr, to_string=True).strip()
    except gdb.error:
        return None
    if out.startswith('No symbol'):
        return None
    name = out.split(' in section ')[0]
    if ' + ' in name:
        sym, off = name.split(' + ')
        return '%s+%#x' % (sym, int(off))
    return name


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


# ---------------------------------------------------------------- tasks

def tasks():
    """Every struct task * on task_list, in list order."""
    return list_for_each_entry(gdb.parse_and_eval('task_list'), 'struct task', 'tasks')


def current_task():
    try:
        return ptr(gdb.parse_and_eval('current'))
    except gdb.error:
        return 0


def task_state(t):
    c = consts()
    state = int(t['state'])
    names = [(c.TASK_RUNNING, 'R'), (c.TASK_INTERRUPTIBLE, 'S'),
             (c.TASK_UNINTERRUPTIBLE, 'D'), (c.TASK_ZOMBIE, 'Z')]
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
    for i in range(c.KM_TYPE_NR):
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


# Wait queues that have a name but no symbol of their own (k-ps).
KNOWN_WAIT_QUEUES = ['system_wq->more_work']


def known_wait_queues():
    """{address: name} of KNOWN_WAIT_QUEUES and of every AIO context's ctx->wait."""
    known = {}
    for expr in KNOWN_WAIT_QUEUES:
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
    """List the tasks on task_list: pid, state, name and what they wait on.
State: R running or runnable, S interruptible sleep, D uninterruptible, Z zombie;
'*' marks the current task. WAIT is wait_channel symbolized (info symbol), or
the wait queue's address when it has no symbol."""

    def __init__(self):
        super().__init__('k-ps', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cur = current_task()
        known = known_wait_queues()
        gdb.write('%5s %-3s %-10s %-16s %-4s %8s %s\n' %
                  ('PID', 'ST', 'TASK', 'NAME', 'MM', 'SWITCHES', 'WAIT'))
        n = 0
        for t in tasks():
            state = task_state(t) + ('*' if ptr(t) == cur else '')
            mm = 'user' if ptr(t['mm']) else '-'
            gdb.write('%5d %-3s %#010x %-16s %-4s %8d %s\n' %
                      (int(t['pid']), state, ptr(t), c_string(t['name']), mm,
                       int(t['nr_switches']), wait_channel_name(ptr(t['wait_channel']), known)))
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
    fds = t['files']['fd']
    n = fds.type.range()[1] + 1
    return [i for i in range(n) if ptr(fds[i]) == filp]


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
                   fd, filp, int(req['ki_users']), kif_flags(int(req['ki_flags'])), buf, nbytes,
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
        for i in range(c.KM_TYPE_NR):
            page = slots[i]['page']
            name = names[i].string() if ptr(names[i]) else 'slot%d' % i
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

class KUser(gdb.Command):
    """Load the symbols of a user program: k-user NAME loads $(BUILD)/user/bin/NAME.
Every program links at 0x08048000, so only one set is loaded at a time: the
previous one is removed first. 'k-user' alone loads the program named like the
current task (when it is a user process) or lists the programs; 'k-user -' unloads."""

    def __init__(self):
        super().__init__('k-user', gdb.COMMAND_FILES)

    def invoke(self, arg, from_tty):
        global _user_symfile
        bindir = os.path.join(build_dir(), 'user', 'bin')
        name = arg.strip()
        if not name:
            cur = current_task()
            if cur and ptr(gdb.parse_and_eval('current->mm')):
                name = c_string(gdb.parse_and_eval('current->name'))
        if not name:
            progs = sorted(os.listdir(bindir)) if os.path.isdir(bindir) else []
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


KDmesg()
KPs()
KAio()
KKmap()
KMem()
KUser()
gdb.write('aiokern helpers: k-dmesg k-ps k-aio k-kmap k-mem k-user (help k-aio, ...)\n')
