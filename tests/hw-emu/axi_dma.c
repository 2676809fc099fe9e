// SPDX-License-Identifier: GPL-2.0
/*
 * axi_dma.c - the AXI DMA in direct register mode, cycle by cycle
 * (axi_dma.h). Written from PG021's register description (its offsets
 * and bits from pg021.h, not from the driver's header) and hardware.rst
 * section 5; what PG021 leaves open is resolved the way the C simulator
 * (driver/npukit_sim.c) resolves it, so that the two agree where the
 * driver could tell:
 *  - after RS is set a channel is neither Halted nor Idle until its first
 *    transfer completes;
 *  - LENGTH written to a channel that is halted, stopped, or busy with a
 *    transfer whose Idle has not risen is ignored (PG021: undefined);
 *  - with the idle_early knob a channel takes its next command while the
 *    previous transfer's last beats are still in its stream FIFO: they
 *    reach the NPU first;
 *  - an S2MM transfer ends at TLAST and S2MM_LENGTH then reads the bytes
 *    received; a stream longer than LENGTH is DMAIntErr;
 *  - an error halts the channel: Halted, the error bit and Err_Irq set,
 *    Idle and RS clear; what was in flight is abandoned. Only a reset
 *    restarts it (PG021: errors need a soft or hard reset): RS written
 *    meanwhile is ignored.
 */
#include <string.h>

#include "axi_dma.h"
#include "pg021.h"

/* the block design's Buffer Length Register Width: 14 bits (hardware.rst 1) */
#define AXI_DMA_LENGTH_MASK	0x3fffu
#define AXI_DMA_W1C		(PG021_DMASR_IOC_IRQ | PG021_DMASR_DLY_IRQ | PG021_DMASR_ERR_IRQ)

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* xorshift64: the gaps and stalls are reproducible from the knobs alone */
static bool roll(struct axi_dma *d, uint32_t percent)
{
	if (!percent)
		return false;
	d->rng ^= d->rng << 13;
	d->rng ^= d->rng >> 7;
	d->rng ^= d->rng << 17;
	return d->rng % 100 < percent;
}

static void chan_reset(struct axi_dma_chan *ch)
{
	uint64_t bytes = ch->bytes, dropped = ch->dropped;

	memset(ch, 0, sizeof(*ch));
	ch->dmasr = PG021_DMASR_HALTED;
	ch->bytes = bytes;
	ch->dropped = dropped;
}

void axi_dma_init(struct axi_dma *d, const struct axi_dma_knobs *knobs)
{
	memset(d, 0, sizeof(*d));
	d->k = *knobs;
	d->rng = 0x9e3779b97f4a7c15ull;
	chan_reset(&d->mm2s);
	chan_reset(&d->s2mm);
}

void axi_dma_pl_reset(struct axi_dma *d)
{
	chan_reset(&d->mm2s);
	chan_reset(&d->s2mm);
	d->reset_until = 0;
}

int axi_dma_add_window(struct axi_dma *d, uint32_t addr, void *cpu, size_t size)
{
	if (d->nwin == AXI_DMA_WINDOWS)
		return -1;
	d->win[d->nwin++] = (struct axi_dma_window){ addr, cpu, size };
	return 0;
}

static uint8_t *window(struct axi_dma *d, uint32_t addr, uint32_t len)
{
	for (unsigned int i = 0; i < d->nwin; i++) {
		struct axi_dma_window *w = &d->win[i];

		if (addr >= w->addr && len <= w->size && addr - w->addr <= w->size - len)
			return w->cpu + (addr - w->addr);
	}
	return d->mem_find ? d->mem_find(addr, len) : NULL;
}

static void chan_fail(struct axi_dma_chan *ch, uint32_t err)
{
	ch->nq = 0;
	ch->flushing = false;
	ch->dmasr |= err | PG021_DMASR_ERR_IRQ | PG021_DMASR_HALTED;
	ch->dmasr &= ~PG021_DMASR_IDLE;
	ch->dmacr &= ~PG021_DMACR_RS;
}

static void chan_idle(struct axi_dma_chan *ch)
{
	ch->dmasr |= PG021_DMASR_IDLE | PG021_DMASR_IOC_IRQ;
}

