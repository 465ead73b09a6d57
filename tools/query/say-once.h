/* A list of messages in which each says its thing once: models are built on demand by several
 * callers (a source's warnings), and a plan meets the same unknown condition in several settings
 * (its notes). */
#ifndef FW_SAY_ONCE_H
#define FW_SAY_ONCE_H

#include <stdarg.h>
#include <stddef.h>

/* The formatted message (at most 1023 bytes) appended to items[0..*n) unless it is there
 * already; the list and its strings are malloc'd (fw_say_once_free). */
void fw_say_once(char ***items, size_t *n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
void fw_say_once_free(char **items, size_t n);

#endif
