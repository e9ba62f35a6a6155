/* multiboot.c: copy the boot loader's memory map, modules and command line. */
#include "multiboot.h"
#include "cmdline.h"
#include "errno.h"
#include "printk.h"
#include "string.h"

#define PHYS_TO_VIRT(p)	((void *)((u32)(p) + 0xC0000000u))

struct boot_info boot_info;

const char *mmap_type_name(u32 type)
{
	static const char *const names[] = {
		"?", "available", "reserved", "ACPI reclaimable", "ACPI NVS", "bad"
	};
	return type < ARRAY_SIZE(names) ? names[type] : "reserved";
}

static void add_region(u64 addr, u64 len, u32 type)
{
	struct boot_region *r;

	if (boot_info.nr_regions == BOOT_MAX_REGIONS)
		return;
	r = &boot_info.region[boot_info.nr_regions++];
	r->addr = addr;
	r->len = len;
	r->type = type;
	if (type == MMAP_AVAILABLE)
		boot_info.mem_total += len;
}

static void parse_mmap(const struct multiboot_info *mi)
{
	u32 p = mi->mmap_addr, end = mi->mmap_addr + mi->mmap_length;

	while (p < end) {
		const struct multiboot_mmap_entry *e = PHYS_TO_VIRT(p);
		add_region(e->addr, e->len, e->type);
		p += e->size + sizeof(e->size);
	}
}

static void parse_modules(const struct multiboot_info *mi)
{
	const struct multiboot_module *m = PHYS_TO_VIRT(mi->mods_addr);

	for (u32 i = 0; i < mi->mods_count && i < BOOT_MAX_MODULES; i++) {
		struct boot_module *bm = &boot_info.module[boot_info.nr_modules++];
		bm->start = m[i].start;
		bm->end = m[i].end;
		strlcpy(bm->name, m[i].string ? PHYS_TO_VIRT(m[i].string) : "",
			sizeof(bm->name));
	}
}

int multiboot_parse(u32 magic, u32 mbi)
{
	const struct multiboot_info *mi = PHYS_TO_VIRT(mbi);

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		return -EINVAL;
	if (mi->flags & MBI_CMDLINE)
		strlcpy(boot_cmdline_raw, PHYS_TO_VIRT(mi->cmdline), CMDLINE_MAX);
	if (mi->flags & MBI_LOADER_NAME)
		strlcpy(boot_info.loader, PHYS_TO_VIRT(mi->boot_loader_name),
			sizeof(boot_info.loader));
	if (mi->flags & MBI_MMAP)
		parse_mmap(mi);
	else if (mi->flags & MBI_MEMORY) {
		add_region(0, (u64)mi->mem_lower << 10, MMAP_AVAILABLE);
		add_region(1 << 20, (u64)mi->mem_upper << 10, MMAP_AVAILABLE);
	}
	if (mi->flags & MBI_MODS)
		parse_modules(mi);
	return 0;
}

void multiboot_show(void)
{
	printk("boot loader: %s\n", boot_info.loader[0] ? boot_info.loader : "unknown");
	printk("command line: %s\n", boot_cmdline_raw);
	printk("memory map:\n");
	for (u32 i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *r = &boot_info.region[i];
		printk("  [mem 0x%09llx-0x%09llx] %s\n", r->addr, r->addr + r->len - 1,
		       mmap_type_name(r->type));
	}
	printk("memory: %llu MiB available\n", boot_info.mem_total >> 20);
	for (u32 i = 0; i < boot_info.nr_modules; i++)
		printk("module %u: %08x-%08x %s\n", i, boot_info.module[i].start,
		       boot_info.module[i].end, boot_info.module[i].name);
}
