/* crt0.S: process entry: Linux i386 initial stack -> environ, constructors, main, exit. */

/*
 * At _start:  (%esp) argc, 4(%esp) argv[0] .. argv[argc-1], NULL,
 *             envp[0] .. NULL, then auxv (type, value) pairs ending with AT_NULL.
 */
	.text
	.globl	_start
	.type	_start, @function
_start:
	xorl	%ebp, %ebp		/* outermost frame for backtraces */
	movl	(%esp), %esi		/* argc */
	leal	4(%esp), %edi		/* argv */
	leal	8(%esp,%esi,4), %ebx	/* envp = argv + argc + 1 */
	movl	%ebx, environ
	movl	%edi, glue_argv		/* for err(3) and getprogname */
	andl	$-16, %esp		/* the SysV ABI's 16-byte call alignment */
	call	__aiok_tls_init		/* thread 0's control block and %gs, before newlib runs */
	call	__libc_init_array
	subl	$12, %esp
	pushl	$__libc_fini_array
	call	atexit
	addl	$16, %esp
	subl	$4, %esp
	pushl	%ebx
	pushl	%edi
	pushl	%esi
	call	main
	movl	%eax, (%esp)
	call	exit
	hlt				/* not reached: exit does not return */
	.size	_start, . - _start

/*
 * Our signal glue (user/lib/signal.c) and locks (user/lib/pthread/lock.c)
 * replace members of newlib's libc.a (its emulated signal() and raise(), its
 * dummy locks).  Naming a symbol of each here links ours before libc.a is
 * searched, so libc.a's are never pulled in beside them.
 */
	.globl	raise
	.globl	__retarget_lock_acquire_recursive

/* newlib's __libc_init_array / __libc_fini_array call these; we use only the arrays. */
	.globl	_init
	.type	_init, @function
_init:
	ret
	.size	_init, . - _init

	.globl	_fini
	.type	_fini, @function
_fini:
	ret
	.size	_fini, . - _fini

	.section .note.GNU-stack,"",@progbits
