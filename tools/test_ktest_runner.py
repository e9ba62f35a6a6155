# test_ktest_runner.py: self-test of tools/ktest_runner.py with canned KTAP logs (stdlib unittest).
"""Run from the repository root:  python3 -m unittest tools/test_ktest_runner.py"""

import os
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktest_runner as kr  # noqa: E402

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ktest_runner.py')

# Everything passes; CRLF line ends and interleaved kernel log lines.
GOOD_LOG = textwrap.dedent('''\
    [    0.000000] booting
    KTAP version 1
    1..2
        KTAP version 1
        # Subtest: printk
        1..2
    [    0.012345] pci: found 8086:7010
        ok 1 formats_decimal
        ok 2 formats_hex
    # printk: pass:2 fail:0 skip:0 total:2
    ok 1 printk
        KTAP version 1
        # Subtest: cmdline
        1..1
        ok 1 parses_root
    ok 2 cmdline
    ''').replace('\n', '\r\n')

# The example from the spec: one failure, one skip.
SPEC_LOG = textwrap.dedent('''\
    KTAP version 1
    1..2
        KTAP version 1
        # Subtest: printk
        1..3
        ok 1 formats_decimal
        # formats_hex: EXPECT_EQ failed at kernel/printk_test.c:40: buf == "ff"
        not ok 2 formats_hex
        ok 3 log_ring # SKIP no ring
    # printk: pass:1 fail:1 skip:1 total:3
    not ok 1 printk
        KTAP version 1
        # Subtest: cmdline
        1..2
        ok 1 parses_root
        ok 2 parses_quiet
    ok 2 cmdline
    ''')

# Kernel suites, then user-space suites relayed by init, nested one level deeper.
NESTED_LOG = textwrap.dedent('''\
    KTAP version 1
    1..1
        KTAP version 1
        # Subtest: mm
        1..1
        ok 1 alloc_page
    ok 1 mm
    [    1.000000] init: starting user tests
    KTAP version 1
    1..1
        KTAP version 1
        # Subtest: user
        1..2
            KTAP version 1
            # Subtest: libc
            1..2
            ok 1 strlen
            ok 2 memcpy
        ok 1 libc
            KTAP version 1
            # Subtest: fs
            1..1
            not ok 1 open_missing
        not ok 2 fs
    not ok 1 user
    ''')

# A suite that crashes halfway, with a symbolized backtrace.
PANIC_LOG = textwrap.dedent('''\
    KTAP version 1
    1..2
        KTAP version 1
        # Subtest: mm
        1..3
        ok 1 alloc_page
    [    0.500000] mm: about to fault on purpose
    Kernel panic: page fault at 0xdeadbeef (eip 0xc0101234)
    backtrace:
      #0 0xc0101234 mm_fault_test+0x14 (kernel/mm_test.c:77)
      #1 0xc0100abc ktest_run_suite+0x3c
    ''')

# The top-level plan announces three suites but only two arrive.
SHORT_DOC_LOG = textwrap.dedent('''\
    KTAP version 1
    1..3
        # Subtest: a
        1..1
        ok 1 x
    ok 1 a
        # Subtest: b
        1..1
        ok 1 y
    ok 2 b
    ''')


def lines_of(text):
    return kr.split_log(text)


def run_result(status=33, timed_out=False):
    return kr.RunResult(status, timed_out, 0.1, 10.0)


def by_name(suites):
    return {s.name: s for s in suites}


