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
 * execution. "Trace N" names the guest CPU, which in qemu-arm's user mode
 * is a thread: the first one seen is the main thread (0), every other one
 * a worker (1). C library code inherits the phase of its own thread's last
 * block; a new thread's first blocks, that of the last block logged. Prints "SEGMENT THREAD PHASE INSTRUCTIONS" for every non-zero count.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PHASES		16
#define SEGMENTS	64
#define HASH_BITS	20
#define CPUS		64	/* guest CPU indexes followed for their phase */

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
static uint64_t count[SEGMENTS][2][PHASES];

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
	int seg = 0, phase[CPUS] = { 0 }, main_cpu = -1, last = 0;
	bool seen[CPUS] = { false };

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
			int ph, cpu = atoi(line + 6), th;
			uint32_t pc;
			struct tb *t;

			if (!p || !(p = strchr(p, '/')))
				continue;
			if (cpu < 0 || cpu >= CPUS) {
				fprintf(stderr, "qtrace_count: guest CPU %d: more threads than %d\n",
					cpu, CPUS);
				return 1;
			}
			if (main_cpu < 0)
				main_cpu = cpu;
			/*
			 * A new thread starts in the C library (clone, start_thread):
			 * it is the phase that made it, the last one logged.
			 */
			if (!seen[cpu]) {
				seen[cpu] = true;
				phase[cpu] = last;
			}
			th = cpu != main_cpu;
			pc = (uint32_t)strtoul(p + 1, NULL, 16);
			if (pc == boundary && !th && seg < SEGMENTS - 1)
				seg++;
			t = tb_slot(pc);
			if (!t->n) {
				fprintf(stderr, "qtrace_count: block 0x%x ran before it was logged\n", pc);
				return 1;
			}
			ph = phase_of(pc);
			if (ph)
				phase[cpu] = ph;
			last = phase[cpu];
			count[seg][th][phase[cpu]] += t->n;
		}
	}
	for (int s = 0; s <= seg; s++)
		for (int th = 0; th < 2; th++)
			for (int p = 0; p < PHASES; p++)
				if (count[s][th][p])
					printf("%d %d %d %" PRIu64 "\n", s, th, p, count[s][th][p]);
	return 0;
}
