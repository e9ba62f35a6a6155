#!/bin/sh
# man_check.sh: every manual page in docs/man renders with groff and man without a warning; prints a KTAP suite "manpages".
n=0; failed=0
pages=$(ls docs/man/*.[0-9])
echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: manpages"
echo "    1..$(echo "$pages" | wc -l)"
for p in $pages; do
	n=$((n + 1))
	# man resolves .so links from the current directory: run from the top of the tree.
	msg=$( { groff -man -ww -z "$p" && man --warnings -l "$p" >/dev/null; } 2>&1)
	if [ -z "$msg" ]; then
		echo "    ok $n $(basename "$p")"
	else
		echo "$msg" | sed 's/^/    # /'
		echo "    not ok $n $(basename "$p")"
		failed=$((failed + 1))
	fi
done
echo "# manpages: pass:$((n - failed)) fail:$failed skip:0 total:$n"
[ $failed = 0 ] && echo "ok 1 manpages" || echo "not ok 1 manpages"
[ $failed = 0 ]
