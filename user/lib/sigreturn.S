/* sigreturn.S: the SA_RESTORER trampoline a signal handler returns into: rt_sigreturn by int $0x80. */

/*
 * The kernel pushes this address as the handler's return address; rt_sigreturn
 * restores the registers and the mask from the signal frame.  int $0x80, not the
 * entry page: the kernel must reload every register, which SYSEXIT cannot.
 * gdb recognises this exact sequence and unwinds through the signal frame.
 */
	.text
	.globl	__aiok_sigreturn
	.type	__aiok_sigreturn, @function
	nop				/* unwinders look one byte before a return address */
__aiok_sigreturn:
	movl	$173, %eax		/* rt_sigreturn */
	int	$0x80
	hlt				/* not reached */
	.size	__aiok_sigreturn, . - __aiok_sigreturn

	.section .note.GNU-stack,"",@progbits
