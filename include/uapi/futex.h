/* futex.h (uapi): futex operations, Linux values. */
#ifndef UAPI_FUTEX_H
#define UAPI_FUTEX_H

#define KFUTEX_WAIT		0	/* sleep while *uaddr == val, timeout relative */
#define KFUTEX_WAKE		1	/* wake up to val waiters */
#define KFUTEX_REQUEUE		3	/* wake val, move up to val2 (timeout arg) to uaddr2 */
#define KFUTEX_CMP_REQUEUE	4	/* the same if *uaddr == val3, else -EAGAIN */
#define KFUTEX_WAIT_BITSET	9	/* as WAIT with a bit mask (val3); timeout absolute (CLOCK_MONOTONIC) */
#define KFUTEX_WAKE_BITSET	10	/* as WAKE for waiters whose mask meets val3 */
#define KFUTEX_PRIVATE		128	/* the word is not shared with another process */
#define KFUTEX_CLOCK_REALTIME	256	/* WAIT_BITSET: the deadline is on CLOCK_REALTIME */
#define KFUTEX_CMD_MASK		(~(KFUTEX_PRIVATE | KFUTEX_CLOCK_REALTIME))
#define KFUTEX_BITSET_ANY	0xffffffffu

#endif
