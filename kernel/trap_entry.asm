; trap_entry.asm: IDT entry stubs; build a struct trap_frame and call trap_dispatch.

KERNEL_DS equ 0x10
USER_DS   equ 0x23                      ; flat too: the kernel may run with it loaded

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

section .text
; Segment loads are slow (emulated ones more so): a data segment register is
; reloaded on entry only when it holds neither of our two flat data segments,
; and restored on exit only when the saved value differs from the loaded one.

; Trap entry: make ds and es usable by the kernel (which uses no other). Clobbers eax.
trap_seg_entry:
        mov ax, ds
        cmp ax, USER_DS
        je .ds_ok
        cmp ax, KERNEL_DS
        je .ds_ok
        mov ax, KERNEL_DS
        mov ds, ax
.ds_ok:
        mov ax, es
        cmp ax, USER_DS
        je .es_ok
        cmp ax, KERNEL_DS
        je .es_ok
        mov ax, KERNEL_DS
        mov es, ax
.es_ok:
        ret

; Trap exit: the frame's gs, fs, es, ds are at esp+4.. (above our return
; address); load each one that differs. Clobbers eax and edx (popa restores them).
trap_seg_exit:
        mov eax, [esp + 4]
        mov dx, gs
        cmp ax, dx
        je .gs_same
        mov gs, ax
.gs_same:
        mov eax, [esp + 8]
        mov dx, fs
        cmp ax, dx
        je .fs_same
        mov fs, ax
.fs_same:
        mov eax, [esp + 12]
        mov dx, es
        cmp ax, dx
        je .es_same
        mov es, ax
.es_same:
        mov eax, [esp + 16]
        mov dx, ds
        cmp ax, dx
        je .ds_same
        mov ds, ax
.ds_same:
        ret

trap_common:
        pusha
        push ds
        push es
        push fs
        push gs
        call trap_seg_entry
        cld
        push esp                        ; struct trap_frame *
        call trap_dispatch
        add esp, 4
global trap_return
trap_return:
        call trap_seg_exit
        add esp, 16                     ; gs, fs, es, ds: restored above
        popa
        add esp, 8                      ; vector and error code
        iret

; Exceptions 8, 10-14, 17, 21, 29, 30 push an error code.
%assign v 0
%rep 48
%if v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30
        TRAP_ERR v
%else
        TRAP_NOERR v
%endif
%assign v v+1
%endrep
        TRAP_NOERR 128

section .rodata
global trap_stubs
trap_stubs:                             ; vectors 0..47
%assign v 0
%rep 48
        dd trap_stub_ %+ v
%assign v v+1
%endrep
global trap_stub_syscall
trap_stub_syscall:
        dd trap_stub_128

section .note.GNU-stack noalloc noexec nowrite progbits
