/* Input files: opened read-only and memory-mapped (regular files), or read with a size cap
 * (pipes, stdin, sysfs files that report size 0). */
#ifndef FW_FILE_H
#define FW_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct fw_file {
	const uint8_t *data;
	size_t len;
	bool mapped;
	char *path;
};

/* Default cap for inputs that cannot be mapped. */
#define FW_FILE_READ_CAP ((size_t)1 << 30)

/* "-" means stdin. */
bool fw_file_open(const char *path, struct fw_file *f, struct fw_error *err);
/* Read a small file fully (sysfs attributes, /proc/cmdline), at most cap bytes. */
bool fw_file_read(const char *path, size_t cap, struct fw_file *f, struct fw_error *err);
void fw_file_close(struct fw_file *f);
bool fw_is_directory(const char *path);

#endif
