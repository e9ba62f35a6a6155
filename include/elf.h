/* elf.h: the parts of the ELF32 format the program loader reads. */
#ifndef ELF_H
#define ELF_H

#include "types.h"

#define EI_NIDENT	16
#define ELFMAG		"\177ELF"
#define ELFCLASS32	1	/* e_ident[4] */
#define ELFDATA2LSB	1	/* e_ident[5]: little endian */
#define ET_EXEC		2	/* executable file */
#define EM_386		3	/* Intel 80386 */
#define PT_LOAD		1	/* loadable segment */
#define PF_X		0x1	/* segment is executable */
#define PF_W		0x2	/* segment is writable */
#define PF_R		0x4	/* segment is readable */

/* Auxiliary vector types (on the initial stack after envp) */
#define AT_NULL		0
#define AT_PHDR		3
#define AT_PHENT	4
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_ENTRY	9

struct elf32_ehdr {
	u8 e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version, e_entry, e_phoff, e_shoff, e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf32_phdr {
	u32 p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align;
};

BUILD_BUG_ON(sizeof(struct elf32_ehdr) != 52);
BUILD_BUG_ON(sizeof(struct elf32_phdr) != 32);

#endif
