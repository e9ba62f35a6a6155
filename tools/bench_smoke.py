#!/usr/bin/env python3
"""bench_smoke.py: `bench --quick` on aiokern with a virtio and an IDE disk, as KTAP suite bench_smoke.

Every metric must be reported, and io_errors and verify_errors must be 0.
Uses the Makefile's exported QEMU, QEMU_FLAGS, KERNEL, INITRAMFS and BUILD."""
import os
import re
import subprocess
import sys

METRICS = ["qd1_iops", "qd1_lat_p50_us", "qd1_lat_p99_us", "qd32_iops", "seq64k_qd8_MBps",
           "submit_ebadf_ns", "getevents_idle_ns", "setup_destroy_us", "null_syscall_ns",
           "thread_create_join_us", "mutex_uncontended_ns", "futex_wake_to_run_us",
           "signal_round_trip_us",
           "noop_submit_reap_ns", "noop_qd32_ops_per_s", "ring_reap_ns",
           "io_errors", "verify_errors"]
DISKS = {"virtio": ("/dev/vda", "-drive file={img},format=raw,if=none,id=b0 "
                                "-device virtio-blk-pci,drive=b0"),
         "ide": ("/dev/hda", "-drive file={img},format=raw,if=ide,index=0")}


def boot(label, img):
    dev, disk = DISKS[label]
    env = os.environ
    cmd = (f"{env['QEMU']} {env['QEMU_FLAGS']} -serial stdio -kernel {env['KERNEL']} "
           f"-initrd {env['INITRAMFS']} {disk.format(img=img)} "
           f"-append 'lowmem=128M run=bench:{dev}:{label}:--quick'")
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=120)
    with open(os.path.join(env["BUILD"], "logs", f"bench_smoke-{label}.log"), "w") as f:
        f.write(out.stdout)
    found = {}
    for m in re.finditer(r"^RESULT (\S+) (\S+) (\S+)", out.stdout, re.M):
        found[m.group(2)] = float(m.group(3))
    return out.returncode, found


def main():
    img = os.path.join(os.environ["BUILD"], "bench-smoke.img")
    if not os.path.exists(img):
        subprocess.run([sys.executable, "tools/mkbenchimg.py", img], check=True)
    cases = []
    for label in DISKS:
        rc, found = boot(label, img)
        missing = [m for m in METRICS if m not in found]
        cases.append((f"{label}_boot_passes", rc == 33, f"QEMU status {rc}"))
        cases.append((f"{label}_all_metrics", not missing, f"missing {missing}"))
        cases.append((f"{label}_no_errors", found.get("io_errors") == 0 and
                      found.get("verify_errors") == 0,
                      f"io_errors {found.get('io_errors')} verify_errors {found.get('verify_errors')}"))
    print("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: bench_smoke")
    print(f"    1..{len(cases)}")
    for i, (name, ok, why) in enumerate(cases, 1):
        if not ok:
            print(f"    # {name}: {why}")
        print(f"    {'ok' if ok else 'not ok'} {i} {name}")
    failed = sum(not ok for _, ok, _ in cases)
    print(f"{'not ok' if failed else 'ok'} 1 bench_smoke")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
