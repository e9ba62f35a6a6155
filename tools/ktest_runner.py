#!/usr/bin/env python3
# ktest_runner.py: runs kernel test PLAN entries, parses their KTAP output and reports results.
"""Run the entries of a test PLAN, judge their KTAP output and summarise.

usage: ktest_runner.py [-v] [-k NAME[,NAME...]] [--logdir DIR] PLAN

PLAN lines (blank lines and lines starting with '#' are ignored):
    NAME | TIMEOUT_SECONDS | MODE | SUITES | COMMAND
MODE is pass:CODES (comma list of accepted exit statuses) or panic:REGEX
(expects a deliberate kernel panic; REGEX must match the symbolized backtrace).
SUITES is a comma list of suites that must appear, or '-'.

Exit status: 0 when every case passed and nothing failed or was skipped,
1 otherwise, 2 for a bad PLAN file or a bad -k name.

An entry whose COMMAND starts with $QEMU gets a monitor socket (added to
QEMU_FLAGS); when it times out, the guest is sent a console break first and
the task dump it prints (kernel/sysrq.c) is quoted in the report, or, when
none comes (interrupts off for good), QEMU's registers.
"""

import argparse
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

CONTEXT_LINES = 15          # log lines shown for a failed case
PANIC_BLOCK_LINES = 40      # log lines shown after a 'Kernel panic' line
PANIC_MARK = 'Kernel panic'
READER_GRACE = 5.0          # seconds to wait for the output pipe to drain
QEMU_PASS = 33              # isa-debug-exit status of "all tests passed"
QEMU_MEANINGS = {
    35: 'kernel reported test failures',
    37: 'kernel panic',
    0: 'triple fault / reset with -no-reboot',
}
PANIC_CASES = ('runner_judges_failure', 'panic_reported', 'backtrace_symbolized')
# A timeout in an entry that runs QEMU itself ($QEMU ... as its command): the
# runner gives that QEMU a monitor socket and, before killing it, sends a break
# to the guest's console (chardev serial0), for which the kernel prints every
# task with its backtrace (kernel/sysrq.c) between these marks.
QEMU_COMMAND = '$QEMU '
TASKS_START = 'show tasks: '
TASKS_END = '---[ end show tasks ]---'
TASKS_WAIT = 10.0           # seconds to wait for the dump after the break
TASKS_MAX_LINES = 120       # dump lines shown in the report

ENTRY_NAME_RE = re.compile(r'[A-Za-z0-9_.+-]+')   # entry names become file names
HEADER_RE = re.compile(r'K?TAP version \d+')
SUBTEST_RE = re.compile(r'# Subtest: (.+)')
PLAN_RE = re.compile(r'1\.\.(\d+)(?:\s*#.*)?')
RESULT_RE = re.compile(r'(ok|not ok) (\d+)(?: -)?(?: ([^#]*?))?\s*(?:#\s*(.*))?')


class PlanError(Exception):
    """A bad PLAN file or a bad -k selection (exit status 2)."""


# ---------------------------------------------------------------- data

@dataclass
class Entry:
    name: str
    timeout: float
    mode: str                   # 'pass' or 'panic'
    codes: tuple = ()           # accepted exit statuses (pass mode)
    regex: re.Pattern = None    # backtrace pattern (panic mode)
    suites: list = field(default_factory=list)
    command: str = ''


@dataclass
class Case:
    name: str
    status: str                 # 'pass', 'fail' or 'skip'
    line: int = None            # index of the result line in the log; None if synthesised
    start: int = 0              # first log line that belongs to this case
    note: str = ''              # SKIP reason, or why a synthesised case failed


