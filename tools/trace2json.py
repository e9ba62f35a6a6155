#!/usr/bin/env python3
"""trace2json.py: aiokern's trace records (the isa-debugcon stream of
include/trace.h) -> Chrome JSON trace event format (ui.perfetto.dev and
chrome://tracing open it) and a text summary; --check verifies the request
rules that tools/testplan's trace_check relies on.

  tools/trace2json.py build/trace.bin -o build/trace.json -s build/trace-summary.txt [--check]

Tracks: one per CPU (the task running, interrupts), one per thread of each
process (its system calls, its requests as async slices with their stages),
and one per device (each part of a request from its start on the device to
its end; parallel parts get lanes). Each request is also a flow from its
io_submit to its reap. Record types and the stream layout are read from
include/trace.h, system-call names from tools/syscalls.list.
"""
import argparse
import json
import os
import re
import struct
import sys
from collections import Counter, defaultdict

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHUNK = struct.Struct('<IHHIIIIII')        # struct trace_chunk
REC = struct.Struct('<QHHIIIIIiI')          # struct trace_rec
EAGAIN = 11
OPCODES = {0: 'PREAD', 1: 'PWRITE', 2: 'FSYNC', 3: 'FDSYNC', 5: 'POLL', 6: 'NOOP',
           7: 'PREADV', 8: 'PWRITEV'}
STAGES = [('submit -> queued to driver', 'accept', 'queue'),
          ('queued -> started on device', 'queue', 'start'),
          ('on the device (start -> irq)', 'start', 'done'),
          ('irq -> aio_complete', 'done', 'complete'),
          ('aio_complete -> event posted', 'complete', 'post'),
          ('event posted -> reaped', 'post', 'reap'),
          ('submit -> aio_complete', 'accept', 'complete'),
          ('submit -> reaped (total)', 'accept', 'reap')]


def load_header(path):
    """TR_* values, TRACE_MAGIC/VERSION, TR_IN_IRQ from include/trace.h."""
    text = open(path).read()
    h = {}
    enum = re.search(r'enum trace_type \{(.*?)\};', text, re.S).group(1)
    value = 0
    for m in re.finditer(r'^\s*(TR_\w+)(?:\s*=\s*(\d+))?,', enum, re.M):
        value = int(m.group(2)) if m.group(2) else value + 1
        h[m.group(1)] = value
    for name in ('TRACE_MAGIC', 'TRACE_VERSION', 'TR_IN_IRQ', 'TRACE_CHUNK_FINAL'):
        h[name] = int(re.search(r'#define\s+%s\s+(0x[0-9a-fA-F]+|\d+)' % name, text).group(1), 0)
    return h


def load_syscalls(path):
    names = {}
    for line in open(path):
        m = re.match(r'\s*(\d+)\s+(\w+)\(', line)
        if m:
            names[int(m.group(1))] = m.group(2)
    return names


class Rec:
    __slots__ = ('idx', 'tsc', 'type', 'irq', 'cpu', 'pid', 'tid', 'ctx', 'key', 'size',
                 'result', 'arg', 'order')

    def __init__(self, idx, raw, in_irq):
        (self.tsc, t, self.cpu, self.pid, self.tid, self.ctx, self.key, self.size,
         self.result, self.arg) = raw
        self.idx, self.type, self.irq = idx, t & ~in_irq, bool(t & in_irq)