class PlanTest(unittest.TestCase):
    PLAN = textwrap.dedent('''\
        # comment line

        kernel | 30 | pass:33 | printk,cmdline | make run KTEST=1
          # indented comment
        host | 2.5 | pass:0,1 | - | ./tools/check.sh | grep -q ok
        crash | 20 | panic:^\\s+#0 .*(foo|bar)\\+0x | panic_check,mm | make run-panic
        ''')

    def test_parse(self):
        kernel, host, crash = kr.parse_plan(self.PLAN)
        self.assertEqual((kernel.name, kernel.timeout, kernel.mode, kernel.codes),
                         ('kernel', 30.0, 'pass', (33,)))
        self.assertEqual(kernel.suites, ['printk', 'cmdline'])
        self.assertEqual(kernel.command, 'make run KTEST=1')
        self.assertEqual((host.codes, host.suites), ((0, 1), []))
        self.assertEqual(host.command, './tools/check.sh | grep -q ok')
        self.assertEqual(crash.mode, 'panic')
        self.assertTrue(crash.regex.search('x\n  #0 0x1 bar+0x4'))
        self.assertEqual(crash.suites, ['panic_check', 'mm'])

    def test_errors(self):
        bad = ['a | 1 | pass:0 | -',                 # four fields
               'a | x | pass:0 | - | true',          # timeout
               'a | 0 | pass:0 | - | true',
               'a | 1 | pass: | - | true',           # mode
               'a | 1 | pass:x | - | true',
               'a | 1 | run:0 | - | true',
               'a | 1 | panic:( | p | true',         # regex
               'a | 1 | panic:x | - | true',         # panic needs a suite
               'a b | 1 | pass:0 | - | true',        # name
               'a | 1 | pass:0 | x,,y | true',       # suites
               'a | 1 | pass:0 | - |  ',             # command
               'a | 1 | pass:0 | - | true\na | 1 | pass:0 | - | true',
               '# nothing']
        for text in bad:
            with self.subTest(text=text), self.assertRaises(kr.PlanError):
                kr.parse_plan(text)

    def test_error_names_line(self):
        with self.assertRaisesRegex(kr.PlanError, r'^p:3: bad MODE'):
            kr.parse_plan('# c\n\nx | 1 | nope | - | true\n', 'p')

    def test_select(self):
        entries = kr.parse_plan(self.PLAN)
        names = [e.name for e in kr.select_entries(entries, ['crash,kernel'])]
        self.assertEqual(names, ['kernel', 'crash'])          # plan order
        self.assertEqual(len(kr.select_entries(entries, None)), 3)
        self.assertEqual(len(kr.select_entries(entries, ['host', 'crash'])), 2)
        with self.assertRaisesRegex(kr.PlanError, 'unknown entry nope'):
            kr.select_entries(entries, ['kernel,nope'])


