/* mm_test.h: helpers shared by the memory-layer test suites. */
#ifndef MM_TEST_H
#define MM_TEST_H

#include "atomic.h"
#include "mm.h"
#include "printk.h"
#include "string.h"

/* Switch the debug checks to report-and-count; returns the report count. */
static inline int mm_report_mode_begin(void)
{
	mm_check_mode = MM_CHECK_REPORT;
	return atomic_read(&mm_check_reports);
}

/* Back to panicking; returns the reports made since begin. */
static inline int mm_report_mode_end(int before)
{
	mm_check_mode = MM_CHECK_PANIC;
	return atomic_read(&mm_check_reports) - before;
}

/* Does the last report (the tail of the log) mention every given word? */
static inline bool mm_log_tail_has(const char *a, const char *b)
{
	static char tail[512];

	log_tail(tail, sizeof(tail));
	return strstr(tail, a) && (!b || strstr(tail, b));
}

#endif
