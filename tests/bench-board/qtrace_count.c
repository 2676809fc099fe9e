// SPDX-License-Identifier: MIT
/*
 * qtrace_count.c - instructions of an armhf process by phase, from
 * qemu-arm's log (-d in_asm,exec,nochain), read on stdin as it is written
 *
 *	qtrace_count TABLE BOUNDARY < LOG
 *
 * TABLE: one line per function, "START END PHASE" (hex addresses, END
 * exclusive; PHASE a small number, 0 for "the caller's": C library code
 * is charged to the phase of the last block that had one). BOUNDARY (hex):
 * the entry of the function that starts a request; every execution of it
 * starts a new segment (segment 0 is what comes before the first).
 *
 * qemu logs each translated block once ("IN:" and one line per guest
 * instruction) and, with chaining off, every execution of a block
 * ("Trace N: HOST [.../PC/...]"): a block's instructions count once per
 * execution. Prints "SEGMENT PHASE INSTRUCTIONS" for every non-zero count,
 * and "SEGMENT 16+PHASE INSTRUCTIONS" for the part of it that threads other
 * than the first ran (N of "Trace N" is the thread's CPU index under
 * qemu-arm): what the run's worker thread did on the second core.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PHASES		16
#define SEGMENTS	64
#define HASH_BITS	20

struct fn {
	uint32_t start, end;
	int phase;
};

struct tb {
	uint32_t pc;
	uint32_t n;		/* instructions; 0: empty slot */
};

static struct fn *fns;
static size_t nfns;
static struct tb tbs[1u << HASH_BITS];
static uint64_t count[SEGMENTS][PHASES];
static uint64_t other[SEGMENTS][PHASES];	/* by threads but the first */

static struct tb *tb_slot(uint32_t pc)
{
	uint32_t h = (pc * 2654435761u) >> (32 - HASH_BITS);

	while (tbs[h].n && tbs[h].pc != pc)
		h = (h + 1) & ((1u << HASH_BITS) - 1);
	return &tbs[h];
}

static int phase_of(uint32_t pc)
{
	size_t lo = 0, hi = nfns;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (pc < fns[mid].start)
			hi = mid;
		else if (pc >= fns[mid].end)
			lo = mid + 1;
		else
			return fns[mid].phase;
	}
	return 0;
}

static int by_start(const void *p, const void *q)
{
	const struct fn *a = p, *b = q;

	return a->start < b->start ? -1 : a->start > b->start;
}

static void load_table(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned int s, e;
	int ph;
	size_t cap = 0;

	if (!f) {
		perror(path);
		exit(2);
	}
	while (fscanf(f, "%x %x %d", &s, &e, &ph) == 3) {
		if (ph < 0 || ph >= PHASES) {
			fprintf(stderr, "qtrace_count: phase %d out of range\n", ph);
			exit(2);
		}
		if (nfns == cap) {
			cap = cap ? 2 * cap : 4096;
			fns = realloc(fns, cap * sizeof(*fns));
			if (!fns) {
				perror("qtrace_count");
				exit(2);
			}
		}
		fns[nfns++] = (struct fn){ s & ~1u, e, ph };
	}
	fclose(f);
	qsort(fns, nfns, sizeof(*fns), by_start);
}

int main(int argc, char **argv)
{
	static char line[4096];
	uint32_t boundary, in_block = 0;
	struct tb *cur = NULL;
	int seg = 0, phase = 0;
	long first_cpu = -1;

	if (argc != 3) {
		fprintf(stderr, "usage: qtrace_count TABLE BOUNDARY < LOG\n");
		return 2;
	}
	load_table(argv[1]);
	boundary = (uint32_t)strtoul(argv[2], NULL, 16) & ~1u;
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "IN:", 3)) {
			in_block = 1;
			cur = NULL;
			continue;
		}
		if (in_block && line[0] == '0' && line[1] == 'x') {
			uint32_t pc = (uint32_t)strtoul(line + 2, NULL, 16);

			if (!cur) {
				cur = tb_slot(pc);
				cur->pc = pc;
				cur->n = 0;
			}
			cur->n++;
			continue;
		}
		in_block = 0;
		if (!strncmp(line, "Trace ", 6)) {
			char *p = strchr(line, '[');
			long cpu = strtol(line + 6, NULL, 10);
			uint32_t pc;
			struct tb *t;
			int ph;

			if (!p || !(p = strchr(p, '/')))
				continue;
			pc = (uint32_t)strtoul(p + 1, NULL, 16);
			if (pc == boundary && seg < SEGMENTS - 1)
				seg++;
			t = tb_slot(pc);
			if (!t->n) {
				fprintf(stderr, "qtrace_count: block 0x%x ran before it was logged\n", pc);
				return 1;
			}
			ph = phase_of(pc);
			if (ph)
				phase = ph;
			count[seg][phase] += t->n;
			if (first_cpu < 0)
				first_cpu = cpu;
			if (cpu != first_cpu)
				other[seg][phase] += t->n;
		}
	}
	for (int s = 0; s <= seg; s++)
		for (int p = 0; p < PHASES; p++) {
			if (count[s][p])
				printf("%d %d %" PRIu64 "\n", s, p, count[s][p]);
			if (other[s][p])
				printf("%d %d %" PRIu64 "\n", s, PHASES + p, other[s][p]);
		}
	return 0;
}
