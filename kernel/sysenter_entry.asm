; sysenter_entry.asm: the SYSENTER system-call entry and exit, and the vsyscall page's two trampolines.

%include "trap_seg.inc"

USER_CS    equ 0x1B
VSYSCALL   equ 0xFFFFE000                ; uapi/vsyscall.h: where the trampoline runs
EFLAGS_FIXED equ 0x2                    ; bit 1 always reads as 1
EFLAGS_ARITH equ 0x8D5                  ; CF PF AF ZF SF OF
EFLAGS_IF  equ 0x200
EFLAGS_NT  equ 0x4000

; struct trap_frame offsets (include/trap.h)
TF_EIP     equ 56
TF_CS      equ 60
TF_EFLAGS  equ 64

extern sysenter_dispatch
extern trap_return

; ---------------------------------------------------------------- trampolines
; Copied into the vsyscall page (kernel/sysenter.c); position independent.
section .rodata
global vsys_sysenter_start, vsys_sysenter_end, vsys_int80_start, vsys_int80_end
vsys_sysenter_start:
        push ebp                        ; the sixth argument, and the caller's ebp
.enter:
        mov ebp, esp                    ; SYSENTER keeps no user esp: the kernel finds it here
        sysenter
        jmp short .enter                ; a restarted call (signal(7)) comes back here:
                                        ; SYSENTER_RETURN - 2, as int $0x80's restart
                                        ; rewinds eip by the 2 bytes of the int
vsys_sysenter_return:                   ; SYSEXIT (or iret) comes back here
        pop ebp
        ret
vsys_sysenter_end:

vsys_int80_start:                       ; for a CPU without SYSENTER
        int 0x80
        ret
vsys_int80_end:

SYSENTER_RETURN equ VSYSCALL + (vsys_sysenter_return - vsys_sysenter_start)

; ---------------------------------------------------------------- the entry
; SYSENTER arrives with cs = KERNEL_CS, ss = KERNEL_DS, IF clear, esp =
; &sysenter_stack.esp0 and eip here; ebp = the user esp after the trampoline's
; push. Build the same struct trap_frame an int $0x80 from ring 3 would have,
; returning to the trampoline, so fork, exec and signals see nothing new.
; Under emulation every popfd, sti and privilege change ends a translated
; block; the common path has four (SYSENTER, the sti in C, the sti and SYSEXIT).
section .text
global sysenter_entry
sysenter_entry:
        mov esp, [esp]                  ; the task's kernel stack top
        push USER_DS                    ; user_ss
        push ebp                        ; user_esp
        pushfd                          ; the user's flags (IF is clear: see below)
        or dword [esp], EFLAGS_IF       ; ring 3 always runs with interrupts on
        cld
        push USER_CS
        push SYSENTER_RETURN            ; eip
        push 0                          ; error code
        push 0x80                       ; vector: the same as int $0x80
        pusha
        push ds
        push es
        push fs
        push gs
; Each conditional branch ends a translated block too: the common case (NT
; clear, ds = es = USER_DS) is told by one test; the rest is out of line.
        mov eax, [esp + TF_EFLAGS]
        and eax, EFLAGS_NT
        mov dx, ds
        xor dx, USER_DS
        or ax, dx
        mov dx, es
        xor dx, USER_DS
        or ax, dx
        jnz .unusual_entry
.entry_ok:
        push esp                        ; struct trap_frame *
        call sysenter_dispatch          ; sti, the sixth argument, the call
        add esp, 4

; SYSEXIT returns to the trampoline with eip = edx, esp = ecx and the flags
; as they are; sysenter_dispatch returns with interrupts off and the sti just
; before SYSEXIT turns them on in its shadow (no interrupt between). Anything else
; (exec's fresh frame, user flags beyond the arithmetic ones, which the C
; convention does not keep across the call anyway, a data segment register
; that differs from the frame's) leaves through iret. One test for all of it:
; eax collects eip, cs and flags differences, cx the segments' (16 bits each).
        mov eax, [esp + TF_EIP]
        xor eax, SYSENTER_RETURN
        mov edx, [esp + TF_CS]
        xor edx, USER_CS
        or eax, edx
        mov edx, [esp + TF_EFLAGS]
        and edx, ~EFLAGS_ARITH
        xor edx, EFLAGS_IF | EFLAGS_FIXED
        or eax, edx
        mov cx, gs
        xor cx, [esp]
        mov dx, fs
        xor dx, [esp + 4]
        or cx, dx
        mov dx, es
        xor dx, [esp + 8]
        or cx, dx
        mov dx, ds
        xor dx, [esp + 12]
        or cx, dx
        movzx ecx, cx
        or eax, ecx
        jnz trap_return
        add esp, 16                     ; gs, fs, es, ds: all as loaded
        popa
        mov edx, [esp + 8]              ; eip (after vector and error code)
        mov ecx, [esp + 20]             ; user esp
        sti                             ; takes effect after SYSEXIT
        sysexit

; Ring 3 set NT before SYSENTER (an iret in the kernel would switch tasks), or
; left ds/es holding something other than USER_DS.
.unusual_entry:
        test dword [esp + TF_EFLAGS], EFLAGS_NT
        jz .nt_clear
        push EFLAGS_FIXED
        popfd                           ; NT, and with it TF, AC, DF, cleared
.nt_clear:
        SEG_ENTRY ds
        SEG_ENTRY es
        jmp .entry_ok
global sysenter_entry_end
sysenter_entry_end:                     ; for the gdb helpers' frame unwinder

section .note.GNU-stack noalloc noexec nowrite progbits