class KtapTest(unittest.TestCase):
    def test_good_log(self):
        frames = kr.parse_ktap(lines_of(GOOD_LOG))
        suites = [f for f in frames if f.is_suite]
        self.assertEqual([s.name for s in suites], ['printk', 'cmdline'])
        self.assertEqual([c.name for c in suites[0].cases], ['formats_decimal', 'formats_hex'])
        self.assertTrue(all(c.status == 'pass' for s in suites for c in s.cases))
        self.assertEqual([p for f in frames for p in kr.frame_problems(f)], [])

    def test_spec_log(self):
        suites = by_name(f for f in kr.parse_ktap(lines_of(SPEC_LOG)) if f.is_suite)
        printk = suites['printk']
        self.assertEqual([c.status for c in printk.cases], ['pass', 'fail', 'skip'])
        self.assertEqual(printk.cases[2].note, 'no ring')
        self.assertEqual((printk.plan, printk.closed, printk.status), (3, True, 'fail'))
        self.assertEqual(len(suites['cmdline'].cases), 2)

    def test_failed_case_context(self):
        lines = lines_of(SPEC_LOG)
        printk = kr.parse_ktap(lines)[1]
        report = kr.case_report(printk, printk.cases[1], lines)
        self.assertEqual(report, [
            'FAIL /formats_hex',        # label is set by the runner
            '    |     # formats_hex: EXPECT_EQ failed at kernel/printk_test.c:40: buf == "ff"',
            '    |     not ok 2 formats_hex'])

    def test_first_case_context_and_limit(self):
        noise = [f'[    0.{i:06d}] noise {i}' for i in range(30)]
        lines = ['    # Subtest: s', '    1..1'] + noise + ['    not ok 1 c', 'not ok 1 s']
        suite = kr.parse_ktap(lines)[0]
        context = kr.case_report(suite, suite.cases[0], lines)[1:]
        self.assertEqual(len(context), kr.CONTEXT_LINES)
        self.assertEqual(context[-1], '    |     not ok 1 c')
        self.assertEqual(context[0], '    | [    0.000016] noise 16')

    def test_nested_user_suites(self):
        frames = kr.parse_ktap(lines_of(NESTED_LOG))
        suites = [f for f in frames if f.is_suite]
        self.assertEqual([s.name for s in suites], ['mm', 'libc', 'fs'])
        user = by_name(frames)['user']
        self.assertFalse(user.is_suite)
        self.assertEqual((user.children, user.closed), (2, True))
        self.assertEqual([p for f in frames for p in kr.frame_problems(f)], [])

    def test_crash_mid_suite(self):
        frames = kr.parse_ktap(lines_of(PANIC_LOG))
        problems = [p for f in frames for p in kr.frame_problems(f)]
        self.assertEqual(problems, ['top-level KTAP document 1 incomplete: 0 of 2 results',
                                    'suite mm incomplete: 1 of 3 results'])

    def test_missing_closing_line(self):
        lines = ['    # Subtest: s', '    1..1', '    ok 1 c']
        self.assertEqual(kr.frame_problems(kr.parse_ktap(lines)[0]),
                         ['suite s incomplete: 1 of 1 results'])

    def test_next_document_ends_open_suite(self):
        lines = ['KTAP version 1', '1..1', '    # Subtest: s', '    1..2', '    ok 1 c',
                 'KTAP version 1', '1..1', '    # Subtest: t', '    1..1', '    ok 1 d',
                 'ok 1 t']
        frames = kr.parse_ktap(lines)
        self.assertEqual([p for f in frames for p in kr.frame_problems(f)],
                         ['top-level KTAP document 1 incomplete: 0 of 1 results',
                          'suite s incomplete: 1 of 2 results'])

    def test_short_document(self):
        frames = kr.parse_ktap(lines_of(SHORT_DOC_LOG))
        self.assertEqual([p for f in frames for p in kr.frame_problems(f)],
                         ['top-level KTAP document 1 incomplete: 2 of 3 results'])

    def test_suite_not_ok_without_failed_case(self):
        lines = ['    # Subtest: s', '    1..0', 'not ok 1 s']
        self.assertEqual(kr.frame_problems(kr.parse_ktap(lines)[0]),
                         ['suite s reported not ok without a failed case'])

    def test_result_line_forms(self):
        lines = ['    # Subtest: s', '    1..4', '    ok 1 - dash', '    not ok 2 two words',
                 '    ok 3 t # TODO later', '    not ok 4 sk # skip why', 'ok 1 s']
        cases = kr.parse_ktap(lines)[0].cases
        self.assertEqual([(c.name, c.status) for c in cases],
                         [('dash', 'pass'), ('two words', 'fail'), ('t', 'pass'),
                          ('sk', 'skip')])


