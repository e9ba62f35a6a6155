; trampoline.asm: an application processor's first instructions. kernel/smp.c
; copies this block to SMP_TRAMPOLINE (below 1 MiB) and fills its arguments;
; the start-up IPI enters it in real mode at SMP_TRAMPOLINE:0. It goes to
; protected mode on its own flat GDT, loads the boot CPU's CR4, a directory that
; maps the first 4 MiB both identity and high (arg_cr3) and CR0 (paging on),
; then calls smp_ap_entry on the stack in arg_stack. Position: absolute, so
; every address below is SMP_TRAMPOLINE + (label - smp_trampoline_start).

SMP_TRAMPOLINE equ 0x8000               ; include/smp.h SMP_TRAMPOLINE_PHYS
%define T(x) (SMP_TRAMPOLINE + (x) - smp_trampoline_start)

section .rodata
global smp_trampoline_start, smp_trampoline_end, smp_trampoline_args
bits 16
smp_trampoline_start:
        cli
        cld
        xor ax, ax
        mov ds, ax
        lgdt [T(tramp_gdtr)]
        mov eax, cr0
        or eax, 1                       ; PE
        mov cr0, eax
        jmp dword 0x08:T(tramp_protected)

bits 32
tramp_protected:
        mov ax, 0x10
        mov ds, ax
        mov es, ax
        mov ss, ax
        mov eax, [T(arg_cr4)]
        mov cr4, eax
        mov eax, [T(arg_cr3)]
        mov cr3, eax
        mov eax, [T(arg_cr0)]           ; the boot CPU's: PE, PG, WP, caches on
        mov cr0, eax
        mov esp, [T(arg_stack)]
        xor ebp, ebp                    ; ends the backtrace chain
        mov eax, [T(arg_entry)]
        call eax                        ; smp_ap_entry: does not return
.halt:
        cli
        hlt
        jmp .halt

align 8
tramp_gdt:
        dq 0
        dq 0x00CF9A000000FFFF           ; 0x08: flat 32-bit code
        dq 0x00CF92000000FFFF           ; 0x10: flat 32-bit data
tramp_gdtr:
        dw 3 * 8 - 1
        dd T(tramp_gdt)

align 4
smp_trampoline_args:                    ; struct smp_trampoline_args (kernel/smp.c)
arg_cr0:   dd 0
arg_cr3:   dd 0
arg_cr4:   dd 0
arg_stack: dd 0
arg_entry: dd 0
smp_trampoline_end:

section .note.GNU-stack noalloc noexec nowrite progbits