/* LENGTH landed: start a transfer, or ignore the write */
static void chan_start(struct axi_dma *d, struct axi_dma_chan *ch)
{
	bool mm2s = ch == &d->mm2s;
	bool takes = !ch->nq && !ch->flushing;
	struct axi_dma_xfer *x;
	uint32_t chan = mm2s ? 1 : 2;

	/* Idle already up over the last beats in the FIFO: queue behind them */
	if (ch->nq == 1 && (ch->dmasr & PG021_DMASR_IDLE))
		takes = true;
	if (!(ch->dmacr & PG021_DMACR_RS) || (ch->dmasr & PG021_DMASR_HALTED) ||
	    !takes || !ch->length) {
		ch->dropped++;
		return;
	}
	x = &ch->q[ch->nq];
	memset(x, 0, sizeof(*x));
	x->len = ch->length;
	x->buf = window(d, ch->addr, ch->length);
	if (!x->buf) {
		chan_fail(ch, PG021_DMASR_DMADECERR);
		return;
	}
	if (ch->addr & 3) {	/* no DRE */
		chan_fail(ch, PG021_DMASR_DMAINTERR);
		return;
	}
	if (d->errors && (!d->k.error_chan || d->k.error_chan == chan)) {
		uint32_t beats = (x->len + 3) / 4;

		d->errors--;
		x->fail = true;
		x->fail_at = 4 * (d->k.error_beat < beats ? d->k.error_beat : beats - 1);
	}
	x->addr = ch->addr;
	x->start = d->cycle + (mm2s ? d->k.first_beat : d->k.s2mm_setup);
	ch->nq++;
	if (d->mem_access)
		d->mem_access(d->mem_ctx, x->addr, x->len, !mm2s, false);
	ch->dmasr &= ~PG021_DMASR_IDLE;
}

void axi_dma_write(struct axi_dma *d, uint32_t off, uint32_t val)
{
	struct axi_dma_chan *ch = off < PG021_S2MM_BASE ? &d->mm2s : &d->s2mm;
	uint32_t reg = off < PG021_S2MM_BASE ? off : off - PG021_S2MM_BASE;

	if (d->cycle < d->reset_until)
		return;
	switch (reg) {
	case PG021_MM2S_DMACR:
		if (val & PG021_DMACR_RESET) {
			/* either channel's reset resets the whole core */
			chan_reset(&d->mm2s);
			chan_reset(&d->s2mm);
			d->reset_until = d->cycle + d->k.reset_cycles;
			break;
		}
		ch->dmacr = val & (PG021_DMACR_RS | PG021_DMACR_IOC_IRQEN |
				   PG021_DMACR_ERR_IRQEN);
		if (ch->dmasr & PG021_DMASR_DMA_ERRORS)
			ch->dmacr &= ~PG021_DMACR_RS;
		if (ch->dmacr & PG021_DMACR_RS)
			ch->dmasr &= ~PG021_DMASR_HALTED;
		else if (!ch->nq)
			ch->dmasr |= PG021_DMASR_HALTED;
		break;
	case PG021_MM2S_DMASR:
		ch->dmasr &= ~(val & AXI_DMA_W1C);
		break;
	case PG021_MM2S_SA:
		ch->addr = val;
		break;
	case PG021_MM2S_LENGTH:
		ch->length = val & AXI_DMA_LENGTH_MASK;
		chan_start(d, ch);
		break;
	}
}

uint32_t axi_dma_read(const struct axi_dma *d, uint32_t off)
{
	const struct axi_dma_chan *ch = off < PG021_S2MM_BASE ? &d->mm2s : &d->s2mm;
	uint32_t reg = off < PG021_S2MM_BASE ? off : off - PG021_S2MM_BASE;

	switch (reg) {
	case PG021_MM2S_DMACR:
		/* PG021: bit 1 is reserved and always reads 1 */
		return ch->dmacr | PG021_DMACR_ONE |
		       (d->cycle < d->reset_until ? PG021_DMACR_RESET : 0);
	case PG021_MM2S_DMASR:
		return ch->dmasr;
	case PG021_MM2S_SA:
		return ch->addr;
	case PG021_MM2S_LENGTH:
		return ch->length;
	}
	return 0;
}

void axi_dma_inject(struct axi_dma *d, uint32_t n)
{
	d->errors += n;
}

/* The transfer at the head of @ch, if it may move a beat this cycle */
static struct axi_dma_xfer *head(struct axi_dma *d, struct axi_dma_chan *ch)
{
	struct axi_dma_xfer *x = &ch->q[0];

