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

#endif
