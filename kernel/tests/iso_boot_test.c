/* iso_boot_test.c: the "iso_boot" suite: what GRUB handed us when booted from the ISO.
 * Run only when named (ktest=iso_boot): under qemu -kernel the loader differs. */
#include "cmdline.h"
#include "ksyms.h"
#include "ktest.h"
#include "multiboot.h"
#include "string.h"

static void loader_is_grub(struct ktest *t)
{
	EXPECT_EQ(t, strncmp(boot_info.loader, "GRUB", 4), 0);
}

static void memory_map_has_ram(struct ktest *t)
{
	bool low = false, high = false;

	for (u32 i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *r = &boot_info.region[i];
		if (r->type != MMAP_AVAILABLE)
			continue;
		low |= r->addr == 0;
		high |= r->addr <= 0x100000 && r->addr + r->len > 0x200000;
	}
	EXPECT_TRUE(t, low);
	EXPECT_TRUE(t, high);
	EXPECT_GE(t, boot_info.mem_total, 32u << 20);
}

static void command_line_from_grub_cfg(struct ktest *t)
{
	EXPECT_STREQ(t, cmdline_get(&boot_cmdline, "ktest"), "iso_boot");
}

static void initramfs_module_loaded(struct ktest *t)
{
	ASSERT_EQ(t, boot_info.nr_modules, 1);
	EXPECT_STREQ(t, boot_info.module[0].name, "initramfs");
	EXPECT_GE(t, boot_info.module[0].end - boot_info.module[0].start, 4096);
	EXPECT_EQ(t, boot_info.module[0].start & 4095, 0);	/* page aligned (MB_FLAGS bit 0) */
}

static void kernel_runs_high(struct ktest *t)
{
	EXPECT_GE(t, ksym_address("kmain"), 0xC0100000u);
	EXPECT_GE(t, (u32)&boot_info, 0xC0100000u);
}

static const struct ktest_case iso_boot_cases[] = {
	KTEST_CASE(loader_is_grub),
	KTEST_CASE(memory_map_has_ram),
	KTEST_CASE(command_line_from_grub_cfg),
	KTEST_CASE(initramfs_module_loaded),
	KTEST_CASE(kernel_runs_high),
};
KTEST_SUITE(iso_boot_suite, "iso_boot", iso_boot_cases, .explicit_only = true);
