/* ide.c: ATA disks on the PIIX3 IDE controller: IDENTIFY, LBA28/48, bus-master
 * DMA with PRD tables built from the request's segments, PIO as a fallback.
 *
 * One command at a time per channel (both drives of a channel share its task
 * file): a channel keeps a FIFO of QUEUED requests and one ACTIVE request;
 * the interrupt handler (IRQ 14/15) finishes the active one and starts the
 * next. Lock: ch->lock (irq-safe) guards the queue, the active request, the
 * PIO cursor and the PRD table; blkdev_complete() runs after it is dropped.
 * ATAPI devices (the CD of -cdrom) answer IDENTIFY with an abort and the
 * packet signature, and are skipped.
 */
#include "ide.h"
#include "blkdev.h"
#include "clock.h"
#include "cmdline.h"
#include "errno.h"
#include "highmem.h"
#include "irq.h"
#include "mm.h"
#include "paging.h"
#include "pci.h"
#include "printk.h"
#include "spinlock.h"
#include "string.h"
#include "x86.h"

#define PIIX_VENDOR		0x8086	/* Intel */
#define PIIX3_IDE		0x7010	/* PIIX3 IDE function */

/* Command block registers (offsets from the channel's command base). */
#define ATA_DATA		0	/* 16-bit PIO data */
#define ATA_ERROR		1	/* read: error register */
#define ATA_SECCOUNT		2	/* sector count */
#define ATA_LBA_LO		3	/* LBA bits 0-7 (24-31 when HOB) */
#define ATA_LBA_MID		4	/* LBA bits 8-15; ATAPI signature 0x14 */
#define ATA_LBA_HI		5	/* LBA bits 16-23; ATAPI signature 0xEB */
#define ATA_DRIVE		6	/* drive/head select */
#define ATA_STATUS		7	/* read: status (acks the interrupt) */
#define ATA_COMMAND		7	/* write: command */
/* Control block register (the channel's control base). */
#define ATA_ALTSTATUS		0	/* read: status without ack */
#define ATA_DEVCTRL		0	/* write: device control */
#define ATA_DEVCTRL_NIEN	0x02	/* interrupts off */

#define ATA_DRIVE_LBA		0xE0	/* obsolete bits 7,5 set + LBA mode (bit 6) */
#define ATA_DRIVE_SLAVE		0x10	/* drive 1 */
#define ATA_SR_ERR		0x01	/* error */
#define ATA_SR_DRQ		0x08	/* data request */
#define ATA_SR_DF		0x20	/* device fault */
#define ATA_SR_DRDY		0x40	/* device ready */
#define ATA_SR_BSY		0x80	/* busy */
#define ATA_FLOATING		0xFF	/* status of a bus with nothing attached */

#define ATA_CMD_READ_PIO	0x20	/* READ SECTORS */
#define ATA_CMD_READ_PIO_EXT	0x24	/* READ SECTORS EXT */
#define ATA_CMD_READ_DMA_EXT	0x25	/* READ DMA EXT */
#define ATA_CMD_WRITE_PIO	0x30	/* WRITE SECTORS */
#define ATA_CMD_WRITE_PIO_EXT	0x34	/* WRITE SECTORS EXT */
#define ATA_CMD_WRITE_DMA_EXT	0x35	/* WRITE DMA EXT */
#define ATA_CMD_READ_DMA	0xC8	/* READ DMA */
#define ATA_CMD_WRITE_DMA	0xCA	/* WRITE DMA */
#define ATA_CMD_FLUSH		0xE7	/* FLUSH CACHE */
#define ATA_CMD_FLUSH_EXT	0xEA	/* FLUSH CACHE EXT */
#define ATA_CMD_IDENTIFY	0xEC	/* IDENTIFY DEVICE */

