/* Input files: opened read-only and memory-mapped (regular files), or read with a size cap
 * (pipes, stdin, sysfs files that report size 0). A pipe or socket ("-", /dev/fd/N, a FIFO) is
 * read once and kept: opening it again gives the same bytes. */
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
	bool shared; /* a stream's bytes, kept for the next open: not freed on close */
	char *path;
};

/* Default cap for inputs that cannot be mapped. */
#define FW_FILE_READ_CAP ((size_t)1 << 30)

/* A whole input: "-" means stdin. A character or block device (/dev/zero, a terminal) is refused
 * with FW_E_UNSUPPORTED: it is not a file and may never end. */
bool fw_file_open(const char *path, struct fw_file *f, struct fw_error *err);
/* Read a small file fully (sysfs attributes, /proc/cmdline), at most cap bytes. */
bool fw_file_read(const char *path, size_t cap, struct fw_file *f, struct fw_error *err);
/* Like fw_file_read, but a FIFO or pipe is read without blocking and given up (FW_E_IO) when its
 * data has not ended within `seconds`; a device is refused (FW_E_IO). For files the user names
 * beside the input (snapshot capture --dmesg), which nothing guarantees will ever end. */
bool fw_file_read_within(const char *path, size_t cap, unsigned seconds, struct fw_file *f, struct fw_error *err);
/* Read an open descriptor to its end, at most cap bytes (exactly cap is allowed; *over_cap says a
 * byte past it came). On failure errno is left as the failing read set it. */
bool fw_file_read_fd(int fd, const char *path, size_t cap, uint8_t **out, size_t *out_len, bool *over_cap,
		     struct fw_error *err);
void fw_file_close(struct fw_file *f);
/* A mapped input's pages leave the process's resident set (the bytes stay readable, read again
 * from the page cache on the next access): for a caller done with most of a big input. */
void fw_file_drop_resident(const struct fw_file *f);
bool fw_is_directory(const char *path);

/* What this thread is reading, named in the out-of-memory message (fw_file_open and fw_file_read
 * set it to their path). */
void fw_file_note_reading(const char *what);
const char *fw_file_reading(void);

#endif
