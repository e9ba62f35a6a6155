#!/bin/sh
# tools/newlib.sh: build newlib 3.3.0 for i686-elf (host gcc behind tools/cross/i686-elf-*
# wrappers) from Debian's newlib-source tarball into a cache outside the source tree.
#
#   tools/newlib.sh                  build if not cached; prints one line when it built
#   tools/newlib.sh --print-sysroot  build if needed (progress on stderr), then print the
#                                    sysroot dir (has include/ and lib/) on stdout
#
# Cache: ${AIOK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aiokern}/newlib-<KEY>, KEY = first 12
# hex of sha256(this script, the wrapper scripts, sha256 of the tarball). See
# /work/shared/TOOLCHAIN.md section 1 for why each option is there.
set -eu

TARBALL=/usr/src/newlib/newlib-3.3.0.tar.xz

PRINT=0
case "${1-}" in
  "") ;;
  --print-sysroot) PRINT=1 ;;
  -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "newlib.sh: unknown argument: $1 (use --print-sysroot)" >&2; exit 2 ;;
esac

# Messages: stdout normally, stderr under --print-sysroot (stdout is the answer there).
say() { if [ "$PRINT" = 1 ]; then echo "$*" >&2; else echo "$*"; fi; }
die() { echo "newlib.sh: $*" >&2; exit 1; }

TOOLS=$(cd "$(dirname "$0")" && pwd)
CROSS=$TOOLS/cross
SELF=$TOOLS/$(basename "$0")

[ -f "$TARBALL" ] || {
  echo "newlib.sh: $TARBALL not found; install it with:" >&2
  echo "  apt-get install -y newlib-source" >&2
  exit 1
}
for w in gcc as ld ar ranlib nm objdump objcopy strip readelf; do
  [ -x "$CROSS/i686-elf-$w" ] || die "missing wrapper $CROSS/i686-elf-$w"
done

# Recipe key: this script + every wrapper (name and content) + the tarball's sha256.
KEY=$(
  {
    echo "== newlib.sh"; cat "$SELF"
    for f in "$CROSS"/i686-elf-*; do echo "== $(basename "$f")"; cat "$f"; done
    echo "== tarball"; sha256sum < "$TARBALL" | cut -d' ' -f1
  } | sha256sum | cut -c1-12
)

CACHE=${AIOK_CACHE:-${XDG_CACHE_HOME:-${HOME:?HOME unset}/.cache}/aiokern}
DEST=$CACHE/newlib-$KEY
SYSROOT=$DEST/i686-elf
LOG=$CACHE/newlib-$KEY.log

built() { [ -f "$DEST/.done" ] && [ -f "$SYSROOT/lib/libc.a" ]; }

if ! built; then
  mkdir -p "$CACHE"
  # Serialize concurrent builds; whoever waits re-checks and finds the result.
  exec 9>>"$CACHE/.lock"
  flock 9
  if ! built; then
    START=$(date +%s)
    TMP=$(mktemp -d "$CACHE/tmp.newlib-$KEY.XXXXXX")
    trap 'rm -rf "$TMP"' EXIT
    trap 'exit 130' INT TERM HUP
    [ "$PRINT" = 1 ] && echo "newlib: building $DEST (about a minute, log $LOG)" >&2
    # The subshell must not sit left of || / in an if: that would switch off set -e inside it.
    set +e
    (
      set -e
      # Don't let a calling make or the user's build flags leak into newlib's build.
      unset MAKEFLAGS MFLAGS MAKELEVEL CC CXX CPP CFLAGS CXXFLAGS CPPFLAGS LDFLAGS LIBS \
            CC_FOR_TARGET CFLAGS_FOR_TARGET GCC_EXEC_PREFIX COMPILER_PATH LIBRARY_PATH \
            C_INCLUDE_PATH CPATH 2>/dev/null || true
      PATH=$CROSS:$PATH; export PATH
      cd "$TMP"
      echo "== extract $TARBALL"
      tar xf "$TARBALL"
      [ -d newlib-salsa ] || { echo "tarball did not unpack to newlib-salsa/"; exit 1; }
      mkdir build && cd build
      echo "== configure"
      ../newlib-salsa/configure --target=i686-elf --prefix="$TMP/prefix" \
        --disable-multilib --disable-newlib-supplied-syscalls \
        --enable-newlib-io-long-long --enable-newlib-io-c99-formats --disable-nls \
        --enable-newlib-retargetable-locking --enable-newlib-global-stdio-streams \
        CFLAGS_FOR_TARGET="-g -O2 -UMISSING_SYSCALL_NAMES"
      echo "== make all-target-newlib"
      make -j"$(nproc)" all-target-newlib
      echo "== make install-target-newlib"
      make install-target-newlib
      test -f "$TMP/prefix/i686-elf/lib/libc.a"
      test -f "$TMP/prefix/i686-elf/include/stdio.h"
      # The libc must call the underscore syscall names (MISSING_SYSCALL_NAMES undone).
      nm "$TMP/prefix/i686-elf/lib/libc.a" | grep -q ' U _write$' ||
        { echo "libc.a does not reference _write"; exit 1; }
      # Threads (user/lib/pthread): the locks are ours (__retarget_lock_*), the
      # reentrancy data is per thread (__getreent, from the wrapper's __DYNAMIC_REENT__),
      # and stdin/stdout/stderr are one set of FILEs shared by every thread.
      nm "$TMP/prefix/i686-elf/lib/libc.a" | grep -q ' U __retarget_lock_acquire_recursive$' ||
        { echo "libc.a is not built with retargetable locking"; exit 1; }
      nm "$TMP/prefix/i686-elf/lib/libc.a" | grep -q ' U __getreent$' ||
        { echo "libc.a does not call __getreent"; exit 1; }
      grep -q '^#define _WANT_REENT_GLOBAL_STDIO_STREAMS' "$TMP/prefix/i686-elf/include/newlib.h" ||
        { echo "newlib.h lacks global stdio streams"; exit 1; }
    ) > "$LOG" 2>&1
    RC=$?
    set -e
    if [ "$RC" != 0 ]; then
      echo "newlib.sh: build failed; last 40 lines of $LOG:" >&2
      tail -n 40 "$LOG" >&2
      exit 1
    fi
    # .done goes in before the rename, so $DEST appears complete or not at all.
    echo "$KEY" > "$TMP/prefix/.done"
    rm -rf "$DEST"          # leftover without .done (e.g. killed mid-rename); we hold the lock
    mv "$TMP/prefix" "$DEST"
    rm -rf "$TMP"
    trap - EXIT
    say "newlib: built $DEST in $(( $(date +%s) - START )) s"
  fi
  exec 9>&-
fi

[ "$PRINT" = 1 ] && echo "$SYSROOT"
exit 0
