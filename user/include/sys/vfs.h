/* sys/vfs.h: the old name of <sys/statfs.h>, as glibc keeps it. */
#include <sys/statfs.h>
