#!/bin/sh
# User regular expressions (find's REGEX, --rules patterns) through PCRE2 with match and depth
# limits: a back-reference inside nested repetitions ran past 60 s in the C library's matcher.
. "$(dirname "$0")/lib.sh"
LIST="$FWLENS_SRCDIR/tests/data/query/settings.json"

# Every non-empty field matches; glibc backtracked for minutes on each prompt.
t_run find-backreference-fast 0 timeout 20 "$FWLENS" find "$LIST" '((.*)*\2)*$' --in prompt
[ "$(grep -c 'matched: prompt' "$T_OUT")" -ge 5 ] && pass find-backreference-matches || fail find-backreference-matches "$(tail -n 1 "$T_OUT")"
# A pattern that reaches the match limit on these prompts: exit 2, naming it, in well under a second.
t_run find-match-limit 2 timeout 20 "$FWLENS" find "$LIST" '^((.*)*\2)*[0-9]$' --in prompt
grep -q "regular expression '^((.\*)\*\\\\2)\*\[0-9\]\$' needs more than 1000000 matching steps" "$T_ERR" &&
	[ "$(wc -l <"$T_ERR")" -eq 1 ] && pass find-match-limit-message || fail find-match-limit-message "$(cat "$T_ERR")"
# The same pattern in a rules file: exit 3, naming the rule and the pattern.
printf '<topics version="1"><topic name="x" title="X"><description>d</description><setting id="slow"><prompt-regex>^((.*)*\\2)*[0-9]$</prompt-regex><why>w</why></setting></topic></topics>' >"$T_DIR/rules.xml"
t_run query-rules-match-limit 3 timeout 20 "$FWLENS" query "$LIST" --rules "$T_DIR/rules.xml"
grep -q "topic x, rule slow: regular expression '^((.\*)\*\\\\2)\*\[0-9\]\$' needs more than" "$T_ERR" &&
	pass query-rules-match-limit-message || fail query-rules-match-limit-message "$(cat "$T_ERR")"
# POSIX extended semantics kept: case ignored, alternation, anchors, bracket classes.
t_run find-posix-classes 0 fwlens find "$LIST" '^[[:upper:]]+ (node|mode)s? per socket$' --in prompt
t_contains find-posix-classes-hit 'NUMA nodes per socket'