/* IDENTIFY DEVICE words. */
#define ID_CONFIG		0	/* bit 15: not ATA (packet device) */
#define ID_CONFIG_ATAPI		0x8000	/* packet device */
#define ID_CAPS			49	/* bit 9: LBA, bit 8: DMA */
#define ID_LBA28		60	/* 2 words: user-addressable sectors */
#define ID_CMDSET2		83	/* bit 10: LBA48, bit 12: FLUSH CACHE, bit 13: FLUSH EXT */
#define ID_LBA48		100	/* 4 words: LBA48 sectors */
#define ID_CAPS_LBA		(1u << 9)
#define ID_CMDSET2_LBA48	(1u << 10)
#define ID_CMDSET2_FLUSH	(1u << 12)

/* PIIX bus-master IDE registers (BAR4; +8 for the secondary channel). */
#define BMICOM			0	/* command */
#define BMISTA			2	/* status */
#define BMIDTP			4	/* PRD table physical address (dword aligned) */
#define BMICOM_START		0x01	/* start/stop bus master */
#define BMICOM_READ		0x08	/* bus master writes memory (device read) */
#define BMISTA_ACTIVE		0x01	/* bus master active */
#define BMISTA_ERR		0x02	/* DMA error (write 1 to clear) */
#define BMISTA_INTR		0x04	/* the drive raised its interrupt (write 1 to clear) */
#define BMISTA_DRV0_DMA		0x20	/* drive 0 DMA capable (software bit) */
#define BMISTA_DRV1_DMA		0x40	/* drive 1 DMA capable (software bit) */
#define BMISTA_DRV_DMA		(BMISTA_DRV0_DMA | BMISTA_DRV1_DMA)
#define PRD_EOT			0x8000	/* last entry of the table */
#define PRD_BOUNDARY		0x10000	/* an entry may not cross 64 KiB */

#define IDE_PRD_MAX		64	/* entries one request may need */
#define IDE_PRD_TABLE		256	/* entries per table: a merged command (2 KiB) */
#define IDE_MERGE_LBA28		256	/* sectors per command with 28-bit addressing */
#define IDE_MERGE_LBA48		2048	/* sectors per merged command with LBA48 (1 MiB) */
#define IDE_MAX_SEGS		32	/* per request: fits IDE_PRD_MAX after splits */
#define IDE_MAX_SECTORS		256	/* per command (LBA28 count 0 = 256) */
#define IDE_LBA28_LIMIT		(1u << 28)
#define IDE_TIMEOUT_MS		1000	/* polled waits (probe, PIO write start) */

#define IDE_LEGACY_CMD0		0x1F0	/* primary command block */
#define IDE_LEGACY_CTRL0	0x3F6	/* primary control block */
#define IDE_LEGACY_IRQ0		14
#define IDE_LEGACY_CMD1		0x170	/* secondary command block */
#define IDE_LEGACY_CTRL1	0x376	/* secondary control block */
#define IDE_LEGACY_IRQ1		15
#define PCI_IDE_NATIVE(ch)	(1u << (2 * (ch)))	/* prog-if: channel in native mode */

struct ide_prd {
	u32 addr;
	u16 count;		/* bytes, 0 = 64 KiB */
	u16 flags;		/* PRD_EOT on the last */
} __packed;

enum ide_mode { IDE_NODATA, IDE_DMA, IDE_PIO };

struct ide_channel;

struct ide_drive {
	struct blkdev blk;
	struct ide_channel *ch;
	u8 slave;
	bool lba48;
	bool present;
};

struct ide_channel {
	u16 cmd, ctrl;		/* task file and control ports */
	u16 bm;			/* bus-master registers, 0 if none */
	u8 irq;
	bool dma;		/* transfers by DMA (bm present, not ide=pio) */
	spinlock_t lock;
	/* guarded by lock: */
	struct blk_queue queue;	/* QUEUED requests, FIFO over both drives */
	struct blk_request *active;
	struct blk_request *merged;	/* DMA requests riding on active's command (->next) */
	u64 cmd_sector;		/* the command on the wire: first sector, */
	u32 cmd_count;		/* and sectors (active plus merged) */
	enum ide_mode mode;	/* of the active command */
	u32 pio_seg, pio_off, pio_left;	/* PIO cursor: segment, offset, sectors left */
	struct ide_prd *prd;
	u32 prd_phys;
	u32 nr_intr, nr_spurious;
	struct ide_drive drive[2];
};

