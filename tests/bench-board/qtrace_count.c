// SPDX-License-Identifier: MIT
/*
 * qtrace_count.c - instructions of an armhf process by phase, from
 * qemu-arm's log (-d in_asm,exec,nochain), read on stdin as it is written
 *
 *	qtrace_count TABLE BOUNDARY [START_THREAD,CREATE,JOIN [READER]] < LOG
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
 *
 * THREADS: three hex addresses "START_THREAD,CREATE,JOIN" (the C
 * library's start_thread, where every new thread starts, pthread_create
 * and pthread_join). Each pthread_create() of the main thread opens a
 * window, from its return to the main thread's next pthread_join(); the
 * thread it made (the next to reach start_thread: a thread can only start
 * after its creator asked) has a life, from start_thread until that join
 * returns. With M the main thread's instructions in the window and W the
 * worker's in its life, the two ran side by side on the board's two
 * cores, whatever order qemu happened to log them in: a life whose worker
 * ran no instruction of phase SHARED_PHASE (the range checks, which the
 * benchmark already takes as shared) adds min(M, W) (W without the
 * stand-in device's DEVICE_PHASE, which the board's model counts apart) to its segment's
 * overlap, since two cores do M and W in max(M, W) = M + W - min(M, W).
 * What the main thread does inside pthread_create() and pthread_join() is
 * not in M. Printed as "overlap SEGMENT N".
 *
 * A window in which either thread ran SHARED_PHASE code (the range
 * checks' replays, which both threads take from one index) adds nothing
 * to the overlap; its SHARED_PHASE instructions, the main thread's inside
 * the window and the worker's in its life, are printed as "shared SEGMENT
 * N": the benchmark takes half of those, and only those. The main
 * thread's SHARED_PHASE code outside every window (serial: before the
 * thread starts, after the join) is in neither.
 *
 * With -d strace in the log, every guest system call ("PID name(...) =
 * RET", the return perhaps on a line of its own after other threads'
 * lines) counts in the segment the main thread is in, printed as
 * "syscalls SEGMENT N"; the bytes read() and write() returned, as
 * "readbytes SEGMENT N" and "writebytes SEGMENT N".
 *
 * READER (hex): the entry of the function --serve's reader thread calls
 * once per request (serve_reader_next()). The thread other than the main
 * one that runs it is the reader: it is thread 2, and its segments are
 * its own, one more at each READER (its k-th request is segment k); its
 * create-to-join window, which spans every request, is neither overlap
 * nor shared, and a pthread_join() of the main thread closes the first
 * open window that is not the reader's.
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
#define SHARED_PHASE	2	/* phase_table.py's RANGE */
#define DEVICE_PHASE	7	/* phase_table.py's DEVICE: not the host's */

/* A pthread_create() of the main thread, up to its pthread_join(). */
struct window {
	int seg;
	uint64_t m_open, m_close;	/* the main thread's count then */
	uint64_t r_open, r_close;	/* its SHARED_PHASE count then */
	bool opened, closed;
	int life;			/* the thread it made, or -1 */
};

/* A worker thread's life. */
struct life {
	int window;			/* whose thread it is, or -1 (not main's) */
	uint64_t w;			/* its instructions */
	uint64_t shared;		/* of which SHARED_PHASE */
	bool over;			/* its window's join returned */
	bool reader;			/* it ran READER */
};

#define WINDOWS	4096
static struct window windows[WINDOWS];
static struct life lives[WINDOWS];
static int nwindows, nlives;
/* Creates not yet matched with a thread: their windows (-1: not main's). */
static int pending[WINDOWS], npending_first, npending;
static uint64_t overlap[SEGMENTS], shared[SEGMENTS];
static uint64_t syscalls[SEGMENTS], readbytes[SEGMENTS], writebytes[SEGMENTS];

/* A system call whose return value is still to come (-d strace). */
static int pending_sys = -1;	/* 0: read, 1: write, 2: other; -1: none */
static int pending_seg;

/* " = RET" at @p: the bytes of the pending read() or write(). */
static void syscall_return(const char *p)
{
	long long ret;

	if (pending_sys < 0)
		return;
	if (sscanf(p, " = %lld", &ret) == 1 && ret > 0) {
		if (pending_sys == 0)
			readbytes[pending_seg] += (uint64_t)ret;
		else if (pending_sys == 1)
			writebytes[pending_seg] += (uint64_t)ret;
	}
	pending_sys = -1;
}

/* "PID name(args) = RET" or its first part: a system call in @seg. */
static bool syscall_line(const char *line, int seg)
{
	const char *p = line, *name, *eq;
	size_t n;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == line || *p != ' ')
		return false;
	name = ++p;
	while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	n = (size_t)(p - name);
	if (!n || (*p != '(' && strncmp(name, "Unknown", n)))
		return false;
	syscalls[seg]++;
	pending_seg = seg;
	pending_sys = (n == 4 && !strncmp(name, "read", 4)) ? 0 :
		      (n == 5 && !strncmp(name, "write", 5)) ? 1 : 2;
	eq = strstr(p, ") = ");
	if (eq)
		syscall_return(eq + 1);
	return true;
}

