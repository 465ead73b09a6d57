#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* --- streams: read once, kept in memory -------------------------------------------------------- */

/* A pipe, socket or standard input can be read only once, but a command may open its input more
 * than once (as firmware, then as a section file or a module body). Streams are read whole the first
 * time and every later open gets the same bytes. Known by device and inode, so "-", /dev/fd/0 and
 * /dev/stdin name the same stream when they are the same pipe. */
struct stream {
	dev_t dev;
	ino_t ino;
	uint8_t *data;
	size_t len;
	size_t over_cap; /* nonzero: the stream went past this cap, and what was read is not all of it */
	struct stream *next;
};

static struct stream *streams;
static pthread_mutex_t streams_mu = PTHREAD_MUTEX_INITIALIZER;

static bool is_stream(const struct stat *st)
{
	return S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode);
}

bool fw_file_read_fd(int fd, const char *path, size_t cap, uint8_t **out, size_t *out_len, bool *over_cap,
		    struct fw_error *err)
{
	size_t size = 0, alloc = cap < 65536 ? cap : 65536;
	uint8_t *buf = fw_xmalloc(alloc ? alloc : 1);
	*over_cap = false;
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
				*over_cap = true;
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
	*out = buf;
	*out_len = size;
	return true;
}

/* The bytes of the stream open as fd: read now (up to cap) or taken from an earlier read. */
static bool read_stream(int fd, const struct stat *st, const char *path, size_t cap, struct fw_file *f,
			struct fw_error *err)
{
	pthread_mutex_lock(&streams_mu);
	struct stream *s = streams;
	while (s && !(s->dev == st->st_dev && s->ino == st->st_ino))
		s = s->next;
	bool ok = true;
	if (!s) {
		s = fw_xcalloc(1, sizeof(*s));
		s->dev = st->st_dev;
		s->ino = st->st_ino;
		bool over = false;
		ok = fw_file_read_fd(fd, path, cap, &s->data, &s->len, &over, err);
		if (over)
			s->over_cap = cap;
		if (ok || over) {
			s->next = streams;
			streams = s;
		} else {
			free(s);
			s = NULL;
		}
	} else if (s->over_cap) {
		ok = fw_error_set(err, FW_E_LIMIT, "%s: input is larger than the limit of %zu bytes", path, s->over_cap);
	} else if (s->len > cap) {
		ok = fw_error_set(err, FW_E_LIMIT, "%s: input is larger than the limit of %zu bytes", path, cap);
	}
	if (ok) {
		f->data = s->data;
		f->len = s->len;
		f->shared = true;
	}
	pthread_mutex_unlock(&streams_mu);
	return ok;
}

/* --- what is being read, for the out-of-memory message ----------------------------------------- */

static _Thread_local char reading[512];

void fw_file_note_reading(const char *what)
{
	snprintf(reading, sizeof(reading), "%s", what ? what : "");
}

const char *fw_file_reading(void)
{
	return reading;
}

/* --- opening ---------------------------------------------------------------------------------- */

static bool read_path(const char *path, size_t cap, bool whole_input, struct fw_file *f, struct fw_error *err)
{
	memset(f, 0, sizeof(*f));
	bool is_stdin = strcmp(path, "-") == 0;
	fw_file_note_reading(is_stdin ? "standard input" : path);
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return fw_error_errno(err, "%s: cannot open", path);
	struct stat st;
	bool ok = true;
	if (fstat(fd, &st) != 0) {
		ok = fw_error_errno(err, "%s: cannot stat", path);
	} else if (S_ISDIR(st.st_mode)) {
		ok = fw_error_set(err, FW_E_IO, "%s: is a directory", path);
	} else if (is_stream(&st)) {
		ok = read_stream(fd, &st, is_stdin ? "standard input" : path, cap, f, err);
	} else if (!S_ISREG(st.st_mode) && (whole_input || is_stdin)) {
		/* /dev/zero, a terminal, a disk: no end to wait for, or not an input file */
		ok = fw_error_set(err, FW_E_UNSUPPORTED, "%s: is a %s, not a file or a pipe", is_stdin ? "standard input" : path,
				  S_ISCHR(st.st_mode) ? "character device" : S_ISBLK(st.st_mode) ? "block device" : "special file");
	} else if (whole_input && st.st_size > 0 && (!is_stdin || lseek(fd, 0, SEEK_CUR) == 0)) {
		/* mapped, not read: standard input redirected from a file gives the same bytes every open */
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			f->data = p;
			f->len = (size_t)st.st_size;
			f->mapped = true;
		} else {
			bool over;
			uint8_t *data;
			ok = fw_file_read_fd(fd, path, cap, &data, &f->len, &over, err);
			f->data = data;
		}
	} else {
		bool over;
		uint8_t *data;
		ok = fw_file_read_fd(fd, path, cap, &data, &f->len, &over, err);
		f->data = data;
	}
	if (!is_stdin)
		close(fd);
	if (ok)
		f->path = fw_xstrdup(path);
	return ok;
}