static struct ide_channel ide_channels[2];
static const struct blk_ops ide_ops;

static void ide_insw(u16 port, void *buf, u32 words)
{
	asm volatile("rep insw" : "+D"(buf), "+c"(words) : "d"(port) : "memory");
}

static void ide_outsw(u16 port, const void *buf, u32 words)
{
	asm volatile("rep outsw" : "+S"(buf), "+c"(words) : "d"(port) : "memory");
}

static u8 ide_altstatus(struct ide_channel *ch)
{
	return inb(ch->ctrl + ATA_ALTSTATUS);
}

/* The 400 ns a drive needs after a select or command before status is valid. */
static void ide_delay400(struct ide_channel *ch)
{
	for (int i = 0; i < 4; i++)
		ide_altstatus(ch);
}

/* Poll until (status & mask) == want; returns the status or -ETIMEDOUT. A
 * busy-wait on the drive's registers: probe (interrupts off at the drive) and
 * command issue (channel lock held) cannot sleep. */
static int ide_wait(struct ide_channel *ch, u8 mask, u8 want, u32 ms)
{
	u64 deadline = ktime_get_ns() + ms * NSEC_PER_MSEC;
	u8 st;

	while (((st = ide_altstatus(ch)) & mask) != want) {
		if (ktime_get_ns() >= deadline)
			return -ETIMEDOUT;
		cpu_relax();
	}
	return st;
}

static const char *ide_op_name(const struct blk_request *r)
{
	return r->op == BLK_READ ? "read" : r->op == BLK_WRITE ? "write" : "flush";
}

/* ---- request set-up ---- */

/* Fill the PRD table from the segments: entries <= 64 KiB that never cross
 * a 64 KiB boundary, EOT on the last. Returns the entry count or -EINVAL. */
/* Append r's segments to prd[n..max) (prd NULL: just count); the new count,
 * or -EINVAL when they do not fit. The caller marks the last entry EOT. */
static int ide_prd_add(struct ide_prd *prd, int n, int max, const struct blk_request *r)
{
	for (u32 i = 0; i < r->nr_seg; i++) {
		u32 addr = r->seg[i].phys, left = r->seg[i].len;
		while (left) {
			u32 chunk = MIN(left, PRD_BOUNDARY - (addr & (PRD_BOUNDARY - 1)));
			if (n == max)
				return -EINVAL;
			if (prd) {
				prd[n].addr = addr;
				prd[n].count = chunk & 0xFFFF;
				prd[n].flags = 0;
			}
			n++;
			addr += chunk;
			left -= chunk;
		}
	}
	return n;
}

/* PRD entries request r needs on its own; -EINVAL beyond IDE_PRD_MAX. */
static int ide_build_prd(struct ide_prd *prd, const struct blk_request *r)
{
	return ide_prd_add(prd, 0, IDE_PRD_MAX, r);
}

/* Does the command on the wire need 48-bit addressing? */
static bool ide_cmd_lba48(const struct ide_channel *ch)
{
	return ch->cmd_sector + ch->cmd_count > IDE_LBA28_LIMIT || ch->cmd_count > IDE_MERGE_LBA28;
}

static void ide_taskfile(struct ide_channel *ch, bool lba48)
{
	u64 lba = ch->cmd_sector;
	u16 count = ch->cmd_count;	/* 256 (LBA28) and 65536 (LBA48) encode as 0 */

	if (lba48) {
		outb(ch->cmd + ATA_SECCOUNT, count >> 8);
		outb(ch->cmd + ATA_LBA_LO, lba >> 24);
		outb(ch->cmd + ATA_LBA_MID, lba >> 32);
		outb(ch->cmd + ATA_LBA_HI, lba >> 40);
	}
	outb(ch->cmd + ATA_SECCOUNT, count & 0xFF);
	outb(ch->cmd + ATA_LBA_LO, lba);
	outb(ch->cmd + ATA_LBA_MID, lba >> 8);
	outb(ch->cmd + ATA_LBA_HI, lba >> 16);
}

