/* errno.h: kernel error numbers (the uapi values) and ERR_PTR-style pointers. */
#ifndef ERRNO_H
#define ERRNO_H

#include "uapi/errno.h"
#include "types.h"

#define MAX_ERRNO	4095

static inline void *ERR_PTR(long err) { return (void *)err; }
static inline long PTR_ERR(const void *p) { return (long)p; }
static inline bool IS_ERR(const void *p)
{
	return (unsigned long)p >= (unsigned long)-MAX_ERRNO;
}

#endif
