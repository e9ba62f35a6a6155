; trap_entry.asm: IDT entry stubs; build a struct trap_frame and call trap_dispatch.

%include "trap_seg.inc"

extern trap_dispatch

%macro TRAP_NOERR 1
global trap_stub_%1
trap_stub_%1:
        push 0                          ; no error code: keep the frame uniform
        push %1
        jmp trap_common
%endmacro

%macro TRAP_ERR 1
global trap_stub_%1
trap_stub_%1:
        push %1                         ; the CPU pushed an error code
        jmp trap_common
%endmacro

NR_STUBS equ 112                        ; exceptions and IRQ vectors: T_IRQ_BASE + NR_IRQS (irq.h)

section .text
trap_common:
        pusha
        push ds
        push es
        push fs
        push gs
        SEG_ENTRY ds                    ; the kernel uses only ds and es
        SEG_ENTRY es
        cld
        push esp                        ; struct trap_frame *
        call trap_dispatch
        add esp, 4
global trap_return
trap_return:
        SEG_EXIT_ALL 0
        add esp, 16                     ; gs, fs, es, ds: restored above
        popa
        add esp, 8                      ; vector and error code
        iret

; Exceptions 8, 10-14, 17, 21, 29, 30 push an error code.
%assign v 0
%rep NR_STUBS
%if v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30
        TRAP_ERR v
%else
        TRAP_NOERR v
%endif
%assign v v+1
%endrep
        TRAP_NOERR 128
        TRAP_NOERR 240                  ; T_IPI_CALL (0xF0)
        TRAP_NOERR 241                  ; T_IPI_STOP (0xF1)
        TRAP_NOERR 255                  ; T_APIC_SPURIOUS (0xFF)

section .rodata
global trap_stubs
trap_stubs:                             ; vectors 0..NR_STUBS-1
%assign v 0
%rep NR_STUBS
        dd trap_stub_ %+ v
%assign v v+1
%endrep
global trap_stub_syscall
trap_stub_syscall:
        dd trap_stub_128
global trap_stubs_apic
trap_stubs_apic:                        ; T_IPI_CALL, T_IPI_STOP, T_APIC_SPURIOUS
        dd trap_stub_240, trap_stub_241, trap_stub_255

section .note.GNU-stack noalloc noexec nowrite progbits