static u8 ide_command(const struct ide_channel *ch, const struct ide_drive *d,
		      const struct blk_request *r, bool lba48)
{
	bool rd = r->op == BLK_READ;

	if (r->op == BLK_FLUSH)
		return d->lba48 ? ATA_CMD_FLUSH_EXT : ATA_CMD_FLUSH;
	if (ch->dma)
		return lba48 ? (rd ? ATA_CMD_READ_DMA_EXT : ATA_CMD_WRITE_DMA_EXT)
			     : (rd ? ATA_CMD_READ_DMA : ATA_CMD_WRITE_DMA);
	return lba48 ? (rd ? ATA_CMD_READ_PIO_EXT : ATA_CMD_WRITE_PIO_EXT)
		     : (rd ? ATA_CMD_READ_PIO : ATA_CMD_WRITE_PIO);
}

/* A PIO segment is reachable: a page (user memory, maybe HighMem) it stays
 * inside, or a kernel buffer in low memory (the direct map). */
static bool ide_pio_seg_ok(const struct blk_seg *s)
{
	if (s->page)
		return s->offset + s->len <= PAGE_SIZE;
	return (u64)s->phys + s->len <= (u64)max_low_pfn << PAGE_SHIFT;
}

/* Move one sector between the data port and the request's buffer. Interrupts
 * are off (channel lock or IRQ handler): a page goes through a KM_BIO_*_IRQ
 * slot, a kernel buffer through the direct map. */
static void ide_pio_sector(struct ide_channel *ch, struct blk_request *r)
{
	const struct blk_seg *seg = &r->seg[ch->pio_seg];
	enum km_type km = r->op == BLK_READ ? KM_BIO_DST_IRQ : KM_BIO_SRC_IRQ;
	char *map = seg->page ? kmap_atomic(seg->page, km) : NULL;
	void *buf = map ? map + seg->offset + ch->pio_off : __va(seg->phys + ch->pio_off);

	if (r->op == BLK_READ)
		ide_insw(ch->cmd + ATA_DATA, buf, BLK_SECTOR_SIZE / 2);
	else
		ide_outsw(ch->cmd + ATA_DATA, buf, BLK_SECTOR_SIZE / 2);
	if (map)
		kunmap_atomic(map, km);
	ch->pio_off += BLK_SECTOR_SIZE;
	if (ch->pio_off == seg->len) {
		ch->pio_seg++;
		ch->pio_off = 0;
	}
	ch->pio_left--;
}

static void ide_start_dma(struct ide_channel *ch, const struct blk_request *r)
{
	int n = ide_prd_add(ch->prd, 0, IDE_PRD_TABLE, r);

	for (const struct blk_request *m = ch->merged; m; m = m->next)
		n = ide_prd_add(ch->prd, n, IDE_PRD_TABLE, m);	/* fits: ide_merge counted */
	ch->prd[n - 1].flags = PRD_EOT;
	outl(ch->bm + BMIDTP, ch->prd_phys);
	outb(ch->bm + BMICOM, r->op == BLK_READ ? BMICOM_READ : 0);
	outb(ch->bm + BMISTA, (inb(ch->bm + BMISTA) & BMISTA_DRV_DMA) | BMISTA_INTR | BMISTA_ERR);
}

