/* Input files and early-exit cleanup: a pipe opened twice gives the same bytes, a device is refused,
 * a FIFO without a writer is given up at the deadline, and fw_cleanup_run removes a registered
 * file and folder and kills a registered process group. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "parsers/cleanup.h"
#include "parsers/file.h"

TEST(file_pipe_opened_twice_gives_the_same_bytes)
{
	int p[2];
	CHECK(pipe(p) == 0);
	static const char text[] = "the same bytes, twice";
	CHECK(write(p[1], text, sizeof(text)) == (ssize_t)sizeof(text));
	close(p[1]);
	char path[64];
	snprintf(path, sizeof(path), "/dev/fd/%d", p[0]);
	struct fw_file a, b;
	struct fw_error err;
	CHECK_MSG(fw_file_open(path, &a, &err), "%s", err.msg);
	CHECK_MSG(fw_file_open(path, &b, &err), "%s", err.msg);
	/* a smaller cap on a later read is still enforced */
	struct fw_file c;
	bool small = fw_file_read(path, 4, &c, &err);
	close(p[0]);
	CHECK(!small);
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK_EQ(a.len, sizeof(text));
	CHECK_EQ(b.len, sizeof(text));
	CHECK(memcmp(a.data, text, sizeof(text)) == 0 && memcmp(b.data, text, sizeof(text)) == 0);
	CHECK_STR(fw_file_reading(), path);
	fw_file_close(&a);
	fw_file_close(&b);
}

TEST(file_device_is_refused)
{
	struct fw_file f;
	struct fw_error err;
	CHECK(!fw_file_open("/dev/zero", &f, &err));
	CHECK_EQ(err.code, FW_E_UNSUPPORTED);
	CHECK_STR(err.msg, "/dev/zero: is a character device, not a file or a pipe");
	CHECK(!fw_file_read_within("/dev/zero", 1024, 1, &f, &err));
	CHECK_EQ(err.code, FW_E_IO);
}

TEST(file_fifo_without_writer_is_given_up)
{
	char dir[] = "/tmp/fwlens-unit-fifo.XXXXXX";
	CHECK(mkdtemp(dir));
	char fifo[64];
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct fw_file f;
	struct fw_error err;
	bool ok = fw_file_read_within(fifo, 1024, 1, &f, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	unlink(fifo);
	rmdir(dir);
	CHECK(!ok);
	CHECK_EQ(err.code, FW_E_IO);
	CHECK(strstr(err.msg, "no end of data within 1 s") != NULL);
	CHECK(t1.tv_sec - t0.tv_sec < 5);
}

TEST(cleanup_removes_file_folder_and_child)
{
	char dir[] = "/tmp/fwlens-unit-cleanup.XXXXXX";
	CHECK(mkdtemp(dir));
	char file[96], sub[64], inner[96];
	snprintf(file, sizeof(file), "%s/out.tmp-123456", dir);
	snprintf(sub, sizeof(sub), "%s/iasl", dir);
	CHECK(mkdir(sub, 0700) == 0);
	close(open(file, O_WRONLY | O_CREAT, 0600));
	for (int i = 0; i < 300; i++) { /* more entries than one getdents64 buffer holds */
		snprintf(inner, sizeof(inner), "%s/table%03d.dsl", sub, i);
		close(open(inner, O_WRONLY | O_CREAT, 0600));
	}
	pid_t child = fork();
	if (child == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	CHECK(child > 0);
	int sf = fw_cleanup_add_file(file), sd = fw_cleanup_add_folder(sub), sc = fw_cleanup_add_child(child);
	CHECK(sf >= 0 && sd >= 0 && sc >= 0);
	fw_cleanup_run();
	CHECK(access(file, F_OK) != 0 && errno == ENOENT);
	CHECK(access(sub, F_OK) != 0 && errno == ENOENT);
	CHECK(kill(child, 0) != 0 && errno == ESRCH); /* killed and reaped */
	/* a forgotten registration is left alone */
	close(open(file, O_WRONLY | O_CREAT, 0600));
	fw_cleanup_forget(fw_cleanup_add_file(file));
	fw_cleanup_run();
	CHECK(access(file, F_OK) == 0);
	unlink(file);
	rmdir(dir);
}
