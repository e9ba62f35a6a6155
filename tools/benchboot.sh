#!/bin/sh
# benchboot.sh: one benchmark boot: run the QEMU command under a timeout, its serial output to LOG, one summary line.
#
#   tools/benchboot.sh TIMEOUT_S LOG QEMU ARGS...
#
# Always succeeds: a boot that prints no RESULT lines shows as missing in the table.
set -u
timeout_s=$1 log=$2
shift 2
start=$(date +%s)
timeout "$timeout_s" "$@" > "$log" 2>&1 < /dev/null
rc=$?
n=$(grep -c '^RESULT ' "$log" | tr -d '\n')
echo "  BENCH   $log: $n RESULT lines, QEMU status $rc, $(( $(date +%s) - start )) s"
[ "$rc" = 124 ] && echo "          (timed out after $timeout_s s)"
exit 0
