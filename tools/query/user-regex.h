/* Regular expressions from users (find's REGEX, the patterns of a --rules file), matched with
 * PCRE2's interpreter under a match limit and a depth limit, so no pattern can run for long
 * whatever it holds (back-references, nested repetitions) or whatever it is matched against.
 *
 * The flavour is POSIX extended as fwlens always documented it, with the options that keep its
 * meaning for a yes/no match: case ignored (CASELESS), '.' and negated lists also match a newline
 * and '$' only at the very end (DOTALL, DOLLAR_ENDONLY, as regcomp without REG_NEWLINE), bytes
 * rather than UTF-8 characters (no UTF mode, as the C locale). Whether a text matches does not
 * depend on leftmost-longest against leftmost-first, so POSIX and Perl agree on every expression
 * both accept. Perl syntax beyond ERE (\d, lazy quantifiers, look-around) is accepted too. */
#ifndef FW_USER_REGEX_H
#define FW_USER_REGEX_H

#include <stdbool.h>

#include "parsers/error.h"

/* Longest expression accepted; most backtracking steps and deepest nesting of one match
 * (the match limit is reached in well under a second, once: a pattern that reaches it ends the
 * command). */
#define FW_REGEX_MAX_LEN 2048
#define FW_REGEX_MATCH_LIMIT 1000000
#define FW_REGEX_DEPTH_LIMIT 5000

struct fw_regex {
	char *source;
	void *code, *match_data, *context; /* pcre2_code, pcre2_match_data, pcre2_match_context */
	bool limit_hit;                    /* a match ran into a limit: its answer is not known */
};

/* Compile `src`; on failure err says why (FW_E_INVALID) and names the expression. */
bool fw_regex_compile(struct fw_regex *re, const char *src, struct fw_error *err);
/* Whether `s` matches. A match that reaches a limit answers false and sets limit_hit, which the
 * caller turns into an error naming the expression (fw_regex_limit_error). */
bool fw_regex_match(struct fw_regex *re, const char *s);
/* The error for an expression whose match hit a limit (code as given: usage for an argument,
 * invalid for a rules file). Returns false. */
bool fw_regex_limit_error(const struct fw_regex *re, enum fw_error_code code, struct fw_error *err);
void fw_regex_free(struct fw_regex *re);

#endif
