; boot.asm: multiboot v1 header, early page tables, jump to the higher-half kernel.
;
; GRUB (or qemu -kernel) enters _start in 32-bit protected mode with paging off,
; eax = 0x2BADB002 and ebx = physical address of the multiboot information.
; We map the first 16 MiB twice (identity and at 0xC0000000) with 4 MiB pages,
; turn paging on, jump high, drop the identity map and call kmain(magic, mbi).
; This directory only lasts until paging_init (kernel/mm/paging.c) switches to
; the real one built in C.

MB_MAGIC        equ 0x1BADB002
MB_FLAGS        equ 0x00000003          ; bit0: page-align modules, bit1: memory info
KERNEL_VMA      equ 0xC0000000
EARLY_MAP_MB    equ 16                  ; how much the early directory maps
PDE_4M          equ 0x83                ; present | writable | 4 MiB page
CR0_PG          equ 0x80000000
CR0_WP          equ 0x00010000          ; kernel honours read-only pages
CR4_PSE         equ 0x00000010
KSTACK_SIZE     equ 8192                ; include/thread_info.h: every kernel stack

section .multiboot
align 4
        dd MB_MAGIC
        dd MB_FLAGS
        dd -(MB_MAGIC + MB_FLAGS)

section .boot.bss nobits
align 4096
global early_pgdir
early_pgdir:
        resb 4096

section .boot.text
global _start
_start:
        cli
        mov esi, eax                    ; keep magic and mbi across the setup
        mov edi, ebx
        mov ecx, 0                      ; ecx = 4 MiB frame index
.map:
        mov eax, ecx
        shl eax, 22
        or eax, PDE_4M
        mov [early_pgdir + ecx*4], eax                          ; identity
        mov [early_pgdir + ecx*4 + (KERNEL_VMA >> 22)*4], eax   ; higher half
        inc ecx
        cmp ecx, EARLY_MAP_MB / 4
        jb .map
        mov eax, cr4
        or eax, CR4_PSE
        mov cr4, eax
        mov eax, early_pgdir
        mov cr3, eax
        mov eax, cr0
        or eax, CR0_PG | CR0_WP
        mov cr0, eax
        lea eax, [higher_half]
        jmp eax

section .text
extern kmain
global higher_half                      ; a function name for backtraces (not _text)
higher_half:
        mov esp, boot_stack + KSTACK_SIZE  ; kernel/sched.c: aligned, its thread_info filled
        xor ebp, ebp                    ; ends the backtrace chain
        mov ecx, 0                      ; drop the identity map
.unmap:
        mov dword [early_pgdir + KERNEL_VMA + ecx*4], 0
        inc ecx
        cmp ecx, EARLY_MAP_MB / 4
        jb .unmap
        mov eax, cr3
        mov cr3, eax
        push edi                        ; multiboot info (physical)
        push esi                        ; magic
        call kmain
.halt:
        cli
        hlt
        jmp .halt

extern boot_stack

section .note.GNU-stack noalloc noexec nowrite progbits
