#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static bool read_fd(int fd, const char *path, size_t cap, struct fw_file *f, struct fw_error *err)
{
	size_t size = 0, alloc = cap < 65536 ? cap : 65536;
	uint8_t *buf = fw_xmalloc(alloc ? alloc : 1);
	for (;;) {
		if (size == alloc) {
			if (alloc >= cap) {
				/* exactly `cap` bytes are allowed: only a byte past them is too much */
				uint8_t more;
				ssize_t r;
				while ((r = read(fd, &more, 1)) < 0 && errno == EINTR)
					;
				if (r == 0)
					break;
				free(buf);
				if (r < 0)
					return fw_error_errno(err, "%s: read failed", path);
				return fw_error_set(err, FW_E_LIMIT, "%s: input is larger than the limit of %zu bytes", path, cap);
			}
			alloc = alloc * 2 > cap ? cap : alloc * 2;
			buf = fw_xrealloc(buf, alloc);
		}
		ssize_t r = read(fd, buf + size, alloc - size);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return fw_error_errno(err, "%s: read failed", path);
		}
		if (r == 0)
			break;
		size += (size_t)r;
	}
	f->data = buf;
	f->len = size;
	f->mapped = false;
	return true;
}

bool fw_file_read(const char *path, size_t cap, struct fw_file *f, struct fw_error *err)
{
	memset(f, 0, sizeof(*f));
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return fw_error_errno(err, "%s: cannot open", path);
	bool ok = read_fd(fd, path, cap, f, err);
	if (fd != STDIN_FILENO)
		close(fd);
	if (ok)
		f->path = fw_xstrdup(path);
	return ok;
}

bool fw_file_open(const char *path, struct fw_file *f, struct fw_error *err)
{
	memset(f, 0, sizeof(*f));
	if (strcmp(path, "-") == 0)
		return fw_file_read(path, FW_FILE_READ_CAP, f, err);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return fw_error_errno(err, "%s: cannot open", path);
	struct stat st;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return fw_error_errno(err, "%s: cannot stat", path);
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return fw_error_set(err, FW_E_IO, "%s: is a directory", path);
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			close(fd);
			f->data = p;
			f->len = (size_t)st.st_size;
			f->mapped = true;
			f->path = fw_xstrdup(path);
			return true;
		}
	}
	bool ok = read_fd(fd, path, FW_FILE_READ_CAP, f, err);
	close(fd);
	if (ok)
		f->path = fw_xstrdup(path);
	return ok;
}

void fw_file_close(struct fw_file *f)
{
	if (!f)
		return;
	if (f->mapped)
		munmap((void *)f->data, f->len);
	else
		free((void *)f->data);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

bool fw_is_directory(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