bool fw_file_read(const char *path, size_t cap, struct fw_file *f, struct fw_error *err)
{
	return read_path(path, cap, false, f, err);
}

bool fw_file_open(const char *path, struct fw_file *f, struct fw_error *err)
{
	return read_path(path, FW_FILE_READ_CAP, true, f, err);
}

/* A FIFO or pipe whose writer may never finish: read without blocking, polling until the deadline. */
static bool read_fd_within(int fd, const char *path, size_t cap, unsigned seconds, struct fw_file *f, struct fw_error *err)
{
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	size_t size = 0, alloc = 65536 < cap ? 65536 : cap;
	uint8_t *buf = fw_xmalloc(alloc ? alloc : 1);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		long left_ms = (long)seconds * 1000 - ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left_ms <= 0) {
			free(buf);
			return fw_error_set(err, FW_E_IO, "%s: no end of data within %u s (a FIFO whose writer does not finish)", path,
					    seconds);
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int pr = poll(&p, 1, (int)left_ms);
		if (pr < 0 && errno != EINTR) {
			free(buf);
			return fw_error_errno(err, "%s: read failed", path);
		}
		if (pr <= 0)
			continue;
		if (size == alloc) {
			if (alloc >= cap) {
				free(buf);
				return fw_error_set(err, FW_E_LIMIT, "%s: input is larger than the limit of %zu bytes", path, cap);
			}
			alloc = alloc * 2 > cap ? cap : alloc * 2;
			buf = fw_xrealloc(buf, alloc);
		}
		ssize_t r = read(fd, buf + size, alloc - size);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0) {
			free(buf);
			return fw_error_errno(err, "%s: read failed", path);
		}
		if (r == 0) {
			/* a FIFO reads as ended while no writer has opened it yet: wait for one until the deadline */
			if (p.revents & POLLHUP || size)
				break;
			struct timespec nap = {0, 20 * 1000 * 1000};
			nanosleep(&nap, NULL);
			continue;
		}
		size += (size_t)r;
	}
	f->data = buf;
	f->len = size;
	return true;
}

bool fw_file_read_within(const char *path, size_t cap, unsigned seconds, struct fw_file *f, struct fw_error *err)
{
	memset(f, 0, sizeof(*f));
	fw_file_note_reading(path);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return fw_error_errno(err, "%s: cannot open", path);
	struct stat st;
	bool ok;
	if (fstat(fd, &st) != 0) {
		ok = fw_error_errno(err, "%s: cannot stat", path);
	} else if (S_ISDIR(st.st_mode)) {
		ok = fw_error_set(err, FW_E_IO, "%s: is a directory", path);
	} else if (S_ISREG(st.st_mode)) {
		close(fd);
		return fw_file_read(path, cap, f, err);
	} else if (is_stream(&st)) {
		ok = read_fd_within(fd, path, cap, seconds, f, err);
	} else {
		ok = fw_error_set(err, FW_E_IO, "%s: is a %s, not a file or a pipe", path,
				  S_ISCHR(st.st_mode) ? "character device" : S_ISBLK(st.st_mode) ? "block device" : "special file");
	}
	close(fd);
	if (ok)
		f->path = fw_xstrdup(path);
	return ok;
}

void fw_file_drop_resident(const struct fw_file *f)
{
	/* a private read-only mapping: its pages come back from the page cache when read again */
	if (f && f->mapped && f->len)
		madvise((void *)f->data, f->len, MADV_DONTNEED);
}

void fw_file_close(struct fw_file *f)
{
	if (!f)
		return;
	if (f->mapped)
		munmap((void *)f->data, f->len);
	else if (!f->shared)
		free((void *)f->data);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

bool fw_is_directory(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
