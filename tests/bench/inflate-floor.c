/* The floor for `fwlens tree`: how long the bare libraries take to inflate the compressed sections
 * of an image, with no parsing around them. It finds GUID-defined LZMA (EE4E5898) and AMD zlib
 * (CE3233F5) sections by their header bytes, inflates each with liblzma / zlib exactly once into a
 * buffer of the declared size, and looks for more inside the output (nested sections), timing only
 * the library calls.
 *
 *   inflate-floor IMAGE     prints "SECONDS BYTES SECTIONS" (inflate time, bytes out, sections)
 *
 * Built by `make bench` (tools/bench.sh); independent of libfwlens on purpose.
 */
#include <fcntl.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static const uint8_t lzma_guid[16] = {0x98, 0x58, 0x4E, 0xEE, 0x14, 0x39, 0x59, 0x42,
				      0x9D, 0x6E, 0xDC, 0x7B, 0xD7, 0x94, 0x03, 0xCF};
static const uint8_t zlib_guid[16] = {0xF5, 0x33, 0x32, 0xCE, 0xD6, 0x2C, 0x87, 0x4D,
				      0x91, 0x52, 0x4A, 0x23, 0x8B, 0xB6, 0xD1, 0xC4};

static double seconds;
static uint64_t bytes_out;
static unsigned sections;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | ((uint64_t)le32(p + 4) << 32);
}

static void scan(const uint8_t *b, size_t n, int depth);

static void inflate_lzma(const uint8_t *in, size_t n, int depth)
{
	if (n < 13 || in[0] >= 225)
		return;
	uint64_t size = le64(in + 5);
	if (size == 0 || size > (1u << 30))
		return;
	lzma_filter f = {.id = LZMA_FILTER_LZMA1, .options = NULL};
	if (lzma_properties_decode(&f, NULL, in, 5) != LZMA_OK)
		return;
	lzma_options_lzma *opt = f.options;
	if (opt->dict_size > size)
		opt->dict_size = size < 4096 ? 4096 : (uint32_t)size;
	opt->ext_flags = LZMA_LZMA1EXT_ALLOW_EOPM;
	opt->ext_size_low = (uint32_t)size;
	opt->ext_size_high = (uint32_t)(size >> 32);
	lzma_filter chain[2] = {{.id = LZMA_FILTER_LZMA1EXT, .options = opt}, {.id = LZMA_VLI_UNKNOWN, .options = NULL}};
	uint8_t *out = malloc(size);
	lzma_stream s = LZMA_STREAM_INIT;
	double t0 = now();
	bool ok = lzma_raw_decoder(&s, chain) == LZMA_OK;
	if (ok) {
		s.next_in = in + 13;
		s.avail_in = n - 13;
		s.next_out = out;
		s.avail_out = size;
		ok = lzma_code(&s, LZMA_FINISH) == LZMA_STREAM_END;
	}
	lzma_end(&s);
	seconds += now() - t0;
	free(opt);
	if (ok) {
		bytes_out += size;
		sections++;
		scan(out, size, depth + 1);
	}
	free(out);
}

static void inflate_amd_zlib(const uint8_t *in, size_t n, int depth)
{
	if (n < 0x100)
		return;
	size_t csize = le32(in + 0x14);
	if (csize == 0 || csize > n - 0x100)
		csize = n - 0x100;
	size_t cap = 64u << 20;
	uint8_t *out = malloc(cap);
	uLongf len = cap;
	double t0 = now();
	int rc = uncompress(out, &len, in + 0x100, csize);
	seconds += now() - t0;
	if (rc == Z_OK) {
		bytes_out += len;
		sections++;
		scan(out, len, depth + 1);
	}
	free(out);
}

/* A GUID-defined section header: u24 size, u8 type 2, GUID, u16 DataOffset, u16 Attributes. */
static void scan(const uint8_t *b, size_t n, int depth)
{
	if (depth > 8)
		return;
	for (size_t i = 4; i + 20 <= n;) {
		const uint8_t *hit = memchr(b + i, 0x98, n - i - 19);
		const uint8_t *hit2 = memchr(b + i, 0xF5, n - i - 19);
		if (!hit || (hit2 && hit2 < hit))
			hit = hit2;
		if (!hit)
			return;
		i = (size_t)(hit - b);
		bool is_lzma = memcmp(hit, lzma_guid, 16) == 0, is_zlib = memcmp(hit, zlib_guid, 16) == 0;
		if ((is_lzma || is_zlib) && b[i - 1] == 0x02) {
			size_t start = i - 4;
			size_t size = b[start] | (b[start + 1] << 8) | ((size_t)b[start + 2] << 16);
			size_t data = b[i + 16] | (b[i + 17] << 8);
			if (size <= n - start && data >= 0x18 && data < size) {
				if (is_lzma)
					inflate_lzma(b + start + data, size - data, depth);
				else
					inflate_amd_zlib(b + start + data, size - data, depth);
				i = start + size;
				continue;
			}
		}
		i++;
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: inflate-floor IMAGE\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
		perror(argv[1]);
		return 1;
	}
	const uint8_t *b = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (b == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	scan(b, (size_t)st.st_size, 0);
	printf("%.4f %llu %u\n", seconds, (unsigned long long)bytes_out, sections);
	return 0;
}