static void too_many(void)
{
	fprintf(stderr, "qtrace_count: more than %d threads\n", WINDOWS);
	exit(1);
}

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
static uint64_t count[SEGMENTS][3][PHASES];

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
	uint32_t boundary, entry = 0, create = 0, join = 0, reader = 0, in_block = 0;
	uint64_t main_count = 0, main_shared = 0;
	int creating = -1, cur_life[CPUS];
	struct tb *cur = NULL;
	int seg = 0, rseg = 0, phase[CPUS] = { 0 }, main_cpu = -1, reader_cpu = -1, last = 0;
	bool seen[CPUS] = { false };

	if (argc < 3 || argc > 5 ||
	    (argc >= 4 && sscanf(argv[3], "%x,%x,%x", &entry, &create, &join) != 3) ||
	    (argc == 5 && sscanf(argv[4], "%x", &reader) != 1)) {
		fprintf(stderr, "usage: qtrace_count TABLE BOUNDARY [START_THREAD,CREATE,JOIN [READER]] < LOG\n");
		return 2;
	}
	reader &= ~1u;
	entry &= ~1u;
	create &= ~1u;
	join &= ~1u;
	for (int c = 0; c < CPUS; c++)
		cur_life[c] = -1;
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
		if (!strncmp(line, " = ", 3)) {
			syscall_return(line);
			continue;
		}
		if (line[0] >= '1' && line[0] <= '9' && syscall_line(line, seg))
			continue;
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
			pc = (uint32_t)strtoul(p + 1, NULL, 16);
			if (reader && pc == reader && cpu != main_cpu) {
				reader_cpu = cpu;
				if (cur_life[cpu] >= 0)
					lives[cur_life[cpu]].reader = true;
				if (rseg < SEGMENTS - 1)
					rseg++;
			}
			th = cpu == main_cpu ? 0 : cpu == reader_cpu ? 2 : 1;
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
			count[th == 2 ? rseg : seg][th][phase[cpu]] += t->n;
			if (!entry)
				continue;
			if (pc == create) {
				if (npending == WINDOWS)
					too_many();
				if (!th) {
					windows[nwindows] = (struct window){ .seg = seg, .life = -1 };
					creating = nwindows;
				}
				pending[npending++] = th ? -1 : nwindows++;
			}
			if (th && pc == entry) {
				if (nlives == WINDOWS)
					too_many();
				int wi = npending_first < npending ? pending[npending_first++] : -1;

				lives[nlives] = (struct life){ .window = wi };
				if (wi >= 0)
					windows[wi].life = nlives;
				cur_life[cpu] = nlives++;
			}
			if (!th) {
				/* Back in the caller's code: the window opens. */
				if (creating >= 0 && ph) {
					windows[creating].m_open = main_count;
					windows[creating].r_open = main_shared;
					windows[creating].opened = true;
					creating = -1;
				}
				if (pc == join) {
					for (int w = 0; w < nwindows; w++) {
						if (windows[w].opened && !windows[w].closed &&
						    (windows[w].life < 0 || !lives[windows[w].life].reader)) {
							windows[w].closed = true;
							windows[w].m_close = main_count;
							windows[w].r_close = main_shared;
							if (windows[w].life >= 0)
								lives[windows[w].life].over = true;
							break;
						}
					}
				}
				main_count += t->n;
				if (phase[cpu] == SHARED_PHASE)
					main_shared += t->n;
			} else if (cur_life[cpu] >= 0 && !lives[cur_life[cpu]].over &&
				   phase[cpu] != DEVICE_PHASE) {
				lives[cur_life[cpu]].w += t->n;
				if (phase[cpu] == SHARED_PHASE)
					lives[cur_life[cpu]].shared += t->n;
			}
		}
	}
	for (int w = 0; w < nwindows; w++) {
		const struct window *x = &windows[w];
		uint64_t m = x->m_close - x->m_open, r = x->r_close - x->r_open;

		if (!x->closed || x->life < 0 || lives[x->life].reader)
			continue;
		if (r || lives[x->life].shared) {
			shared[x->seg] += r + lives[x->life].shared;
			continue;
		}
		overlap[x->seg] += m < lives[x->life].w ? m : lives[x->life].w;
	}
	for (int s = 0; s <= (seg > rseg ? seg : rseg); s++)
		for (int th = 0; th < 3; th++)
			for (int p = 0; p < PHASES; p++)
				if (count[s][th][p])
					printf("%d %d %d %" PRIu64 "\n", s, th, p, count[s][th][p]);
	for (int s = 0; s <= seg; s++) {
		if (overlap[s])
			printf("overlap %d %" PRIu64 "\n", s, overlap[s]);
		if (shared[s])
			printf("shared %d %" PRIu64 "\n", s, shared[s]);
		if (syscalls[s])
			printf("syscalls %d %" PRIu64 "\n", s, syscalls[s]);
		if (readbytes[s])
			printf("readbytes %d %" PRIu64 "\n", s, readbytes[s]);
		if (writebytes[s])
			printf("writebytes %d %" PRIu64 "\n", s, writebytes[s]);
	}
	return 0;
}