/* Put r on the wire (lock held). 0, or -EIO when the drive does not answer. */
static int ide_issue(struct ide_channel *ch, struct blk_request *r)
{
	struct ide_drive *d = r->dev->priv;
	bool lba48 = r->op != BLK_FLUSH && ide_cmd_lba48(ch);
	u8 sel = ATA_DRIVE_LBA | (d->slave ? ATA_DRIVE_SLAVE : 0);

	if (ide_wait(ch, ATA_SR_BSY | ATA_SR_DRQ, 0, IDE_TIMEOUT_MS) < 0)
		return -EIO;
	outb(ch->cmd + ATA_DRIVE, sel | (lba48 ? 0 : (r->sector >> 24) & 0x0F));
	ide_delay400(ch);
	if (ide_wait(ch, ATA_SR_BSY | ATA_SR_DRQ, 0, IDE_TIMEOUT_MS) < 0)
		return -EIO;
	ch->mode = r->op == BLK_FLUSH ? IDE_NODATA : ch->dma ? IDE_DMA : IDE_PIO;
	if (ch->mode == IDE_DMA)
		ide_start_dma(ch, r);
	if (ch->mode != IDE_NODATA)
		ide_taskfile(ch, lba48);
	ch->pio_seg = ch->pio_off = 0;
	ch->pio_left = r->nr_sectors;
	outb(ch->cmd + ATA_COMMAND, ide_command(ch, d, r, lba48));
	if (ch->mode == IDE_DMA)
		outb(ch->bm + BMICOM, (r->op == BLK_READ ? BMICOM_READ : 0) | BMICOM_START);
	if (ch->mode == IDE_PIO && r->op == BLK_WRITE) {
		ide_delay400(ch);
		if (ide_wait(ch, ATA_SR_BSY | ATA_SR_DRQ, ATA_SR_DRQ, IDE_TIMEOUT_MS) < 0)
			return -EIO;
		ide_pio_sector(ch, r);		/* the rest goes one per interrupt */
	}
	return 0;
}

/* Sequential DMA requests queued right behind r (same drive and direction,
 * the next sectors) ride on r's command: one command, one interrupt, one PRD
 * table for all of them, as Linux's block layer merges them (lock held). */
static void ide_merge(struct ide_channel *ch, struct blk_request *r)
{
	struct ide_drive *d = r->dev->priv;
	u32 cap = d->lba48 ? IDE_MERGE_LBA48 : IDE_MERGE_LBA28;
	struct blk_request *nx, **tail = &ch->merged;
	int prds = ide_prd_add(NULL, 0, IDE_PRD_TABLE, r), more;

	ch->merged = NULL;
	ch->cmd_sector = r->sector;
	ch->cmd_count = r->nr_sectors;
	if (!ch->dma || (r->op != BLK_READ && r->op != BLK_WRITE))
		return;
	while ((nx = ch->queue.head) && nx->dev == r->dev && nx->op == r->op &&
	       nx->sector == ch->cmd_sector + ch->cmd_count &&
	       ch->cmd_count + nx->nr_sectors <= cap &&
	       (more = ide_prd_add(NULL, prds, IDE_PRD_TABLE, nx)) >= 0) {
		blk_queue_pop(&ch->queue);
		nx->state = BLK_REQ_ACTIVE;
		blk_trace_start(nx);
		*tail = nx;
		tail = &nx->next;
		ch->cmd_count += nx->nr_sectors;
		prds = more;
	}
}

/* The command ended with res (bytes of the active request, or -errno): every
 * request on it goes to done with its own count or the error (lock held). */
static void ide_finish_cmd(struct ide_channel *ch, struct blk_request *r, int res,
			   struct blk_queue *done)
{
	struct blk_request *m = ch->merged, *next;

	ch->active = NULL;
	ch->merged = NULL;
	ch->mode = IDE_NODATA;
	r->result = res;
	blk_queue_push(done, r);
	for (; m; m = next) {
		next = m->next;
		m->result = res < 0 ? res : (int)(m->nr_sectors * BLK_SECTOR_SIZE);
		blk_queue_push(done, m);
	}
}

/* Start queued requests until one is on the wire (lock held); requests the
 * drive refuses go to done with -EIO. */