class JudgeTest(unittest.TestCase):
    def test_pass(self):
        j = kr.judge(lines_of(GOOD_LOG), run_result(), (33,), ['printk', 'cmdline'])
        self.assertTrue(j.passed)
        self.assertEqual(j.reasons, [])

    def test_exit_status_meanings(self):
        j = kr.judge(lines_of(SPEC_LOG), run_result(35), (33,), [])
        self.assertEqual(j.reasons, ['exit status 35 (expected 33): kernel reported test failures'])
        self.assertEqual(kr.exit_reason(0, (33,)),
                         'exit status 0 (expected 33): triple fault / reset with -no-reboot')
        self.assertEqual(kr.exit_reason(35, (0,)), 'exit status 35 (expected 0)')
        self.assertEqual(kr.exit_reason(-9, (0,)), 'killed by SIGKILL (expected exit status 0)')

    def test_failures(self):
        j = kr.judge(lines_of(SPEC_LOG), run_result(), (33,), ['printk', 'blk'])
        self.assertFalse(j.passed)
        self.assertEqual(j.reasons, ['missing suite blk'])
        self.assertEqual([c.name for _, c in j.cases('fail')], ['formats_hex'])
        self.assertEqual([c.name for _, c in j.cases('skip')], ['log_ring'])

    def test_skip_alone_fails(self):
        log = SPEC_LOG.replace('not ok 2 formats_hex', 'ok 2 formats_hex')
        self.assertFalse(kr.judge(lines_of(log), run_result(), (33,), []).passed)

    def test_timeout(self):
        j = kr.judge(lines_of(GOOD_LOG), run_result(-9, True), (33,), [])
        self.assertEqual(j.reasons, ['timeout after 10 s'])

    def test_panic(self):
        lines = lines_of(PANIC_LOG)
        self.assertEqual(kr.find_panic(lines), (7, 'page fault at 0xdeadbeef (eip 0xc0101234)'))
        self.assertEqual(kr.find_panic(['Kernel panic - not syncing: oops']),
                         (0, 'not syncing: oops'))
        self.assertIsNone(kr.find_panic(['kernel panic: lower case']))
        j = kr.judge(lines, run_result(37), (33,), ['mm'])
        self.assertEqual(j.reasons, [
            'exit status 37 (expected 33): kernel panic',
            'kernel panic: page fault at 0xdeadbeef (eip 0xc0101234)',
            'top-level KTAP document 1 incomplete: 0 of 2 results',
            'suite mm incomplete: 1 of 3 results'])
        block = kr.panic_block('e', lines, j.panic[0])
        self.assertEqual(block[0], 'PANIC e (log line 8):')
        self.assertEqual(len(block), 1 + len(lines) - 7)

    def test_panic_block_limit(self):
        lines = ['Kernel panic: x'] + [f'l{i}' for i in range(100)]
        self.assertEqual(len(kr.panic_block('e', lines, 0)), 1 + 1 + kr.PANIC_BLOCK_LINES)

    def panic_entry(self, regex=r'^\s+#0 0x[0-9a-f]+ mm_fault_test\+0x'):
        return kr.parse_plan(f'p | 5 | panic:{regex} | panic_check,mm | true')[0]

    def test_panic_mode(self):
        outcome = kr.evaluate(self.panic_entry(), lines_of(PANIC_LOG), run_result(37))
        self.assertTrue(outcome.passed)
        suite, = outcome.suites
        self.assertEqual(suite.name, 'panic_check')
        self.assertEqual([(c.name, c.status) for c in suite.cases],
                         [(n, 'pass') for n in kr.PANIC_CASES])
        self.assertFalse(outcome.judgement.passed)

    def test_panic_mode_catches_missing_panic(self):
        outcome = kr.evaluate(self.panic_entry(), lines_of(GOOD_LOG.replace('printk', 'mm')),
                              run_result(33))
        self.assertEqual([c.status for c in outcome.suites[0].cases], ['fail'] * 3)
        self.assertFalse(outcome.passed)
        self.assertEqual(outcome.reasons, [])

    def test_panic_mode_unsymbolized(self):
        outcome = kr.evaluate(self.panic_entry(r'no_such_symbol'), lines_of(PANIC_LOG),
                              run_result(37))
        self.assertEqual([c.status for c in outcome.suites[0].cases], ['pass', 'pass', 'fail'])

    def test_summary(self):
        entry = kr.parse_plan('k | 5 | pass:33 | printk | true')[0]
        first = kr.evaluate(entry, lines_of(SPEC_LOG), run_result(35))
        second = kr.evaluate(entry, lines_of(GOOD_LOG), run_result(33))
        seen = kr.Counter()
        for outcome in (first, second):
            kr.label_suites(outcome.suites, seen)
        lines, status = kr.summarise([first, second])
        self.assertEqual(lines, [
            'suite printk: 1 passed, 1 failed, 1 skipped',
            'suite cmdline: 2 passed, 0 failed',
            'suite printk#2: 2 passed, 0 failed',
            'suite cmdline#2: 1 passed, 0 failed',
            'FAIL k: exit status 35 (expected 33): kernel reported test failures',
            '6 passed, 2 failed'])
        self.assertEqual(status, 1)
        self.assertEqual(kr.entry_line(first)[:len('== k: FAIL in ')], '== k: FAIL in ')
        self.assertTrue(kr.entry_line(first).endswith(
            ': exit status 35 (expected 33): kernel reported test failures; '
            'failed: printk/formats_hex; skipped: printk/log_ring'))
        self.assertEqual(kr.summarise([second])[1], 0)


