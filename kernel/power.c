/* power.c: end the run through QEMU's isa-debug-exit port, else halt forever. */
#include "power.h"
#include "trace.h"
#include "x86.h"

#define DEBUG_EXIT_PORT	0xF4	/* -device isa-debug-exit,iobase=0xf4,iosize=0x04 */

void machine_exit(u32 code)
{
	cli();
	trace_drain_final();	/* what is buffered goes out first */
	outl(DEBUG_EXIT_PORT, code);
	for (;;)
		hlt();			/* not under QEMU: stay halted */
}
