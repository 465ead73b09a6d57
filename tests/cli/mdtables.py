#!/usr/bin/env python3
"""Check that every markdown table in the files given pastes as it is: a blank line before it, a
header, a separator of one |---| per column, and rows with exactly as many cells (a | inside a cell
escaped as \\|, no line breaks inside a cell). Prints each broken table line; exit 1 if any."""
import re
import sys

UNESCAPED = re.compile(r"(?<!\\)\|")


def columns(line):
    return len(UNESCAPED.findall(line)) - 1


bad = []
tables = 0
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("|"):
            i += 1
            continue
        tables += 1
        where = "%s:%d" % (path, i + 1)
        if i > 0 and lines[i - 1].strip():
            bad.append("%s: no blank line before the table" % where)
        header = lines[i]
        n = columns(header)
        if not (header.startswith("| ") and header.endswith(" |")) or n < 1:
            bad.append("%s: header %r" % (where, header))
        sep = lines[i + 1] if i + 1 < len(lines) else ""
        if sep != "|" + "---|" * n:
            bad.append("%s: separator %r for %d columns" % (where, sep, n))
        i += 2
        while i < len(lines) and lines[i].startswith("|"):
            row = lines[i]
            if columns(row) != n or not row.endswith(" |") or not row.startswith("| "):
                bad.append("%s:%d: %d cells, the header has %d: %r" % (path, i + 1, columns(row), n, row[:160]))
            i += 1
        if i < len(lines) and lines[i].strip():
            bad.append("%s:%d: the table runs into text: %r" % (path, i + 1, lines[i][:80]))
if not tables:
    bad.append("no table in %s" % " ".join(sys.argv[1:]))
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
