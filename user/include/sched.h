/* sched.h: newlib's <sched.h> (struct sched_param, SCHED_*), sched_yield (newlib declares it only for RTEMS), and glibc's cpu_set_t with the CPU_* macros for sched_setaffinity / sched_getaffinity (_GNU_SOURCE). */
#ifndef USER_SCHED_H
#define USER_SCHED_H

#include <sys/types.h>

/* glibc's layout: 1024 CPUs in unsigned longs. newlib declares the affinity
 * calls once _SYS_CPUSET_H_ says cpu_set_t exists. */
#define CPU_SETSIZE	1024
#define __CPU_BITS	(8 * sizeof(unsigned long))
typedef struct {
	unsigned long __bits[CPU_SETSIZE / (8 * sizeof(unsigned long))];
} cpu_set_t;
#define _SYS_CPUSET_H_

#define CPU_ZERO_S(size, set)	__builtin_memset((set), 0, (size))
#define CPU_ZERO(set)		CPU_ZERO_S(sizeof(cpu_set_t), set)
#define CPU_SET_S(cpu, size, set) \
	((size_t)(cpu) / 8 < (size_t)(size) ? \
	 ((set)->__bits[(cpu) / __CPU_BITS] |= 1ul << ((cpu) % __CPU_BITS)) : 0)
#define CPU_CLR_S(cpu, size, set) \
	((size_t)(cpu) / 8 < (size_t)(size) ? \
	 ((set)->__bits[(cpu) / __CPU_BITS] &= ~(1ul << ((cpu) % __CPU_BITS))) : 0)
#define CPU_ISSET_S(cpu, size, set) \
	((size_t)(cpu) / 8 < (size_t)(size) ? \
	 (((set)->__bits[(cpu) / __CPU_BITS] >> ((cpu) % __CPU_BITS)) & 1) : 0)
#define CPU_SET(cpu, set)	CPU_SET_S(cpu, sizeof(cpu_set_t), set)
#define CPU_CLR(cpu, set)	CPU_CLR_S(cpu, sizeof(cpu_set_t), set)
#define CPU_ISSET(cpu, set)	CPU_ISSET_S(cpu, sizeof(cpu_set_t), set)
#define CPU_COUNT_S(size, set)	__sched_cpucount((size), (set))
#define CPU_COUNT(set)		CPU_COUNT_S(sizeof(cpu_set_t), set)
#define CPU_ALLOC_SIZE(n)	((((n) + __CPU_BITS - 1) / __CPU_BITS) * sizeof(unsigned long))

#include_next <sched.h>

#ifdef __cplusplus
extern "C" {
#endif

int sched_yield(void);
int __sched_cpucount(size_t size, const cpu_set_t *set);

#ifdef __cplusplus
}
#endif

#endif
