#!/bin/sh
# progs_check.sh: e2fsck -fn on the ext2 images the programs suite wrote (testplan progs_check), as KTAP.
# usage: tools/progs_check.sh IMAGE...
PATH=/usr/sbin:/sbin:$PATH
echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: progs_check"
echo "    1..$#"
n=0
failed=0
for img in "$@"; do
	n=$((n + 1))
	if out=$(e2fsck -fn "$img" 2>&1); then
		echo "    ok $n $(basename "$img")"
	else
		echo "$out" | sed 's/^/    # /'
		echo "    not ok $n $(basename "$img")"
		failed=$((failed + 1))
	fi
done
[ $failed = 0 ] && echo "ok 1 progs_check" || echo "not ok 1 progs_check"
[ $failed = 0 ]