	if (!ch->nq || d->cycle < x->start)
		return NULL;
	if (x->fail && x->done >= x->fail_at) {
		d->injected++;
		chan_fail(ch, PG021_DMASR_DMASLVERR);
		return NULL;
	}
	return x;
}

void axi_dma_drive(struct axi_dma *d, uint64_t cycle, struct hwemu_pins *p)
{
	struct axi_dma_xfer *x;

	d->cycle = cycle;
	p->s_tvalid = false;
	p->s_tlast = false;
	p->m_tready = false;
	x = head(d, &d->mm2s);
	if (x && !roll(d, d->k.mm2s_gap)) {
		p->s_tvalid = true;
		p->s_tdata = le32(x->buf + x->done);
		p->s_tlast = x->done + 4 >= x->len;
	}
	x = head(d, &d->s2mm);
	if (x && !roll(d, d->k.s2mm_stall))
		p->m_tready = true;
	d->s_offer = p->s_tvalid;
	d->m_take = p->m_tready;
}

static void pop(struct axi_dma *d, struct axi_dma_chan *ch)
{
	ch->bytes += ch->q[0].done;
	ch->q[0] = ch->q[1];
	if (--ch->nq && ch->q[0].start <= d->cycle)
		ch->q[0].start = d->cycle + 1;
}

static void mm2s_beat(struct axi_dma *d)
{
	struct axi_dma_chan *ch = &d->mm2s;
	struct axi_dma_xfer *x = &ch->q[0];

	x->done += 4;
	if (x->done >= x->len) {
		pop(d, ch);
		if (!ch->nq && !(ch->dmasr & PG021_DMASR_IDLE)) {
			ch->flushing = true;
			ch->idle_at = d->cycle + d->k.idle_lag;
		}
	} else if (d->k.idle_early && ch->nq == 1 &&
		   (x->len - x->done) / 4 <= d->k.idle_early) {
		chan_idle(ch);
	}
}

static void s2mm_beat(struct axi_dma *d, const struct hwemu_pins *p)
{
	struct axi_dma_chan *ch = &d->s2mm;
	struct axi_dma_xfer *x = &ch->q[0];

	put_le32(x->buf + x->done, p->m_tdata);
	x->done += 4;
	if (p->m_tlast) {
		if (d->mem_access)
			d->mem_access(d->mem_ctx, x->addr, x->done, true, true);
		ch->length = x->done;
		pop(d, ch);
		ch->flushing = true;
		ch->idle_at = d->cycle + d->k.s2mm_flush;
	} else if (x->done >= x->len) {
		chan_fail(ch, PG021_DMASR_DMAINTERR);
	}
}

void axi_dma_clock(struct axi_dma *d, const struct hwemu_pins *p)
{
	if (d->s_offer && p->s_tready && d->mm2s.nq)
		mm2s_beat(d);
	if (d->m_take && p->m_tvalid && d->s2mm.nq)
		s2mm_beat(d, p);
	if (d->mm2s.flushing && d->cycle >= d->mm2s.idle_at) {
		d->mm2s.flushing = false;
		chan_idle(&d->mm2s);
	}
	if (d->s2mm.flushing && d->cycle >= d->s2mm.idle_at) {
		d->s2mm.flushing = false;
		chan_idle(&d->s2mm);
	}
}

static bool chan_irq(const struct axi_dma_chan *ch)
{
	return ((ch->dmasr & PG021_DMASR_IOC_IRQ) && (ch->dmacr & PG021_DMACR_IOC_IRQEN)) ||
	       ((ch->dmasr & PG021_DMASR_ERR_IRQ) && (ch->dmacr & PG021_DMACR_ERR_IRQEN));
}

bool axi_dma_irq(const struct axi_dma *d)
{
	return chan_irq(&d->mm2s) || chan_irq(&d->s2mm);
}

bool axi_dma_introut(const struct axi_dma *d, bool s2mm)
{
	return chan_irq(s2mm ? &d->s2mm : &d->mm2s);
}

bool axi_dma_quiet(const struct axi_dma *d)
{
	return !d->mm2s.nq && !d->s2mm.nq && !d->mm2s.flushing && !d->s2mm.flushing &&
	       d->cycle >= d->reset_until;
}
