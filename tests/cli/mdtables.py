#!/usr/bin/env python3
"""Check that every markdown table in the files given pastes as it is: a blank line before it, a
header, a separator of one |---| per column, and rows with exactly as many cells (a | inside a cell
escaped as \\|, no line breaks inside a cell). Outside fenced code blocks and code spans, no text
may open raw HTML, a comment or an autolink ('<' before a letter, '/', '!' or '?' without a
backslash), and a cell may not hold a backtick that opens no code span (it would swallow what
follows). With --forbid-line-start TEXT (repeatable), no line may begin with TEXT: a hostile
string that made its own heading or table row. Prints each broken line; exit 1 if any."""
import re
import sys

UNESCAPED = re.compile(r"(?<!\\)\|")
RAW_HTML = re.compile(r"(?<!\\)<[A-Za-z/!?]")
FENCE = re.compile(r"^(`{3,}|~{3,})")


def columns(line):
    return len(UNESCAPED.findall(line)) - 1


def without_code_spans(text):
    """The text with its code spans removed, and whether a backtick run was left unclosed."""
    out, i, unclosed = [], 0, False
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append(text[i:i + 2])
            i += 2
            continue
        if text[i] != "`":
            out.append(text[i])
            i += 1
            continue
        run = len(text[i:]) - len(text[i:].lstrip("`"))
        close = re.compile(r"(?<!`)" + "`" * run + r"(?!`)").search(text, i + run)
        if not close:
            unclosed = True
            out.append(text[i:i + run])
            i += run
            continue
        i = close.end()
    return "".join(out), unclosed


args = sys.argv[1:]
forbidden = []
while "--forbid-line-start" in args:
    k = args.index("--forbid-line-start")
    forbidden.append(args[k + 1])
    del args[k:k + 2]

bad = []
tables = 0
for path in args:
    lines = open(path, encoding="utf-8").read().split("\n")
    fence = None
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if line.startswith(fence[0] * len(fence)) and not line.strip(fence[0]):
                fence = None
            continue
        for text in forbidden:
            if line.startswith(text):
                bad.append("%s:%d: a line begins with %r: %r" % (path, n, text, line[:80]))
        plain, _ = without_code_spans(line)
        if RAW_HTML.search(plain):
            bad.append("%s:%d: raw HTML: %r" % (path, n, line[:120]))
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
            for cell in UNESCAPED.split(row)[1:-1]:
                if without_code_spans(cell)[1]:
                    bad.append("%s:%d: a backtick opens no code span in %r" % (path, i + 1, cell[:80]))
            i += 1
        if i < len(lines) and lines[i].strip():
            bad.append("%s:%d: the table runs into text: %r" % (path, i + 1, lines[i][:80]))
if not tables:
    bad.append("no table in %s" % " ".join(args))
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