class Stream:
    """The records of every CPU, placed by their index (a chunk sent twice counts once)."""

    def __init__(self, data, h):
        self.cpus = defaultdict(dict)
        self.written, self.overruns, self.final = {}, {}, set()
        self.khz = 0
        self.errors = []
        off = 0
        while off + CHUNK.size <= len(data):
            magic, ver, cpu, first, nr, written, overruns, khz, flags = CHUNK.unpack_from(data, off)
            if magic != h['TRACE_MAGIC'] or ver != h['TRACE_VERSION']:
                self.errors.append('bad chunk header at byte %d' % off)
                return
            off += CHUNK.size
            if off + nr * REC.size > len(data):
                self.errors.append('chunk at byte %d cut short' % (off - CHUNK.size))
                nr = (len(data) - off) // REC.size
            for i in range(nr):
                self.cpus[cpu][first + i] = Rec(first + i, REC.unpack_from(data, off), h['TR_IN_IRQ'])
                off += REC.size
            self.khz = khz or self.khz
            self.written[cpu], self.overruns[cpu] = written, overruns
            if flags & h['TRACE_CHUNK_FINAL']:
                self.final.add(cpu)

    def records(self):
        """Every record in time order (TSC, then CPU and index)."""
        recs = [r for per in self.cpus.values() for r in per.values()]
        recs.sort(key=lambda r: (r.tsc, r.cpu, r.idx))
        for n, r in enumerate(recs):
            r.order = n
        return recs

    def lost(self, cpu):
        """Records buffered on cpu that are not in the stream."""
        return self.written.get(cpu, 0) - len(self.cpus[cpu])


class Req:
    def __init__(self, rid, r):
        self.rid, self.pid, self.tid, self.ctx, self.key = rid, r.pid, r.tid, r.ctx, r.key
        self.op, self.size = OPCODES.get(r.arg, 'op%d' % r.arg), r.size
        self.t = {'accept': r}          # stage -> record (queue/start: first, done: last)
        self.devs = []
        self.n = Counter()              # complete, post, reap, cancel, refuse
        self.result = None
        self.reap_kind = None

    def name(self):
        dev = '/'.join(sorted(set(self.devs)))
        return '%s %d%s' % (self.op, self.size, ' ' + dev if dev else '')


def devname(arg):
    return bytes((arg >> (8 * i)) & 0xff for i in range(4)).rstrip(b'\0').decode('ascii', 'replace')


