/* serial.h: the COM1 console (115200 8N1, polled output). */
#ifndef SERIAL_H
#define SERIAL_H

#include "types.h"

void serial_init(void);
void serial_putc(char c);
void serial_write(const char *s, size_t n);

#endif
