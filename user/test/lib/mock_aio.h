/* mock_aio.h: controls of the user-space AIO mock kernel (mock_aio.c) for the qemu-i386 tests. */
#ifndef USER_TEST_MOCK_AIO_H
#define USER_TEST_MOCK_AIO_H

#define MOCK_DEFER	1	/* aio_reqprio value: hold the request until getevents/cancel */

struct mock_stats {
	unsigned long	submit_calls;
	unsigned long	getevents_calls;
	unsigned long	cancel_calls;
	unsigned long	posted;		/* events written to the ring */
};
extern struct mock_stats mock_stats;

struct aio_ring;
struct aio_ring *mock_ring_of(unsigned long ctx);

#endif
