/* The running kernel's log on a live root: /dev/kmsg records (Documentation/ABI/testing/dev-kmsg)
 * turned into dmesg's lines, or the output of the dmesg program. */
#ifndef FW_KERNEL_LOG_H
#define FW_KERNEL_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Read every record the kernel still holds from a /dev/kmsg device (non-blocking: stops at the
 * newest) as dmesg lines. False with `why` when it cannot be opened or read, or holds nothing. */
bool fw_kernel_log_kmsg(const char *path, uint8_t **data, size_t *len, char *why, size_t whylen);
/* The output of the dmesg program, with a time limit. */
bool fw_kernel_log_dmesg(uint8_t **data, size_t *len, char *why, size_t whylen);
/* Records "PRIORITY,SEQUENCE,MICROSECONDS,FLAGS[,...];MESSAGE" (continuation lines " KEY=VALUE"
 * after each) as dmesg's "[SECONDS.MICROS] MESSAGE" lines; a record without a header is kept as
 * its text. Returns a malloc'd NUL-terminated buffer and its length. */
char *fw_kernel_log_from_kmsg(const char *records, size_t len, size_t *out_len);

#endif
