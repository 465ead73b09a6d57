#include "cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { SLOT_FREE, SLOT_FILLING, SLOT_ARMED };
enum kind { KIND_FILE, KIND_FOLDER, KIND_CHILD };

#define SLOTS 16

static struct {
	int state; /* read and written atomically: a handler only trusts an armed slot */
	enum kind kind;
	pid_t pgid;
	char path[4096];
} slots[SLOTS];

static int add(enum kind kind, const char *path, pid_t pgid)
{
	if (path && strlen(path) >= sizeof(slots[0].path))
		return -1;
	for (int i = 0; i < SLOTS; i++) {
		int expected = SLOT_FREE;
		if (!__atomic_compare_exchange_n(&slots[i].state, &expected, SLOT_FILLING, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		slots[i].kind = kind;
		slots[i].pgid = pgid;
		if (path)
			strcpy(slots[i].path, path);
		__atomic_store_n(&slots[i].state, SLOT_ARMED, __ATOMIC_RELEASE);
		return i;
	}
	return -1;
}

int fw_cleanup_add_file(const char *path)
{
	return add(KIND_FILE, path, 0);
}

int fw_cleanup_add_folder(const char *path)
{
	return add(KIND_FOLDER, path, 0);
}

int fw_cleanup_add_child(pid_t pgid)
{
	return pgid > 0 ? add(KIND_CHILD, NULL, pgid) : -1;
}

void fw_cleanup_forget(int slot)
{
	if (slot >= 0 && slot < SLOTS)
		__atomic_store_n(&slots[slot].state, SLOT_FREE, __ATOMIC_RELEASE);
}

/* The kernel's directory record (getdents64): readdir is not async-signal-safe, the system call is. */
struct dirent64_record {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static void remove_folder(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		char buf[4096] __attribute__((aligned(8)));
		/* unlinking while listing may hide entries from this pass: list again until nothing is left */
		for (int pass = 0; pass < 64; pass++) {
			bool removed = false;
			long n;
			while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
				for (long o = 0; o < n;) {
					struct dirent64_record *e = (struct dirent64_record *)(buf + o);
					o += e->reclen;
					if (strcmp(e->name, ".") != 0 && strcmp(e->name, "..") != 0 &&
					    unlinkat(fd, e->name, 0) == 0)
						removed = true;
				}
			if (!removed || lseek(fd, 0, SEEK_SET) != 0)
				break;
		}
		close(fd);
	}
	rmdir(path);
}

static void (*volatile hook)(void);

void fw_cleanup_set_hook(void (*fn)(void))
{
	hook = fn;
}

void fw_cleanup_run(void)
{
	int saved = errno;
	void (*fn)(void) = hook;
	if (fn)
		fn();
	/* children first: they may still be writing into a folder below */
	for (int i = 0; i < SLOTS; i++)
		if (__atomic_load_n(&slots[i].state, __ATOMIC_ACQUIRE) == SLOT_ARMED && slots[i].kind == KIND_CHILD) {
			kill(-slots[i].pgid, SIGKILL);
			kill(slots[i].pgid, SIGKILL);
			while (waitpid(slots[i].pgid, NULL, 0) < 0 && errno == EINTR)
				;
			__atomic_store_n(&slots[i].state, SLOT_FREE, __ATOMIC_RELEASE);
		}
	for (int i = 0; i < SLOTS; i++)
		if (__atomic_load_n(&slots[i].state, __ATOMIC_ACQUIRE) == SLOT_ARMED && slots[i].kind != KIND_CHILD) {
			if (slots[i].kind == KIND_FILE)
				unlink(slots[i].path);
			else
				remove_folder(slots[i].path);
			__atomic_store_n(&slots[i].state, SLOT_FREE, __ATOMIC_RELEASE);
		}
	errno = saved;
}
