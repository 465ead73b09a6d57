/* Bounded compilation of user regular expressions. */
#include "user-regex.h"

#include <stdlib.h>
#include <string.h>

#define TOO_BIG (FW_REGEX_MAX_EXPANDED + 1)

static size_t sat_add(size_t a, size_t b)
{
	return a + b > TOO_BIG ? TOO_BIG : a + b;
}

static size_t sat_mul(size_t a, size_t b)
{
	return b && a > TOO_BIG / b ? TOO_BIG : a * b > TOO_BIG ? TOO_BIG : a * b;
}

/* Size of the alternation at s[*i] up to the matching ')' or the end, as the expansion of
 * repetitions makes it. Malformed input only has to terminate: regcomp judges it afterwards. */
static size_t expanded(const char *s, size_t *i, unsigned depth)
{
	size_t total = 0, cur = 0, last = 0;
	if (depth > 64)
		return TOO_BIG;
	/* a ')' closes a group; outside any group the C library takes it as an ordinary character */
	while (s[*i] && !(s[*i] == ')' && depth > 0)) {
		char c = s[*i];
		if (c == '(') {
			(*i)++;
			last = expanded(s, i, depth + 1);
			if (s[*i] == ')')
				(*i)++;
			cur = sat_add(cur, last);
		} else if (c == '|') {
			(*i)++;
			total = sat_add(total, cur);
			cur = last = 0;
		} else if (c == '[') {
			(*i)++;
			if (s[*i] == '^')
				(*i)++;
			if (s[*i] == ']')
				(*i)++;
			while (s[*i] && s[*i] != ']')
				(*i)++;
			if (s[*i])
				(*i)++;
			last = 1;
			cur = sat_add(cur, 1);
		} else if (c == '+' || c == '*' || c == '?' || c == '{') {
			/* every repetition operator doubles what it repeats at least: stacked ones ("B???+++",
			 * "((a?)?)?") multiply, and regcomp's epsilon closures grow with that product (28 '?'
			 * and 4 '+' after one atom took 11 s) */
			size_t factor = 2;
			(*i)++;
			if (c == '{') {
				char *end;
				unsigned long lo = strtoul(s + *i, &end, 10), hi = lo;
				if (*end == ',') {
					hi = end[1] == '}' ? lo + 1 : strtoul(end + 1, &end, 10);
					if (*end == ',')
						end++;
				}
				while (*end && *end != '}')
					end++;
				*i = (size_t)(end - s) + (*end == '}');
				factor = (lo > hi ? lo : hi) + 1;
				if (factor > TOO_BIG)
					factor = TOO_BIG;
			}
			/* the repeated part is copied factor - 1 more times */
			cur = sat_add(cur, sat_mul(last, factor - 1));
			last = sat_mul(last, factor);
		} else {
			if (c == '\\' && s[*i + 1])
				(*i)++;
			(*i)++;
			last = 1;
			cur = sat_add(cur, 1);
		}
	}
	return sat_add(total, cur);
}

bool fw_regex_compile(regex_t *re, const char *src, struct fw_error *err)
{
	if (strlen(src) > FW_REGEX_MAX_LEN)
		return fw_error_set(err, FW_E_INVALID, "regular expression longer than %d characters", FW_REGEX_MAX_LEN);
	/* Repetition operators stacked on one atom ("B???+") mean no more than one of them, but the C
	 * library's compiler grows exponentially with the stack when an anchor precedes it ("\\BB?????+++"
	 * took 1.7 s, one more '?' five times that): more than two in a row are refused. */
	size_t repeats = 0, stacked = 0;
	for (size_t k = 0; src[k]; k++) {
		if (src[k] == '\\' && src[k + 1]) {
			k++;
			stacked = 0;
		} else if (src[k] == '*' || src[k] == '+' || src[k] == '?' || src[k] == '{') {
			repeats++;
			if (++stacked > FW_REGEX_MAX_STACKED)
				return fw_error_set(err, FW_E_INVALID,
						    "regular expression '%.80s' stacks more than %d repetition operators on one atom", src,
						    FW_REGEX_MAX_STACKED);
			if (src[k] == '{')
				while (src[k + 1] && src[k] != '}')
					k++;
		} else {
			stacked = 0;
		}
	}
	if (repeats > FW_REGEX_MAX_REPEATS)
		return fw_error_set(err, FW_E_INVALID, "regular expression '%.80s' has more than %d repetition operators", src,
				    FW_REGEX_MAX_REPEATS);
	size_t i = 0, n = expanded(src, &i, 0);
	if (n > FW_REGEX_MAX_EXPANDED)
		return fw_error_set(err, FW_E_INVALID, "regular expression '%.80s' repeats too much (more than %d atoms once expanded)",
				    src, FW_REGEX_MAX_EXPANDED);
	int rc = regcomp(re, src, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc != 0) {
		char msg[256];
		regerror(rc, re, msg, sizeof(msg));
		return fw_error_set(err, FW_E_INVALID, "bad regular expression '%.80s': %s", src, msg);
	}
	return true;
}
