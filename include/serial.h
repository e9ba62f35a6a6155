/* serial.h: the COM1 console (115200 8N1, polled output). */
#ifndef SERIAL_H
#define SERIAL_H

#include "types.h"

void serial_init(void);
void serial_putc(char c);
void serial_write(const char *s, size_t n);
/* Turn on receive interrupts (IRQ 4) once interrupts and wait queues work. */
void serial_rx_init(void);
/* Read what has been received, waiting (interruptibly) for at least one byte;
 * returns the count or -EINTR. Process context. */
ssize_t serial_read(char *buf, size_t n);
/* Bytes received and not yet read (for poll and FIONREAD). Any context. */
size_t serial_rx_ready(void);
/* The queue woken when bytes arrive (for poll). */
struct wait_queue_head;
struct wait_queue_head *serial_rx_waitq(void);

#endif
