/* aio_ring.h (uapi): the completion ring's header, one definition for the kernel and the user-space reader (libaio). */
#ifndef UAPI_AIO_RING_H
#define UAPI_AIO_RING_H

/*
 * The ring's events are the `struct io_event` of whoever includes this: the
 * kernel's (include/uapi/aio_abi.h includes it) or libaio's (user/include/
 * libaio.h: the same 32-byte layout under libaio's field names). Declare it
 * first.
 */

#define AIO_RING_MAGIC			0xa10a10a1
#define AIO_RING_COMPAT_FEATURES	1
#define AIO_RING_INCOMPAT_FEATURES	0

/*
 * The ring header at the start of the mapped ring, followed by nr io_events.
 * The kernel writes events at tail and then advances tail (release); the
 * consumer (the kernel in io_getevents_abs, or the library in user space)
 * reads tail (acquire), then the events at head, then advances head (release).
 * Both indexes run 0..nr-1. The ring is empty when head == tail and holds at
 * most nr - 1 events. Every field is user-writable: the kernel keeps its own
 * copies and a reader checks what it reads.
 */
struct aio_ring {
	unsigned	id;		/* the context id (ring address) */
	unsigned	nr;		/* number of io_events slots */
	unsigned	head;		/* next event to consume */
	unsigned	tail;		/* next slot the kernel fills */
	unsigned	magic;		/* AIO_RING_MAGIC */
	unsigned	compat_features;
	unsigned	incompat_features;
	unsigned	header_length;	/* sizeof(struct aio_ring) */
	struct io_event	io_events[];
};

_Static_assert(sizeof(struct aio_ring) == 32, "ring header layout");
_Static_assert(sizeof(struct io_event) == 32, "ring event layout");

#endif