static void ide_start(struct ide_channel *ch, struct blk_queue *done)
{
	struct blk_request *r;

	assert_spin_locked(&ch->lock);
	while (!ch->active && (r = blk_queue_pop(&ch->queue))) {
		r->state = BLK_REQ_ACTIVE;
		blk_trace_start(r);
		ch->active = r;
		ide_merge(ch, r);
		if (!ide_issue(ch, r))
			break;
		pr_err("%s: %s sector %llu: drive not ready, status %02x\n", r->dev->name,
		       ide_op_name(r), r->sector, ide_altstatus(ch));
		if (ch->bm)
			outb(ch->bm + BMICOM, 0);
		ide_finish_cmd(ch, r, -EIO, done);
	}
}

/* ---- blk_ops ---- */

static int ide_submit(struct blkdev *dev, struct blk_request *r)
{
	struct ide_drive *d = dev->priv;
	struct ide_channel *ch = d->ch;
	u32 flags;

	if (r->op == BLK_FLUSH && !(dev->flags & BLKDEV_F_FLUSH)) {
		flags = local_irq_save();
		blkdev_complete(r, 0);		/* no write cache: nothing to flush */
		local_irq_restore(flags);
		return 0;
	}
	if (ch->dma && ide_build_prd(NULL, r) < 0)
		return -EINVAL;
	for (u32 i = 0; !ch->dma && i < r->nr_seg; i++)
		if (!ide_pio_seg_ok(&r->seg[i]))
			return -EINVAL;
	spin_lock_irqsave(&ch->lock, flags);
	blk_queue_push(&ch->queue, r);
	spin_unlock_irqrestore(&ch->lock, flags);
	return 0;
}

static void ide_kick(struct blkdev *dev)
{
	struct ide_channel *ch = ((struct ide_drive *)dev->priv)->ch;
	struct blk_queue done = { NULL, NULL };
	u32 flags;

	spin_lock_irqsave(&ch->lock, flags);
	ide_start(ch, &done);
	spin_unlock(&ch->lock);
	blk_complete_list(done.head);
	local_irq_restore(flags);
}

static struct blk_request *ide_cancel(struct blkdev *dev, blk_match_fn *match, void *arg)
{
	struct ide_channel *ch = ((struct ide_drive *)dev->priv)->ch;
	struct blk_request *r;
	u32 flags;

	spin_lock_irqsave(&ch->lock, flags);
	r = blk_queue_remove_match(&ch->queue, match, arg);
	spin_unlock_irqrestore(&ch->lock, flags);
	return r;
}

static const struct blk_ops ide_ops = {
	.submit = ide_submit,
	.kick = ide_kick,
	.cancel = ide_cancel,
};

/* ---- interrupt ---- */

/* Advance the active command after an interrupt with status st. Returns the
 * request's result, or 1 when more PIO sectors are to come. */
static int ide_step(struct ide_channel *ch, struct blk_request *r, u8 st, u8 bmsta)
{
	if ((st & (ATA_SR_ERR | ATA_SR_DF)) || (bmsta & BMISTA_ERR) ||
	    (ch->mode == IDE_PIO && ch->pio_left && !(st & ATA_SR_DRQ))) {
		pr_err("%s: %s sector %llu x%u failed: status %02x error %02x bmsta %02x\n",
		       r->dev->name, ide_op_name(r), ch->cmd_sector, ch->cmd_count, st,
		       inb(ch->cmd + ATA_ERROR), bmsta);
		return -EIO;
	}
	if (ch->mode == IDE_PIO && ch->pio_left) {
		ide_pio_sector(ch, r);
		if (r->op == BLK_WRITE || ch->pio_left)
			return 1;	/* a write ends with one more interrupt */
	}
	return r->nr_sectors * BLK_SECTOR_SIZE;
}

/* IRQ 14/15 handler. With a bus master, BMISTA.INTR says whether this
 * channel interrupted; reading the status register acknowledges the drive. */
