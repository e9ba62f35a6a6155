/* multiboot.h: the multiboot v1 information structure and what we keep of it. */
#ifndef MULTIBOOT_H
#define MULTIBOOT_H

#include "types.h"

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002

#define MBI_MEMORY	(1 << 0)	/* mem_lower / mem_upper valid */
#define MBI_CMDLINE	(1 << 2)	/* cmdline valid */
#define MBI_MODS	(1 << 3)	/* mods_count / mods_addr valid */
#define MBI_MMAP	(1 << 6)	/* mmap_length / mmap_addr valid */
#define MBI_LOADER_NAME	(1 << 9)	/* boot_loader_name valid */

struct multiboot_info {
	u32 flags;
	u32 mem_lower, mem_upper;	/* KiB below 1 MiB / above 1 MiB */
	u32 boot_device;
	u32 cmdline;
	u32 mods_count, mods_addr;
	u32 syms[4];
	u32 mmap_length, mmap_addr;
	u32 drives_length, drives_addr;
	u32 config_table;
	u32 boot_loader_name;
} __packed;

struct multiboot_mmap_entry {
	u32 size;			/* of the rest of the entry */
	u64 addr;
	u64 len;
	u32 type;
} __packed;

struct multiboot_module {
	u32 start, end;
	u32 string;
	u32 reserved;
} __packed;

#define MMAP_AVAILABLE	1

#define BOOT_MAX_REGIONS 32
#define BOOT_MAX_MODULES 8

struct boot_region {
	u64 addr, len;
	u32 type;
};

struct boot_module {
	u32 start, end;			/* physical */
	char name[64];
};

/* What the kernel keeps from the boot loader (copied out of low memory). */
struct boot_info {
	u32 nr_regions;
	struct boot_region region[BOOT_MAX_REGIONS];
	u32 nr_modules;
	struct boot_module module[BOOT_MAX_MODULES];
	u64 mem_total;			/* bytes of available RAM */
	char loader[48];
};

extern struct boot_info boot_info;

/* Copy the multiboot information (at physical address mbi); returns 0 or -EINVAL. */
int multiboot_parse(u32 magic, u32 mbi);
void multiboot_show(void);
const char *mmap_type_name(u32 type);

#endif