class Analysis:
    """Follow every request through its records; note what breaks the rules."""

    def __init__(self, recs, h):
        self.h, self.recs = h, recs
        self.reqs, self.errors = [], []
        self.live = {}                  # (ctx, key) -> Req in flight or not yet freed
        self.slots = {}                 # (ctx, ring slot) -> Req posted, not reaped
        self.ctxs = {}                  # ctx -> (user id, ring events, pid)
        self.names = {}
        self.part_req = {}              # a part's start record (order) -> its request
        T = {v: k for k, v in h.items() if k.startswith('TR_')}
        for r in recs:
            fn = getattr(self, 'on_' + T.get(r.type, 'unknown').lower(), None)
            if fn:
                fn(r)
        for req in self.reqs:
            self.check_req(req)

    def err(self, msg):
        self.errors.append(msg)

    def req_of(self, r, what):
        req = self.live.get((r.ctx, r.key))
        if not req:
            self.err('%s of ctx %d key %d: no such request accepted' % (what, r.ctx, r.key))
        return req

    def on_tr_comm(self, r):
        raw = struct.pack('<IIIi', r.ctx, r.key, r.size, r.result)
        self.names[r.arg] = raw.split(b'\0')[0].decode('ascii', 'replace')

    def on_tr_aio_setup(self, r):
        self.ctxs[r.ctx] = (r.size, r.arg, r.pid)

    def on_tr_aio_accept(self, r):
        old = self.live.get((r.ctx, r.key))
        if old and not (old.n['complete'] or old.n['cancel'] or old.n['refuse']):
            self.err('request %d (ctx %d key %d) accepted again while in flight' %
                     (old.rid, r.ctx, r.key))
        req = Req(len(self.reqs), r)
        self.reqs.append(req)
        self.live[(r.ctx, r.key)] = req

    def on_tr_aio_refuse(self, r):
        req = self.req_of(r, 'refuse')
        if req:
            req.n['refuse'] += 1

    def on_blk(self, r, stage):
        if not r.ctx:
            return                      # a synchronous kiocb's part
        req = self.req_of(r, stage)
        if req:
            req.devs.append(devname(r.arg))
            if stage == 'start':
                self.part_req[r.order] = req
            if stage not in req.t or stage == 'done':
                req.t[stage] = r

    def on_tr_blk_queue(self, r):
        self.on_blk(r, 'queue')

    def on_tr_blk_start(self, r):
        self.on_blk(r, 'start')

    def on_tr_blk_done(self, r):
        self.on_blk(r, 'done')

    def on_tr_aio_complete(self, r):
        req = self.req_of(r, 'aio_complete')
        if req:
            req.n['complete'] += 1
            req.t['complete'], req.result = r, r.result

    def on_tr_aio_post(self, r):
        req = self.req_of(r, 'post')
        if req:
            req.n['post'] += 1
            req.t['post'] = r
            self.slots[(r.ctx, r.arg)] = req

    def reaped(self, req, r, kind):
        req.n['reap'] += 1
        req.t.setdefault('reap', r)
        req.reap_kind = req.reap_kind or kind

    def on_tr_aio_reap(self, r):
        req = self.slots.pop((r.ctx, r.arg), None)
        if not req:
            self.err('reap of ctx %d ring slot %d: no event posted there' % (r.ctx, r.arg))
        else:
            self.reaped(req, r, 'io_getevents')

    def on_tr_aio_user_reap(self, r):
        nr = self.ctxs.get(r.ctx, (0, 0, 0))[1] or 1
        for i in range(r.size):
            req = self.slots.pop((r.ctx, (r.arg + i) % nr), None)
            if not req:
                self.err('ring reap of ctx %d slot %d: no event posted there' % (r.ctx, (r.arg + i) % nr))
            else:
                self.reaped(req, r, 'ring')

    def on_tr_aio_cancel(self, r):
        if r.result == -EAGAIN:
            return                      # too late: it completes as usual
        req = self.req_of(r, 'cancel')
        if req:
            req.n['cancel'] += 1
            req.t['complete'], req.result = r, r.result
            if r.arg:
                req.reap_kind = 'dropped'    # teardown: nobody takes the event
            else:
                self.reaped(req, r, 'io_cancel')

    def on_tr_aio_destroy(self, r):
        if r.arg != 1:
            return
        for (ctx, slot), req in list(self.slots.items()):
            if ctx == r.ctx:
                del self.slots[(ctx, slot)]
                req.reap_kind = 'dropped'

    def check_req(self, q):
        if q.n['refuse']:
            if q.n['complete'] or q.n['post']:
                self.err('request %d refused and completed' % q.rid)
            return
        done = q.n['complete'] + q.n['cancel']
        if done != 1:
            self.err('request %d (%s, ctx %d key %d): %d completions' % (q.rid, q.name(), q.ctx, q.key, done))
        if q.n['complete'] and q.n['post'] != 1:
            self.err('request %d: completed, %d events posted' % (q.rid, q.n['post']))
        if q.reap_kind != 'dropped' and q.n['reap'] != 1:
            self.err('request %d (%s, ctx %d key %d): reaped %d times' % (q.rid, q.name(), q.ctx, q.key, q.n['reap']))
        seq = [q.t[s].order for s in ('accept', 'queue', 'start', 'done', 'complete', 'post', 'reap') if s in q.t]
        if seq != sorted(seq):
            self.err('request %d: its records are out of order' % q.rid)


def us(stream, t0, tsc):
    return (tsc - t0) * 1000.0 / stream.khz


