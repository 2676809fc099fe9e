// SPDX-License-Identifier: MIT
/*
 * csum_count.c - ttpu_binary_checksum() of a compiled program once, for
 * run-csum-armhf to count under qemu-arm: the file is mapped and its
 * pages touched first, so that the count is the checksum's alone.
 *
 *	csum_count FILE.ttpb
 *
 * Prints the checksum (it must be the one the file's header holds).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "program_binary.h"

int main(int argc, char **argv)
{
	const unsigned char *p;
	struct ttpb_header h;
	volatile unsigned char touched = 0;
	struct stat st;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: csum_count FILE.ttpb\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || (size_t)st.st_size < sizeof(h)) {
		perror(argv[1]);
		return 1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (off_t i = 0; i < st.st_size; i += 4096)
		touched ^= p[i];
	memcpy(&h, p, sizeof(h));
	if (ttpu_binary_checksum(p, (size_t)st.st_size) != h.checksum) {
		fprintf(stderr, "csum_count: %s: not the header's checksum\n", argv[1]);
		return 1;
	}
	printf("%016" PRIx64 "\n", h.checksum);
	return 0;
}
