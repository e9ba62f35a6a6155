/* types.h (uapi): fixed-width ABI types shared by the kernel and newlib programs; no libc needed. */
#ifndef UAPI_TYPES_H
#define UAPI_TYPES_H

/*
 * The uapi headers are included by the kernel (-Iinclude, "uapi/x.h") and by user
 * programs next to newlib's headers.  Where a name would clash with libc (O_*, SIG*,
 * CLOCK_*, S_IF*, W*), the constants are left out when UAPI_STRUCTS_ONLY is defined;
 * the user glue defines it and gets the kernel's values through its own tables.
 * Structs that libc also defines get a kernel_ prefix (struct kernel_timespec).
 */
typedef unsigned char		__u8;
typedef signed char		__s8;
typedef unsigned short		__u16;
typedef signed short		__s16;
typedef unsigned int		__u32;
typedef signed int		__s32;
typedef unsigned long long	__u64;
typedef signed long long	__s64;

#define UAPI_ASSERT_SIZE(type, size) \
	_Static_assert(sizeof(type) == (size), #type " is not " #size " bytes")

#endif
