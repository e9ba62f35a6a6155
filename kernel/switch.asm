; switch.asm: the context switch and the first instructions of a new kernel thread.

section .text
extern sched_tail
extern task_exit

; void switch_context(u32 *prev_esp, u32 next_esp)
; Save the callee-saved registers on prev's stack, store its esp, load next's
; esp and pop next's registers. The return lands wherever next called this
; from (or in kthread_entry for a task that never ran).
global switch_context
switch_context:
        mov eax, [esp + 4]              ; &prev->esp
        mov edx, [esp + 8]              ; next->esp
        push ebp
        push ebx
        push esi
        push edi
        mov [eax], esp
        mov esp, edx
        pop edi
        pop esi
        pop ebx
        pop ebp
        ret

; A new kernel thread starts here with ebx = fn, esi = arg, ebp = 0 (the end of
; the backtrace chain): finish the switch, run fn(arg), exit with its result.
global kthread_entry
kthread_entry:
        call sched_tail
        push esi
        call ebx
        mov [esp], eax
        call task_exit                  ; does not return

; A forked process's first switch-in lands here (proc.c builds the stack):
; finish the switch, then return to user mode through the copied trap frame.
extern trap_return
extern user_return
global ret_from_fork
ret_from_fork:
        call sched_tail
        push esp                        ; the child's trap frame: signals first
        call user_return                ; (CLONE_CHILD_SETTID, a signal sent meanwhile)
        add esp, 4
        jmp trap_return

; void enter_user(struct trap_frame *tf): leave for user mode through tf.
global enter_user
enter_user:
        mov esp, [esp + 4]
        jmp trap_return

section .note.GNU-stack noalloc noexec nowrite progbits