def percentile(vals, p):
    vals = sorted(vals)
    return vals[min(len(vals) - 1, max(0, -(-len(vals) * p // 100) - 1))]


class JsonTrace:
    """The Chrome JSON events of one analysed trace."""
    CPU_PID, DEV_PID = 100000, 200000   # pseudo processes: CPUs, devices

    def __init__(self, stream, a, h, sysnames):
        self.stream, self.a, self.sysnames = stream, a, sysnames
        self.T = {v: k for k, v in h.items() if k.startswith('TR_')}
        self.t0 = a.recs[0].tsc if a.recs else 0
        self.ev, self.threads = [], set()

    def ts(self, r):
        return us(self.stream, self.t0, r.tsc)

    def tname(self, tid):
        return '%s %d' % (self.a.names.get(tid, '?'), tid)

    def meta(self, what, pid, tid, **args):
        e = {'ph': 'M', 'name': what, 'pid': pid, 'args': args}
        if tid is not None:
            e['tid'] = tid
        self.ev.append(e)

    def slice(self, pid, tid, start, end, name, **args):
        self.ev.append({'ph': 'X', 'pid': pid, 'tid': tid, 'ts': start, 'dur': end - start,
                        'name': name, 'args': args})

    def cpu_tracks(self):
        """Per CPU: the task running (from the switches), interrupts, wake-ups."""
        for cpu in sorted(self.stream.cpus):
            pid = self.CPU_PID + cpu
            self.meta('process_name', pid, None, name='CPU %d' % cpu)
            self.meta('process_sort_index', pid, None, sort_index=cpu)
            self.meta('thread_name', pid, 0, name='running')
            self.meta('thread_name', pid, 1, name='irq')
            mine = [r for r in self.a.recs if r.cpu == cpu]
            if mine:
                self.cpu_records(pid, mine)

    def cpu_records(self, pid, mine):
        run, irqs = (mine[0].tid, self.ts(mine[0])), {}
        for r in mine:
            t = self.T.get(r.type)
            if t == 'TR_SWITCH':
                self.slice(pid, 0, run[1], self.ts(r), self.tname(run[0]), task=run[0])
                run = (r.arg, self.ts(r))
            elif t == 'TR_IRQ_ENTER':
                irqs[r.arg] = self.ts(r)
            elif t == 'TR_IRQ_EXIT' and r.arg in irqs:
                self.slice(pid, 1, irqs.pop(r.arg), self.ts(r), 'IRQ %d' % r.arg)
            elif t == 'TR_WAKEUP':
                self.ev.append({'ph': 'i', 's': 't', 'pid': pid, 'tid': 0, 'ts': self.ts(r),
                                'name': 'wake ' + self.tname(r.arg)})
        self.slice(pid, 0, run[1], self.ts(mine[-1]), self.tname(run[0]), task=run[0])

    def syscalls(self):
        """Per thread: a slice per system call (one that never returned, exec or
        exit, ends at the thread's next call)."""
        pending = {}
        for r in self.a.recs:
            t, key = self.T.get(r.type), (r.pid, r.tid)
            if t == 'TR_SYSCALL_ENTER':
                if key in pending:
                    s = pending.pop(key)
                    self.slice(r.pid, r.tid, self.ts(s), self.ts(r), self.sysnames.get(s.arg, 'syscall %d' % s.arg))
                pending[key] = r
                self.threads.add(key)
            elif t == 'TR_SYSCALL_EXIT' and key in pending:
                s = pending.pop(key)
                self.slice(r.pid, r.tid, self.ts(s), self.ts(r), self.sysnames.get(r.arg, 'syscall %d' % r.arg),
                           result=r.result)

    def devices(self):
        """Per device: each part from its start to its end, in lanes so that
        parts in flight together do not overlap; a flow step on each."""
        self.meta('process_name', self.DEV_PID, None, name='devices')
        lanes, started, devs = defaultdict(list), {}, []
        for r in self.a.recs:
            t = self.T.get(r.type)
            if t not in ('TR_BLK_START', 'TR_BLK_DONE') or not r.ctx:
                continue
            d = devname(r.arg)
            if d not in devs:
                devs.append(d)
            k = (d, r.ctx, r.key)
            if t == 'TR_BLK_START':
                busy = lanes[d]
                lane = busy.index(0) if 0 in busy else len(busy)
                busy.append(0) if lane == len(busy) else None
                busy[lane] += 1
                started.setdefault(k, []).append((lane, r))
            elif started.get(k):
                lane, s = started[k].pop(0)
                lanes[d][lane] -= 1
                self.part(devs.index(d) * 1000 + lane, s, r)
        for i, d in enumerate(devs):
            for lane in range(max(1, len(lanes[d]))):
                self.meta('thread_name', self.DEV_PID, i * 1000 + lane, name='%s #%d' % (d, lane))

    def part(self, tid, s, r):
        req = self.a.part_req.get(s.order)
        self.slice(self.DEV_PID, tid, self.ts(s), self.ts(r), req.name() if req else 'part',
                   bytes=s.size, result=r.result, request=req.rid if req else None)
        if req:
            self.ev.append({'ph': 't', 'cat': 'aio', 'name': 'request', 'id': req.rid,
                            'pid': self.DEV_PID, 'tid': tid, 'ts': self.ts(s), 'bp': 'e'})

    def requests(self):
        """Per request: an async slice from submit to reap in the submitter's
        process, its stages as instants, a flow submit -> device -> reap."""
        for q in self.a.reqs:
            if q.n['refuse']:
                continue
            end = q.t.get('reap') or q.t.get('post') or q.t.get('complete') or q.t['accept']
            base = {'cat': 'aio', 'id': q.rid, 'pid': q.pid, 'tid': q.tid}
            args = {'ctx': '0x%x' % self.a.ctxs.get(q.ctx, (0,))[0], 'key': q.key, 'bytes': q.size,
                    'result': q.result, 'reaped': q.reap_kind}
            self.ev.append(dict(base, ph='b', name=q.name(), ts=self.ts(q.t['accept']), args=args))
            for stage in ('queue', 'start', 'done', 'complete', 'post'):
                if stage in q.t:
                    self.ev.append(dict(base, ph='n', name=stage, ts=self.ts(q.t[stage])))
            self.ev.append(dict(base, ph='e', name=q.name(), ts=self.ts(end)))
            self.ev.append(dict(base, ph='s', name='request', ts=self.ts(q.t['accept'])))
            self.threads.add((q.pid, q.tid))
            if 'reap' in q.t:
                r = q.t['reap']
                self.ev.append({'ph': 'f', 'bp': 'e', 'cat': 'aio', 'name': 'request', 'id': q.rid,
                                'pid': r.pid, 'tid': r.tid, 'ts': self.ts(r)})
                self.threads.add((r.pid, r.tid))

    def build(self):
        self.cpu_tracks()
        self.syscalls()
        self.devices()
        self.requests()
        for pid in sorted({p for p, t in self.threads}):
            self.meta('process_name', pid, None, name='%s %d' % (self.a.names.get(pid, 'pid'), pid))
        for pid, tid in sorted(self.threads):
            self.meta('thread_name', pid, tid, name=self.tname(tid))
        return {'traceEvents': self.ev, 'displayTimeUnit': 'ns',
                'otherData': {'source': 'aiokern trace (tools/trace2json.py)', 'tsc_khz': self.stream.khz}}


def summary(stream, a, h):
    T = {v: k for k, v in h.items() if k.startswith('TR_')}
    recs = a.recs
    lines = []
    span = us(stream, recs[0].tsc, recs[-1].tsc) if recs else 0
    lost = sum(stream.lost(c) for c in stream.cpus)
    over = sum(stream.overruns.values())
    lines.append('aiokern trace: %d CPU, %d records over %.3f s, TSC %.3f MHz; %d overruns, %d lost' %
                 (len(stream.cpus), len(recs), span / 1e6, stream.khz / 1000.0, over, lost))
    if over:
        lines.append('OVERRUNS: %d records dropped (the buffer was full): the trace is incomplete; '
                     'raise trace_buf=' % over)
    counts = Counter(T.get(r.type, '?') for r in recs)
    lines.append('records: ' + ', '.join('%s %d' % (k[3:].lower(), v) for k, v in sorted(counts.items())))
    live = [q for q in a.reqs if not q.n['refuse']]
    kinds = Counter(q.reap_kind for q in live)
    lines.append('requests: %d accepted, %d completed, %d cancelled, %d refused; reaped: %d by io_getevents, '
                 '%d from the ring, %d by io_cancel, %d dropped at teardown, %d not reaped' %
                 (len(live), sum(1 for q in live if q.n['complete']), sum(1 for q in live if q.n['cancel']),
                  len(a.reqs) - len(live), kinds['io_getevents'], kinds['ring'], kinds['io_cancel'],
                  kinds['dropped'], kinds[None]))
    lines.append('')
    lines.append('%-32s %7s %10s %10s %10s' % ('stage (us)', 'count', 'p50', 'p99', 'max'))
    for name, a0, a1 in STAGES:
        d = [us(stream, q.t[a0].tsc, q.t[a1].tsc) for q in live if a0 in q.t and a1 in q.t]
        if d:
            lines.append('%-32s %7d %10.1f %10.1f %10.1f' % (name, len(d), percentile(d, 50),
                                                           percentile(d, 99), max(d)))
        else:
            lines.append('%-32s %7d %10s %10s %10s' % (name, 0, '-', '-', '-'))
    return '\n'.join(lines) + '\n'


def check(stream, a, args):
    """The rules of the trace test; a list of failures."""
    fails = list(stream.errors)
    if sum(stream.overruns.values()) or any(stream.lost(c) for c in stream.cpus):
        print('trace check: records are missing: the request rules are not checked')
    else:
        fails += a.errors[:20] + (['... %d more' % (len(a.errors) - 20)] if len(a.errors) > 20 else [])
    for cpu, per in stream.cpus.items():
        idx = sorted(per)
        if any(per[i].tsc > per[j].tsc for i, j in zip(idx, idx[1:])):
            fails.append('cpu %d: times go backwards' % cpu)
        if cpu not in stream.final:
            fails.append('cpu %d: no final chunk (the drain at power-off did not run)' % cpu)
        if not args.expect_overruns and (stream.lost(cpu) or stream.overruns.get(cpu)):
            fails.append('cpu %d: %d records lost, %d overruns' % (cpu, stream.lost(cpu), stream.overruns[cpu]))
    if args.expect_overruns and not sum(stream.overruns.values()):
        fails.append('overruns expected (a small buffer), none counted')
    if args.expect_requests is not None:
        pids = {p for p, n in a.names.items() if n == args.comm}
        n = sum(1 for q in a.reqs if q.pid in pids and not q.n['refuse'])
        if n != args.expect_requests:
            fails.append('%s: %d requests in the trace, %d expected' % (args.comm, n, args.expect_requests))
    if not args.allow_dropped:
        n = sum(1 for q in a.reqs if q.reap_kind == 'dropped')
        if n:
            fails.append('%d events dropped at teardown (never reaped)' % n)
    return fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('trace', help='the debugcon stream (build/trace.bin)')
    ap.add_argument('-o', '--json', help='Chrome JSON trace to write')
    ap.add_argument('-s', '--summary', help='text summary to write (also printed)')
    ap.add_argument('--check', action='store_true', help='verify the request rules; exit 1 if broken')
    ap.add_argument('--expect-requests', type=int, help='with --check: requests of --comm')
    ap.add_argument('--comm', default='aiodemo', help='process name for --expect-requests')
    ap.add_argument('--expect-overruns', action='store_true', help='with --check: overruns must be counted')
    ap.add_argument('--allow-dropped', action='store_true', help='with --check: events may die with their context')
    ap.add_argument('--header', default=os.path.join(TOP, 'include/trace.h'))
    ap.add_argument('--syscalls', default=os.path.join(TOP, 'tools/syscalls.list'))
    args = ap.parse_args()
    h = load_header(args.header)
    stream = Stream(open(args.trace, 'rb').read(), h)
    if not stream.cpus:
        print('trace2json: %s: no records%s' % (args.trace, ': ' + stream.errors[0] if stream.errors else ''))
        return 1
    a = Analysis(stream.records(), h)
    text = summary(stream, a, h)
    sys.stdout.write(text)
    if args.summary:
        open(args.summary, 'w').write(text)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(JsonTrace(stream, a, h, load_syscalls(args.syscalls)).build(), f)
    if args.check:
        fails = check(stream, a, args)
        for m in fails:
            print('trace check: FAIL: ' + m)
        if fails:
            return 1
        print('trace check: ok: %d requests, each one submit, one completion, one reap, in order; '
              'times monotonic per CPU; %s' % (len([q for q in a.reqs if not q.n['refuse']]),
                                              'overruns reported' if args.expect_overruns else 'no record lost'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
