/* sys/random.h: getrandom and getentropy as glibc declares them (bytes from the kernel's non-cryptographic generator, see getrandom in README). */
#ifndef USER_SYS_RANDOM_H
#define USER_SYS_RANDOM_H

#include <sys/types.h>
#include "uapi/random.h"

#ifdef __cplusplus
extern "C" {
#endif

ssize_t getrandom(void *buf, size_t count, unsigned int flags);
int getentropy(void *buf, size_t length);

#ifdef __cplusplus
}
#endif

#endif