@dataclass
class Suite:
    """A '# Subtest:' block, or a whole top-level KTAP document (top=True)."""
    name: str
    indent: int                 # indent of its plan and result lines
    line: int
    top: bool = False
    plan: int = None
    cases: list = field(default_factory=list)
    children: int = 0           # closed subtests directly inside it
    has_subtests: bool = False
    closed: bool = False
    status: str = None          # outcome on its closing line
    anchor: int = 0             # last header/plan/result line seen in it
    label: str = ''             # name in the report (NAME#2 for a repeat)

    def count(self, status):
        return sum(case.status == status for case in self.cases)

    @property
    def is_suite(self):
        """Holds cases itself (or nothing at all), i.e. is not just a container."""
        return bool(self.cases) or not (self.has_subtests or self.top)


@dataclass
class RunResult:
    status: int
    timed_out: bool
    elapsed: float
    timeout: float
    registers: list = field(default_factory=list)  # QEMU's, when no task dump came


class Verdict:
    """Shared by Judgement and Outcome: both have .suites and .reasons."""

    def cases(self, status):
        return [(s, c) for s in self.suites for c in s.cases if c.status == status]

    @property
    def passed(self):
        return not (self.reasons or self.cases('fail') or self.cases('skip'))


@dataclass
class Judgement(Verdict):
    suites: list                # Suites holding cases, in order of appearance
    reasons: list               # failures that are not failed cases
    panic: tuple = None         # (line index, text after 'Kernel panic')


@dataclass
class Outcome(Verdict):
    entry: Entry
    run: RunResult
    judgement: Judgement
    suites: list                # suites counted in the summary
    reasons: list               # non-case failures counted in the summary


# ---------------------------------------------------------------- PLAN file

def parse_plan(text, path='PLAN'):
    entries = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        try:
            entries.append(parse_entry(line))
        except PlanError as err:
            raise PlanError(f'{path}:{lineno}: {err}') from None
    check_entry_names(entries, path)
    return entries


def check_entry_names(entries, path):
    if not entries:
        raise PlanError(f'{path}: no entries')
    repeated = [n for n, k in Counter(e.name for e in entries).items() if k > 1]
    if repeated:
        raise PlanError(f'{path}: entry name used twice: {", ".join(repeated)}')


def parse_entry(line):
    fields = line.split(' | ', 4)
    if len(fields) != 5:
        raise PlanError('expected "NAME | TIMEOUT | MODE | SUITES | COMMAND"')
    name, timeout, mode, suites, command = (f.strip() for f in fields)
    if not ENTRY_NAME_RE.fullmatch(name):
        raise PlanError(f'bad entry name {name!r} (letters, digits, _ . + - only)')
    if not command:
        raise PlanError('empty COMMAND')
    entry = Entry(name, parse_timeout(timeout), '', suites=parse_suites(suites),
                  command=command)
    set_mode(entry, mode)
    return entry


