/* Replay main for fuzz targets: runs LLVMFuzzerTestOneInput on every file given (directories
 * are walked one level), so `make check` exercises the seed corpora without clang/libFuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return 1;
	}
	size_t cap = 1 << 16, n = 0, r;
	uint8_t *buf = malloc(cap);
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	fclose(f);
	if (!buf)
		return 1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0, count = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "missing %s\n", argv[i]);
			rc = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc |= run_file(argv[i]);
			count++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			rc |= run_file(path);
			count++;
		}
		if (d)
			closedir(d);
	}
	fprintf(stderr, "replayed %d inputs\n", count);
	return rc;
}
