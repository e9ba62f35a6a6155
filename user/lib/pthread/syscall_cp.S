/* syscall_cp.S: the one entry of every cancellable system call: the cancel check and int $0x80 between the labels the cancel handler tests. */

/*
 * long __syscall_cp_asm(const volatile int *pending, long nr, long a, ..., long f)
 *
 * Contract with the cancel signal's handler (cancel.c): an interrupted eip in
 * [__cp_begin, __cp_end) means the system call has not run: either the check
 * of *pending or the loads before int $0x80 were interrupted, or the kernel
 * rewound eip onto the int $0x80 to restart a call the signal interrupted
 * (SA_RESTART): nothing was consumed, so the handler sends the thread to
 * __cp_cancel.  At __cp_end or later the call is done and its result in eax is
 * the program's: the cancel waits for the next cancellation point (tls.c ends
 * the thread on -EINTR, when the signal ended a call that took nothing).
 * int $0x80, not the entry page: the restart must land between the labels.
 */
	.text
	.globl	__syscall_cp_asm, __cp_begin, __cp_end, __cp_cancel
	.type	__syscall_cp_asm, @function
__syscall_cp_asm:
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	pushl	%ebp
	movl	28(%esp), %ebx		/* 20: pending, 24: nr, 28..48: a..f */
	movl	32(%esp), %ecx
	movl	36(%esp), %edx
	movl	40(%esp), %esi
	movl	44(%esp), %edi
	movl	48(%esp), %ebp
	movl	20(%esp), %eax
__cp_begin:
	cmpl	$0, (%eax)		/* a cancel already pending: the call never starts */
	jne	__cp_cancel
	movl	24(%esp), %eax
	int	$0x80
__cp_end:
	popl	%ebp
	popl	%edi
	popl	%esi
	popl	%ebx
	ret
/* Reached by the jne above or from the handler (the frame still pushed):
 * the hook ends the thread; should it return (a handler of the program's
 * disabled cancellation meanwhile) the call reports EINTR, not made. */
__cp_cancel:
	movl	%esp, %ebp
	andl	$-16, %esp		/* the C convention's alignment for the hook */
	call	*__pthread_cancel_hook
	movl	%ebp, %esp
	movl	$-4, %eax		/* -EINTR (kernel numbering) */
	jmp	__cp_end
	.size	__syscall_cp_asm, . - __syscall_cp_asm

	.section .note.GNU-stack,"",@progbits