def parse_timeout(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (value > 0 and math.isfinite(value)):
        raise PlanError(f'bad TIMEOUT {text!r} (positive number of seconds)')
    return value


def parse_suites(text):
    if text == '-':
        return []
    names = [s.strip() for s in text.split(',')]
    if not all(names):
        raise PlanError(f'bad SUITES {text!r} (comma list of names, or -)')
    return names


def set_mode(entry, text):
    kind, _, arg = text.partition(':')
    if kind == 'pass' and arg:
        entry.mode, entry.codes = 'pass', parse_codes(arg)
    elif kind == 'panic' and arg:
        entry.mode, entry.regex = 'panic', compile_regex(arg)
        if not entry.suites:
            raise PlanError('panic: mode needs a suite name in SUITES')
    else:
        raise PlanError(f'bad MODE {text!r} (pass:CODES or panic:REGEX)')


def parse_codes(text):
    try:
        return tuple(int(code) for code in text.split(','))
    except ValueError:
        raise PlanError(f'bad exit codes {text!r}') from None


def compile_regex(text):
    try:
        return re.compile(text, re.M)
    except re.error as err:
        raise PlanError(f'bad REGEX {text!r}: {err}') from None


def select_entries(entries, wanted):
    """Keep the entries named by the -k options (all of them if none given)."""
    if wanted is None:
        return entries
    names = {n.strip() for arg in wanted for n in arg.split(',') if n.strip()}
    known = {e.name for e in entries}
    unknown = sorted(names - known)
    if unknown or not names:
        raise PlanError(f'-k: unknown entry {", ".join(unknown) or "(none given)"}; '
                        f'known: {", ".join(e.name for e in entries)}')
    return [e for e in entries if e.name in names]


# ---------------------------------------------------------------- KTAP

class KtapParser:
    """Feeds log lines one at a time; collects every subtest and document."""

    def __init__(self):
        self.frames = []        # all Suites, in order of appearance
        self.stack = []         # Suites still open, innermost last
        self.documents = 0

    def current(self):
        return self.stack[-1] if self.stack else None

    def feed(self, i, line):
        text = line.strip()
        indent = len(line) - len(line.lstrip(' '))
        if HEADER_RE.fullmatch(text):
            if indent == 0:
                self.open_document(i)
        elif m := SUBTEST_RE.fullmatch(text):
            self.open_subtest(m[1].strip(), indent, i)
        elif m := PLAN_RE.fullmatch(text):
            self.set_plan(int(m[1]), indent, i)
        elif m := RESULT_RE.fullmatch(text):
            self.add_result(m, indent, i)

    def open_document(self, i):
        self.documents += 1
        self.stack.clear()      # anything still open is incomplete
        self.push(Suite(f'top-level KTAP document {self.documents}', 0, i,
                        top=True, anchor=i))

    def open_subtest(self, name, indent, i):
        self.pop_while(lambda f: f.indent >= indent and not f.top)
        if self.stack:
            self.current().has_subtests = True
        self.push(Suite(name, indent, i, anchor=i))

    def push(self, frame):
        self.stack.append(frame)
        self.frames.append(frame)

    def pop_while(self, pred):
        while self.stack and pred(self.stack[-1]):
            self.stack.pop()

    def set_plan(self, count, indent, i):
        frame = self.current()
        if frame and frame.indent == indent and frame.plan is None:
            frame.plan, frame.anchor = count, i

    def add_result(self, m, indent, i):
        status = result_status(m[1], m[4])
        self.pop_while(lambda f: f.indent > indent + 4 and not f.top)
        frame = self.current()
        if frame and not frame.top and frame.indent == indent + 4:
            self.close(frame, status, i)
        elif frame and frame.indent == indent:
            name = (m[3] or '').strip() or f'#{m[2]}'
            frame.cases.append(Case(name, status, i, frame.anchor + 1, skip_note(m[4])))
            frame.anchor = i

    def close(self, frame, status, i):
        frame.closed, frame.status = True, status
        self.stack.pop()
        parent = self.current()
        if parent and parent.indent == frame.indent - 4:
            parent.children += 1
            parent.anchor = i


def result_status(word, directive):
    if directive and directive.upper().startswith('SKIP'):
        return 'skip'
    return 'pass' if word == 'ok' else 'fail'


def skip_note(directive):
    if directive and directive.upper().startswith('SKIP'):
        return directive[4:].strip()
    return ''


def parse_ktap(lines):
    """All subtests and top-level documents found in the log lines."""
    parser = KtapParser()
    for i, line in enumerate(lines):
        parser.feed(i, line)
    return parser.frames


def frame_problems(frame):
    """Non-case failures of one subtest or document: incomplete, bad status."""
    what = frame.name if frame.top else f'suite {frame.name}'
    results = len(frame.cases) + frame.children
    if frame.plan is None or results != frame.plan or not (frame.closed or frame.top):
        planned = '?' if frame.plan is None else frame.plan
        return [f'{what} incomplete: {results} of {planned} results']
    if frame.is_suite and frame.status == 'fail' and not frame.count('fail'):
        return [f'{what} reported not ok without a failed case']
    if frame.status == 'skip' and not frame.cases:
        return [f'{what} skipped']
    return []


# ---------------------------------------------------------------- judging

def split_log(text):
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    return [line.rstrip('\r') for line in lines]


def find_panic(lines):
    """(index, message) of the first 'Kernel panic' line, or None."""
    for i, line in enumerate(lines):
        pos = line.find(PANIC_MARK)
        if pos >= 0:
            return i, line[pos + len(PANIC_MARK):].strip(' \t:-') or '(no message)'
    return None


def exit_reason(status, codes):
    expected = ','.join(map(str, codes))
    if status < 0:
        return f'killed by {signal.Signals(-status).name} (expected exit status {expected})'
    reason = f'exit status {status} (expected {expected})'
    if QEMU_PASS in codes and status in QEMU_MEANINGS:
        reason += f': {QEMU_MEANINGS[status]}'
    return reason


def run_reasons(run, codes):
    if run.timed_out:
        return [f'timeout after {run.timeout:g} s']
    if run.status not in codes:
        return [exit_reason(run.status, codes)]
    return []


def judge(lines, run, codes, expected):
    """The normal judgement of one entry's log, exit status and timeout."""
    frames = parse_ktap(lines)
    panic = find_panic(lines)
    reasons = run_reasons(run, codes)
    if panic:
        reasons.append(f'kernel panic: {panic[1]}')
    seen = {f.name for f in frames if not f.top}
    reasons += [f'missing suite {name}' for name in expected if name not in seen]
    for frame in frames:
        reasons += frame_problems(frame)
    return Judgement([f for f in frames if f.is_suite], reasons, panic)


def synth_case(name, ok, why_not):
    return Case(name, 'pass' if ok else 'fail', note='' if ok else why_not)


def panic_check_suite(entry, lines, judgement):
    """The suite that a panic: entry is counted as."""
    matched = entry.regex.search('\n'.join(lines)) is not None
    cases = [
        synth_case(PANIC_CASES[0], not judgement.passed, 'the normal judgement said PASS'),
        synth_case(PANIC_CASES[1], judgement.panic is not None,
                   f'no line containing {PANIC_MARK!r}'),
        synth_case(PANIC_CASES[2], matched, f'no match for /{entry.regex.pattern}/'),
    ]
    return Suite(entry.suites[0], 0, -1, plan=len(cases), cases=cases, closed=True)


def evaluate(entry, lines, run):
    if entry.mode == 'pass':
        j = judge(lines, run, entry.codes, entry.suites)
        return Outcome(entry, run, j, j.suites, j.reasons)
    j = judge(lines, run, (QEMU_PASS,), entry.suites[1:])
    return Outcome(entry, run, j, [panic_check_suite(entry, lines, j)], [])


# ---------------------------------------------------------------- running

def pump(stream, log, chunks, verbose):
    """Copy the command's output to the log (and terminal) as it arrives."""
    try:
        while chunk := stream.read1(65536):
            chunks.append(chunk)
            log.write(chunk)
            log.flush()
            if verbose:
                sys.stdout.buffer.write(chunk)
                sys.stdout.buffer.flush()
    except (OSError, ValueError):
        pass


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def monitor_env(entry, tmpdir):
    """(environment, monitor socket path or None) for the entry's command: an
    entry that starts QEMU itself gets a monitor socket through QEMU_FLAGS (and
    QEMU_FLAGS_SMP, for the entries on several CPUs)."""
    env = dict(os.environ)
    if not entry.command.startswith(QEMU_COMMAND) or 'QEMU_FLAGS' not in env:
        return env, None
    path = os.path.join(tmpdir, 'monitor')
    for flags in ('QEMU_FLAGS', 'QEMU_FLAGS_SMP'):
        if flags in env:
            env[flags] += f' -monitor unix:{path},server=on,wait=off'
    return env, path


ANSI_ESCAPE = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')


def monitor_read(sock, quiet=0.5, limit=3.0):
    """What the monitor sends until it is quiet for `quiet` s (limit s at most)."""
    data, deadline = b'', time.monotonic() + limit
    sock.settimeout(quiet)
    while time.monotonic() < deadline:
        try:
            got = sock.recv(65536)
        except socket.timeout:
            break
        if not got:
            break
        data += got
    return data


def monitor_reply(sock, command):
    """Send an HMP command; its reply's lines (echo and prompts dropped)."""
    monitor_read(sock, 0.2)                 # the banner, earlier prompts
    sock.sendall(command.encode() + b'\n')
    text = ANSI_ESCAPE.sub('', monitor_read(sock).decode('utf-8', 'replace'))
    return [line for line in text.replace('\r', '').split('\n')
            if line.strip() and '(qemu)' not in line and command not in line]


def ask_for_tasks(monitor, chunks, registers):
    """Send a break to the guest's console through QEMU's monitor, then wait
    (TASKS_WAIT at most) until the guest has printed its task dump; if it
    never does (interrupts off for good?), put QEMU's registers in registers."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(2.0)
            sock.connect(monitor)
            sock.sendall(b'chardev-send-break serial0\n')
            deadline = time.monotonic() + TASKS_WAIT
            while time.monotonic() < deadline:
                if TASKS_END.encode() in b''.join(chunks[-64:]):
                    return
                time.sleep(0.1)
            registers += monitor_reply(sock, 'info registers')
    except OSError:
        pass


def wait_or_kill(proc, timeout, monitor=None, chunks=None, registers=None):
    """Wait for the command; True if it timed out (QEMU is first asked for a
    task dump when there is a monitor).  Its process group is killed in any
    case, so no stray child outlives the entry."""
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        if monitor:
            ask_for_tasks(monitor, chunks, registers)
    finally:
        kill_group(proc.pid)
        proc.wait()
    return timed_out


def run_command(entry, log_path, verbose):
    start = time.monotonic()
    chunks, registers = [], []
    tmpdir = tempfile.mkdtemp(prefix='ktest-')
    env, monitor = monitor_env(entry, tmpdir)
    try:
        with open(log_path, 'wb') as log:
            proc = subprocess.Popen(['sh', '-c', entry.command], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    start_new_session=True, env=env)
            reader = threading.Thread(target=pump, args=(proc.stdout, log, chunks, verbose),
                                      daemon=True)
            reader.start()
            timed_out = wait_or_kill(proc, entry.timeout, monitor, chunks, registers)
            reader.join(READER_GRACE)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    run = RunResult(proc.returncode, timed_out, time.monotonic() - start, entry.timeout,
                    registers)
    return run, b''.join(chunks).decode('utf-8', 'replace')


# ---------------------------------------------------------------- reporting

def say(text=''):
    print(text, flush=True)


def label_suites(suites, seen):
    for suite in suites:
        seen[suite.name] += 1
        n = seen[suite.name]
        suite.label = suite.name if n == 1 else f'{suite.name}#{n}'


def entry_line(outcome):
    head = f'== {outcome.entry.name}: '
    took = f'in {outcome.run.elapsed:.1f} s'
    if outcome.passed:
        return f'{head}PASS {took}'
    return f'{head}FAIL {took}: ' + '; '.join(failure_list(outcome))


def failure_list(outcome):
    return (outcome.reasons
            + [f'failed: {s.label}/{c.name}' for s, c in outcome.cases('fail')]
            + [f'skipped: {s.label}/{c.name}' for s, c in outcome.cases('skip')])


def quoted(lines):
    return ['    | ' + line for line in lines]


def panic_block(name, lines, index):
    block = lines[index:index + PANIC_BLOCK_LINES + 1]
    return [f'PANIC {name} (log line {index + 1}):'] + quoted(block)


def tasks_block(name, lines, registers):
    """The guest's task dump (asked for at a timeout), quoted; or why there is
    none, with QEMU's registers."""
    starts = [i for i, line in enumerate(lines) if line.startswith(TASKS_START)]
    if not starts:
        return [f'TASKS {name}: no task dump (the guest did not answer the console break); '
                'QEMU\'s registers:'] + quoted(registers[:TASKS_MAX_LINES])
    block = lines[starts[-1]:]
    ends = [i for i, line in enumerate(block) if line.startswith(TASKS_END)]
    block = block[:ends[0] + 1] if ends else block
    return [f'TASKS {name} at the timeout (log line {starts[-1] + 1}):'] + \
        quoted(block[:TASKS_MAX_LINES])


def case_report(suite, case, lines):
    out = [f'FAIL {suite.label}/{case.name}']
    if case.line is None:
        return out + quoted([case.note])
    return out + quoted(lines[case.start:case.line + 1][-CONTEXT_LINES:])


def entry_details(outcome, lines, verbose):
    """Panic block, judgement notes and failed/skipped cases of one entry."""
    out, j = [], outcome.judgement
    panic_mode = outcome.entry.mode == 'panic'
    if j.panic and (verbose or not panic_mode):
        out += panic_block(outcome.entry.name, lines, j.panic[0])
    if outcome.run.timed_out and outcome.entry.command.startswith(QEMU_COMMAND):
        out += tasks_block(outcome.entry.name, lines, outcome.run.registers)
    if panic_mode and verbose:
        out.append(f'(expected) normal judgement: {"PASS" if j.passed else "FAIL"}: '
                   + '; '.join(j.reasons + [f'failed: {s.name}/{c.name}'
                                            for s, c in j.cases('fail')]))
    for suite, case in outcome.cases('fail'):
        out += case_report(suite, case, lines)
    for suite, case in outcome.cases('skip'):
        out.append(f'SKIP {suite.label}/{case.name}' + (f': {case.note}' if case.note else ''))
    return out


def suite_line(suite):
    text = f'suite {suite.label}: {suite.count("pass")} passed, {suite.count("fail")} failed'
    skipped = suite.count('skip')
    return text + (f', {skipped} skipped' if skipped else '')


def summarise(outcomes):
    """Summary lines and the exit status."""
    suites = [s for o in outcomes for s in o.suites]
    reasons = [f'FAIL {o.entry.name}: {r}' for o in outcomes for r in o.reasons]
    passed = sum(s.count('pass') for s in suites)
    failed = sum(s.count('fail') for s in suites) + len(reasons)
    skipped = sum(s.count('skip') for s in suites)
    lines = [suite_line(s) for s in suites] + reasons + [f'{passed} passed, {failed} failed']
    return lines, 0 if failed == 0 and skipped == 0 else 1


# ---------------------------------------------------------------- main

def run_entry(entry, args, seen):
    say(f'== {entry.name}: running (timeout {entry.timeout:g}s)')
    log_path = os.path.join(args.logdir, f'{entry.name}.log')
    run, text = run_command(entry, log_path, args.verbose)
    lines = split_log(text)
    outcome = evaluate(entry, lines, run)
    label_suites(outcome.suites, seen)
    say(entry_line(outcome))
    for line in entry_details(outcome, lines, args.verbose):
        say(line)
    return outcome


def load_plan(path):
    try:
        with open(path, encoding='utf-8') as f:
            return parse_plan(f.read(), path)
    except (OSError, UnicodeDecodeError) as err:
        raise PlanError(f'cannot read {path}: {err}') from None


def parse_args(argv):
    ap = argparse.ArgumentParser(description='Run kernel test PLAN entries and judge their KTAP.')
    ap.add_argument('plan', metavar='PLAN', help='test plan file')
    ap.add_argument('-k', action='append', metavar='NAME[,NAME...]',
                    help='run only these entries (may be repeated)')
    ap.add_argument('--logdir', default='build/logs', help='where NAME.log files go')
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='also stream the commands\' output to the terminal')
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        entries = select_entries(load_plan(args.plan), args.k)
    except PlanError as err:
        print(f'ktest_runner: {err}', file=sys.stderr)
        return 2
    os.makedirs(args.logdir, exist_ok=True)
    seen = Counter()
    outcomes = [run_entry(entry, args, seen) for entry in entries]
    lines, status = summarise(outcomes)
    for line in lines:
        say(line)
    return status


if __name__ == '__main__':
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
