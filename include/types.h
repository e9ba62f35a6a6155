/* types.h: fixed-width integer types and small helpers shared by the kernel. */
#ifndef TYPES_H
#define TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef int32_t ssize_t;
typedef int64_t loff_t;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)	(((x) + (a) - 1) & ~((a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((a) - 1))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define MIN(a, b)	((a) < (b) ? (a) : (b))
#define INT_MAX		0x7fffffff
#define LONG_MAX	0x7fffffffL
#define U32_MAX		0xffffffffu

#define MAX(a, b)	((a) > (b) ? (a) : (b))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define __noreturn	__attribute__((noreturn))
#define __noinline	__attribute__((noinline))
#define __used		__attribute__((used))
#define __packed	__attribute__((packed))
#define __aligned(n)	__attribute__((aligned(n)))
#define __section(s)	__attribute__((section(s)))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)

#endif
