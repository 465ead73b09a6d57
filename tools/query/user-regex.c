/* User regular expressions through PCRE2 (8-bit code units), with bounded matching. */
#include "user-regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

bool fw_regex_compile(struct fw_regex *re, const char *src, struct fw_error *err)
{
	memset(re, 0, sizeof(*re));
	if (strlen(src) > FW_REGEX_MAX_LEN)
		return fw_error_set(err, FW_E_INVALID, "regular expression longer than %d characters", FW_REGEX_MAX_LEN);
	int code;
	PCRE2_SIZE at;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED,
				      PCRE2_CASELESS | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_BACKSLASH_C, &code,
				      &at, NULL);
	if (!c) {
		PCRE2_UCHAR msg[256];
		if (pcre2_get_error_message(code, msg, sizeof(msg)) < 0)
			strcpy((char *)msg, "unknown error");
		return fw_error_set(err, FW_E_INVALID, "bad regular expression '%.80s': %s at character %zu", src,
				    (const char *)msg, (size_t)at);
	}
	pcre2_match_context *mc = pcre2_match_context_create(NULL);
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	if (!mc || !md) {
		pcre2_match_context_free(mc);
		pcre2_match_data_free(md);
		pcre2_code_free(c);
		return fw_error_set(err, FW_E_INTERNAL, "regular expression '%.80s': out of memory", src);
	}
	pcre2_set_match_limit(mc, FW_REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(mc, FW_REGEX_DEPTH_LIMIT);
	re->code = c;
	re->context = mc;
	re->match_data = md;
	re->source = fw_xstrdup(src);
	return true;
}

bool fw_regex_match(struct fw_regex *re, const char *s)
{
	if (re->limit_hit) /* once is enough: the command fails on it, not after every text */
		return false;
	int rc = pcre2_match(re->code, (PCRE2_SPTR)s, strlen(s), 0, 0, re->match_data, re->context);
	if (rc >= 0)
		return true;
	if (rc != PCRE2_ERROR_NOMATCH)
		re->limit_hit = true; /* match, depth or heap limit: the answer is not known */
	return false;
}

bool fw_regex_limit_error(const struct fw_regex *re, enum fw_error_code code, struct fw_error *err)
{
	return fw_error_set(err, code,
			    "regular expression '%.80s' needs more than %d matching steps or nesting deeper than %d: "
			    "simplify it (back-references and nested repetitions backtrack exponentially)",
			    re->source, FW_REGEX_MATCH_LIMIT, FW_REGEX_DEPTH_LIMIT);
}

void fw_regex_free(struct fw_regex *re)
{
	pcre2_match_data_free(re->match_data);
	pcre2_match_context_free(re->context);
	pcre2_code_free(re->code);
	free(re->source);
	memset(re, 0, sizeof(*re));
}
