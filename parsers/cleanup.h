/* What to undo when the process ends early, by a signal (SIGINT, SIGTERM, SIGHUP, SIGXFSZ) or by
 * running out of memory: a temporary output file, a child process group (iasl) and its temporary
 * folder (and, through the hook, a progress line on the terminal). Registrations sit in fixed slots, so fw_cleanup_run can read them from a signal handler;
 * a thread may register while another does (parallel source opens run iasl side by side). */
#ifndef FW_CLEANUP_H
#define FW_CLEANUP_H

#include <stdbool.h>
#include <sys/types.h>

/* Each returns a slot number for the matching fw_cleanup_forget, or -1 when every slot is taken
 * (the work goes on; only the early-exit cleanup of that item is lost). */
int fw_cleanup_add_file(const char *path);   /* a file to unlink */
int fw_cleanup_add_folder(const char *path); /* a folder whose files are unlinked, then the folder */
int fw_cleanup_add_child(pid_t pgid);        /* a process group to SIGKILL and reap */
void fw_cleanup_forget(int slot);

/* A function fw_cleanup_run calls first (the command line clears its progress line, so the
 * out-of-memory line or the shell's prompt starts a line of its own); it must be
 * async-signal-safe. NULL removes it. */
void fw_cleanup_set_hook(void (*fn)(void));

/* Undo everything registered. Async-signal-safe; also called when memory runs out. */
void fw_cleanup_run(void);

#endif