class CommandLineTest(unittest.TestCase):
    """Runs the real script on plans whose commands cat canned logs."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        for name, text in [('good', GOOD_LOG), ('spec', SPEC_LOG), ('nested', NESTED_LOG),
                           ('panic', PANIC_LOG)]:
            with open(os.path.join(self.dir, name + '.txt'), 'w', newline='') as f:
                f.write(text)

    def tearDown(self):
        self.tmp.cleanup()

    def run_plan(self, plan, *args, env=None):
        path = os.path.join(self.dir, 'PLAN')
        with open(path, 'w') as f:
            f.write(textwrap.dedent(plan))
        cmd = [sys.executable, RUNNER, '--logdir', os.path.join(self.dir, 'logs'), *args, path]
        return subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True, timeout=60,
                              env=env)

    def test_timeout_asks_qemu_for_tasks(self):
        """A $QEMU entry that hangs gets a monitor socket; at the timeout the runner
        sends chardev-send-break serial0 and the report quotes the guest's dump."""
        fake = os.path.join(self.dir, 'fake-qemu')
        with open(fake, 'w') as f:
            f.write(FAKE_QEMU.format(python=sys.executable))
        os.chmod(fake, 0o755)
        env = dict(os.environ, QEMU=fake, QEMU_FLAGS='-accel tcg')
        res = self.run_plan('''\
            hang | 2 | pass:33 | - | $QEMU $QEMU_FLAGS -serial stdio
            script | 1 | pass:33 | - | sleep 5; $QEMU $QEMU_FLAGS
            ''', env=env)
        out = res.stdout.splitlines()
        self.assertIn('TASKS hang at the timeout (log line 2):', out, res.stdout)
        i = out.index('TASKS hang at the timeout (log line 2):')
        self.assertEqual(out[i + 1:i + 5], ['    | show tasks: jiffies 7, 1 tasks, current 0 idle',
                                            '    | task 1 init: S, wait child_exit_wait',
                                            '    | Call trace:',
                                            '    | ---[ end show tasks ]---'])
        self.assertIn('FAIL hang: timeout after 2 s', out)
        self.assertFalse(any(line.startswith('TASKS script') for line in out), res.stdout)

    def test_all_pass(self):
        res = self.run_plan('''\
            # all good
            good | 10 | pass:33 | printk,cmdline | cat good.txt; exit 33
            host | 10 | pass:0 | - | printf 'no ktap here\\n'
            ''')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        out = res.stdout.splitlines()
        self.assertEqual(out[0], '== good: running (timeout 10s)')
        self.assertRegex(out[1], r'^== good: PASS in \d+\.\d s$')
        self.assertEqual(out[-3:], ['suite printk: 2 passed, 0 failed',
                                    'suite cmdline: 1 passed, 0 failed', '3 passed, 0 failed'])
        with open(os.path.join(self.dir, 'logs', 'good.log'), newline='') as f:
            self.assertEqual(f.read(), GOOD_LOG)
        self.assertNotIn('pci: found', res.stdout)          # not streamed without -v

    def test_failures(self):
        res = self.run_plan('''\
            spec | 10 | pass:33 | printk,cmdline,blk | cat spec.txt; exit 35
            nested | 10 | pass:33 | mm,libc,fs | cat nested.txt; sh -c 'exit 33'
            slow | 1 | pass:0 | - | echo started; sleep 20
            ''')
        self.assertEqual(res.returncode, 1)
        out = res.stdout.splitlines()
        self.assertIn('FAIL printk/formats_hex', out)
        i = out.index('FAIL printk/formats_hex')
        self.assertEqual(out[i + 2], '    |     not ok 2 formats_hex')
        self.assertIn('SKIP printk/log_ring: no ring', out)
        self.assertIn('FAIL fs/open_missing', out)
        self.assertTrue(any(line.startswith('== slow: FAIL in ') and
                            line.endswith(': timeout after 1 s') for line in out), out)
        self.assertEqual(out[-9:], [
            'suite printk: 1 passed, 1 failed, 1 skipped',
            'suite cmdline: 2 passed, 0 failed',
            'suite mm: 1 passed, 0 failed',
            'suite libc: 2 passed, 0 failed',
            'suite fs: 0 passed, 1 failed',
            'FAIL spec: exit status 35 (expected 33): kernel reported test failures',
            'FAIL spec: missing suite blk',
            'FAIL slow: timeout after 1 s',
            '6 passed, 5 failed'])
        with open(os.path.join(self.dir, 'logs', 'slow.log')) as f:
            self.assertEqual(f.read(), 'started\n')

    def test_panic_entries(self):
        regex = r'^\s+#0 0x[0-9a-f]+ mm_fault_test\+0x'
        res = self.run_plan(f'''
            crash | 10 | pass:33 | mm | cat panic.txt; exit 37
            neg | 10 | panic:{regex} | panic_check | cat panic.txt; exit 37
            ''')
        self.assertEqual(res.returncode, 1)
        out = res.stdout.splitlines()
        self.assertEqual(out.count('PANIC crash (log line 8):'), 1)   # not for neg without -v
        self.assertRegex(res.stdout, r'== neg: PASS in')
        self.assertEqual(out[-6:], [
            'suite panic_check: 3 passed, 0 failed',
            'FAIL crash: exit status 37 (expected 33): kernel panic',
            'FAIL crash: kernel panic: page fault at 0xdeadbeef (eip 0xc0101234)',
            'FAIL crash: top-level KTAP document 1 incomplete: 0 of 2 results',
            'FAIL crash: suite mm incomplete: 1 of 3 results',
            '4 passed, 4 failed'])
        self.assertIn('suite mm: 1 passed, 0 failed', out)

    def test_panic_mode_verbose(self):
        res = self.run_plan(r'''
            neg | 10 | panic:mm_fault_test | panic_check | cat panic.txt; exit 37
            ''', '-v')
        self.assertEqual(res.returncode, 0, res.stdout)
        self.assertIn('PANIC neg (log line 8):', res.stdout)
        self.assertIn('[    0.500000] mm: about to fault on purpose', res.stdout)  # streamed
        self.assertEqual(res.stdout.splitlines()[-1], '3 passed, 0 failed')

    def test_select_and_errors(self):
        plan = '''\
            a | 10 | pass:0 | - | true
            b | 10 | pass:0 | - | false
            '''
        res = self.run_plan(plan, '-k', 'a')
        self.assertEqual((res.returncode, res.stdout.splitlines()[-1]), (0, '0 passed, 0 failed'))
        self.assertNotIn('== b', res.stdout)
        res = self.run_plan(plan, '-k', 'a,c')
        self.assertEqual(res.returncode, 2)
        self.assertIn('unknown entry c', res.stderr)
        res = self.run_plan('a | 10 | pass:0 | true\n')
        self.assertEqual(res.returncode, 2)
        self.assertIn('PLAN:1:', res.stderr)
        res = self.run_plan(plan, '-k', 'b')
        self.assertEqual(res.stdout.splitlines()[-2:],
                         ['FAIL b: exit status 1 (expected 0)', '0 passed, 1 failed'])

    def test_timeout_kills_process_group(self):
        pidfile = os.path.join(self.dir, 'pid')
        res = self.run_plan(f'''\
            t | 1 | pass:0 | - | sleep 30 & echo $! > {pidfile}; wait
            ''')
        self.assertEqual(res.returncode, 1)
        with open(pidfile) as f:
            pid = int(f.read())
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and process_alive(pid):
            time.sleep(0.05)
        self.assertFalse(process_alive(pid))


# Stands in for QEMU: prints a line, then serves the monitor socket named in its
# -monitor argument; a break on serial0 makes it print a task dump.
FAKE_QEMU = '''#!{python}
import socket, sys, time
args = sys.argv[1:]
path = args[args.index('-monitor') + 1].split(',')[0][len('unix:'):]
print('ok 1 booted', flush=True)
srv = socket.socket(socket.AF_UNIX)
srv.bind(path)
srv.listen(1)
conn, _ = srv.accept()
if b'chardev-send-break serial0' in conn.recv(100):
    print('show tasks: jiffies 7, 1 tasks, current 0 idle', flush=True)
    print('task 1 init: S, wait child_exit_wait', flush=True)
    print('Call trace:', flush=True)
    print('---[ end show tasks ]---', flush=True)
time.sleep(30)
'''


def process_alive(pid):
    """True if pid exists and is not a zombie."""
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().split(') ')[-1][0] != 'Z'
    except FileNotFoundError:
        return False


if __name__ == '__main__':
    unittest.main()
