/* Regular expressions from users (find's REGEX, the rules of a --rules file): POSIX extended,
 * case ignored, compiled only when their expanded size is bounded. The C library expands
 * repetitions by copying the repeated part (x+ is xx*, x{5} is xxxxx), so "(x+)+++..." or nested
 * intervals grow exponentially before matching starts; such expressions are refused with a
 * message instead of exhausting memory. */
#ifndef FW_USER_REGEX_H
#define FW_USER_REGEX_H

#include <regex.h>
#include <stdbool.h>

#include "parsers/error.h"

/* Longest expression accepted, largest expanded size (atoms after repetitions are copied), and
 * most repetition operators (each adds closures the matcher builds for every copy). */
#define FW_REGEX_MAX_LEN 2048
#define FW_REGEX_MAX_EXPANDED 512
#define FW_REGEX_MAX_REPEATS 32
#define FW_REGEX_MAX_STACKED 2 /* repetition operators in a row on one atom */

/* Compile `src` (REG_EXTENDED | REG_ICASE | REG_NOSUB); on failure err says why (FW_E_INVALID). */
bool fw_regex_compile(regex_t *re, const char *src, struct fw_error *err);

#endif