static void ide_intr(int irq, void *data)
{
	struct ide_channel *ch = data;
	struct blk_queue done = { NULL, NULL };
	struct blk_request *r;
	u8 st, bmsta = 0;
	int res;

	spin_lock(&ch->lock);
	if (ch->bm) {
		bmsta = inb(ch->bm + BMISTA);
		if (!(bmsta & BMISTA_INTR))
			goto out_not_ours;
		if (ch->mode == IDE_DMA)
			outb(ch->bm + BMICOM, inb(ch->bm + BMICOM) & ~BMICOM_START);
	} else if (ide_altstatus(ch) & ATA_SR_BSY) {
		goto out_not_ours;
	}
	st = inb(ch->cmd + ATA_STATUS);
	if (ch->bm)
		outb(ch->bm + BMISTA, (bmsta & BMISTA_DRV_DMA) | BMISTA_INTR | BMISTA_ERR);
	r = ch->active;
	if (!r)
		goto out_not_ours;
	ch->nr_intr++;
	res = ide_step(ch, r, st, ch->mode == IDE_DMA ? bmsta : 0);
	if (res == 1)
		goto out_unlock;
	ide_finish_cmd(ch, r, res, &done);
	ide_start(ch, &done);
out_unlock:
	spin_unlock(&ch->lock);
	blk_complete_list(done.head);
	return;
out_not_ours:
	ch->nr_spurious++;
	spin_unlock(&ch->lock);
}

/* ---- probe ---- */

/* IDENTIFY drive `slave` into id (polled, interrupts off at the drive).
 * 0, or -ENODEV for no drive / a packet (ATAPI) device. */
static int ide_identify(struct ide_channel *ch, int slave, u16 *id)
{
	int st;

	outb(ch->cmd + ATA_DRIVE, ATA_DRIVE_LBA | (slave ? ATA_DRIVE_SLAVE : 0));
	ide_delay400(ch);
	st = inb(ch->cmd + ATA_STATUS);
	if (st == ATA_FLOATING || st == 0)
		return -ENODEV;			/* no controller / no drive */
	outb(ch->cmd + ATA_SECCOUNT, 0);
	outb(ch->cmd + ATA_LBA_LO, 0);
	outb(ch->cmd + ATA_LBA_MID, 0);
	outb(ch->cmd + ATA_LBA_HI, 0);
	outb(ch->cmd + ATA_COMMAND, ATA_CMD_IDENTIFY);
	ide_delay400(ch);
	if (!inb(ch->cmd + ATA_STATUS))
		return -ENODEV;
	st = ide_wait(ch, ATA_SR_BSY, 0, IDE_TIMEOUT_MS);
	if (st < 0 || inb(ch->cmd + ATA_LBA_MID) || inb(ch->cmd + ATA_LBA_HI))
		return -ENODEV;			/* hung, or ATAPI / SATA signature */
	if (!(st & ATA_SR_ERR))
		st = ide_wait(ch, ATA_SR_DRQ | ATA_SR_ERR, ATA_SR_DRQ, IDE_TIMEOUT_MS);
	if (st < 0 || (st & ATA_SR_ERR))
		return -ENODEV;
	ide_insw(ch->cmd + ATA_DATA, id, 256);
	inb(ch->cmd + ATA_STATUS);
	return id[ID_CONFIG] & ID_CONFIG_ATAPI ? -ENODEV : 0;
}

static void ide_setup_drive(struct ide_channel *ch, int index, int slave, const u16 *id)
{
	struct ide_drive *d = &ch->drive[slave];

	d->ch = ch;
	d->slave = slave;
	d->present = true;
	d->lba48 = id[ID_CMDSET2] & ID_CMDSET2_LBA48;
	d->blk.nr_sectors = id[ID_LBA28] | (u32)id[ID_LBA28 + 1] << 16;
	if (d->lba48)
		d->blk.nr_sectors = id[ID_LBA48] | (u64)id[ID_LBA48 + 1] << 16 |
				    (u64)id[ID_LBA48 + 2] << 32 | (u64)id[ID_LBA48 + 3] << 48;
	d->blk.max_sectors = IDE_MAX_SECTORS;
	d->blk.max_segs = IDE_MAX_SEGS;
	d->blk.flags = (ch->dma ? BLKDEV_F_DMA : 0) | (d->lba48 ? BLKDEV_F_LBA48 : 0) |
		       (id[ID_CMDSET2] & ID_CMDSET2_FLUSH ? BLKDEV_F_FLUSH : 0);
	d->blk.ops = &ide_ops;
	d->blk.priv = d;
	snprintf(d->blk.name, sizeof(d->blk.name), "hd%c", 'a' + index * 2 + slave);
}

