/* clone.S: start a thread with clone (the child calls fn on its new stack) and end a detached thread without its stack. */

/*
 * int __aiok_clone(void (*fn)(void *), void *stack_top, unsigned long flags, void *arg,
 *                  int *parent_tid, struct user_desc *tls, int *child_tid);
 *
 * Linux i386 clone: ebx flags, ecx the child's stack, edx parent_tid, esi tls,
 * edi child_tid.  The parent gets the child's tid (or -errno); the child
 * returns from the same int $0x80 with eax 0 and esp on its own stack, where
 * arg and fn were put beforehand: it must not touch the parent's stack.
 * int $0x80 and not the entry page, whose trampoline pops what it pushed.
 */
	.text
	.globl	__aiok_clone
	.type	__aiok_clone, @function
__aiok_clone:
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	pushl	%ebp			/* the arguments start at 20(%esp) */
	movl	24(%esp), %ecx		/* stack_top */
	andl	$-16, %ecx
	subl	$16, %ecx		/* the child's esp: 16-byte aligned for the call */
	movl	32(%esp), %eax		/* arg: fn's argument at 0(%ecx) */
	movl	%eax, 0(%ecx)
	movl	20(%esp), %eax		/* fn */
	movl	%eax, 4(%ecx)
	movl	28(%esp), %ebx		/* flags */
	movl	36(%esp), %edx		/* parent_tid */
	movl	40(%esp), %esi		/* tls */
	movl	44(%esp), %edi		/* child_tid */
	movl	$120, %eax		/* clone */
	int	$0x80
	testl	%eax, %eax
	jz	1f
	popl	%ebp			/* the parent */
	popl	%edi
	popl	%esi
	popl	%ebx
	ret
1:	xorl	%ebp, %ebp		/* the child: outermost frame */
	movl	4(%esp), %eax
	call	*%eax			/* fn(arg); it ends the thread itself */
	movl	$1, %eax		/* exit, should it return */
	xorl	%ebx, %ebx
	int	$0x80
	hlt
	.size	__aiok_clone, . - __aiok_clone

/*
 * void __aiok_unmap_exit(void *base, unsigned long len) __attribute__((noreturn));
 *
 * munmap the calling thread's own stack and control block, then exit the
 * thread, touching no memory in between.  Signals must be blocked and the
 * kernel's clear-tid address dropped (set_tid_address(0)) beforehand.
 */
	.globl	__aiok_unmap_exit
	.type	__aiok_unmap_exit, @function
__aiok_unmap_exit:
	movl	4(%esp), %ebx
	movl	8(%esp), %ecx
	movl	$91, %eax		/* munmap */
	int	$0x80
	movl	$1, %eax		/* exit (this thread) */
	xorl	%ebx, %ebx
	int	$0x80
	hlt
	.size	__aiok_unmap_exit, . - __aiok_unmap_exit

	.section .note.GNU-stack,"",@progbits