static void ide_channel_ports(struct ide_channel *ch, int index, struct pci_dev *p)
{
	bool native = p->prog_if & PCI_IDE_NATIVE(index);

	ch->cmd = native ? p->bar[index * 2].base : index ? IDE_LEGACY_CMD1 : IDE_LEGACY_CMD0;
	ch->ctrl = native ? p->bar[index * 2 + 1].base + 2 :
			    index ? IDE_LEGACY_CTRL1 : IDE_LEGACY_CTRL0;
	ch->irq = native ? p->irq_line : index ? IDE_LEGACY_IRQ1 : IDE_LEGACY_IRQ0;
	if (p->bar[4].io && p->bar[4].size >= 16)
		ch->bm = p->bar[4].base + index * 8;
}

/* Find the drives of one channel and bring it up; returns drives found. */
static int ide_channel_init(struct ide_channel *ch, int index, struct pci_dev *p, bool pio)
{
	static u16 id[256];
	int found = 0;

	spin_lock_init(&ch->lock, index ? "ide1" : "ide0");
	ide_channel_ports(ch, index, p);
	ch->dma = ch->bm && !pio;
	outb(ch->ctrl + ATA_DEVCTRL, ATA_DEVCTRL_NIEN);
	for (int slave = 0; slave < 2; slave++) {
		if (ide_identify(ch, slave, id) || !(id[ID_CAPS] & ID_CAPS_LBA))
			continue;
		ide_setup_drive(ch, index, slave, id);
		found++;
	}
	if (!found)
		return 0;
	ch->prd = blk_dma_alloc(IDE_PRD_TABLE * sizeof(struct ide_prd),	/* in one page: */
				&ch->prd_phys);				/* no 64 KiB crossing */
	if (!ch->prd || irq_register(ch->irq, ide_intr, ch))
		return 0;
	if (index && !(p->prog_if & PCI_IDE_NATIVE(index)))	/* its own line: spread */
		irq_set_affinity(ch->irq, 1u << (index % nr_cpus_online));	/* 8259: stays */
	if (ch->bm)
		outb(ch->bm + BMISTA, BMISTA_INTR | BMISTA_ERR |
		     (ch->drive[0].present ? BMISTA_DRV0_DMA : 0) |
		     (ch->drive[1].present ? BMISTA_DRV1_DMA : 0));
	outb(ch->ctrl + ATA_DEVCTRL, 0);	/* interrupts on */
	for (int slave = 0; slave < 2; slave++)
		if (ch->drive[slave].present)
			blkdev_register(&ch->drive[slave].blk);
	return found;
}

static int ide_probe(struct pci_dev *p)
{
	const char *mode = cmdline_get(&boot_cmdline, "ide");
	bool pio = mode && !strcmp(mode, "pio");

	pci_enable(p, PCI_COMMAND_IO | PCI_COMMAND_MASTER);
	for (int i = 0; i < 2; i++)
		ide_channel_init(&ide_channels[i], i, p, pio);
	p->drvdata = ide_channels;
	return 0;
}

static const struct pci_device_id ide_ids[] = {
	{ PIIX_VENDOR, PIIX3_IDE },
	{ 0, 0 },
};

static struct pci_driver ide_driver = {
	.name = "ide",
	.ids = ide_ids,
	.probe = ide_probe,
};

void ide_init(void)
{
	pci_register_driver(&ide_driver);
}
