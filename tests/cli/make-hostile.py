#!/usr/bin/env python3
"""Hostile firmware inputs for the CLI tests (t9010-hostile.sh, t9020-limits.sh), built at test
time with the encoders of tests/data/firmware/make-fixtures.py.

    make-hostile.py names OUT          a volume whose files carry UI names that try to escape an
                                       extraction folder or a terminal, and nested volumes with
                                       long names
    make-hostile.py nested N OUT       N volumes, each inside a volume image section of a file of
                                       the one before: the deepest node at depth 3 * N - 1
    make-hostile.py nestedfile N OUT   the same inside one more file and section: depth 3 * N + 1
    make-hostile.py sections N OUT     one file holding N empty raw sections (N + 3 nodes)
    make-hostile.py uiname N OUT       a file whose UI section holds N characters
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "fixtures", os.path.join(HERE, "..", "data", "firmware", "make-fixtures.py"))
fx = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fx)

HOSTILE_NAMES = [
    "../../../../tmp/fwlens-escape", "/etc/passwd", "..", ".", "...", "~", "-rf", " ", "",
    "$(touch PWNED)", "`touch PWNED`", "a\\..\\..\\b", "CON", "\u202eexe.txt", "\u00e9t\u00e9 \u00fcn\u00efcode",
    "\x1b]0;title\x07\x1b[2J", "\x7fdel", "x" * 4000, "name/with/slashes", "tab\there\nnewline",
]


def guid(i, tag=0xE1):
    return fx.g("%08X-0000-4000-8000-%012X" % (tag << 24, i))


def fit(content_len):
    """Volume length for content: header, ext-header pad file, 8-byte alignment, in 0x100 blocks."""
    return (content_len + 0x48 + 0x30 + 0x100 + 0xFF) & ~0xFF


def volume_of(files, tag):
    body = sum(len(f) + 8 for f in files)
    return fx.volume(files, fit(body), guid(0xF0, tag))


def names_volume():
    files = []
    for i, name in enumerate(HOSTILE_NAMES):
        files.append(fx.ffs_file(guid(i + 1), 0x02,
                                 fx.sections(fx.section(0x15, fx.ucs2(name)), fx.section(0x19, b"payload %d" % i))))
    # nested volumes, each file with an 80+ character name: deep folders with long names
    inner = volume_of([fx.ffs_file(guid(0x100), 0x02, fx.section(0x19, b"deepest"))], 0xE2)
    for level in range(12):
        name = ("level %02d " % level) + "L" * 120
        f = fx.ffs_file(guid(0x200 + level), 0x0B,
                        fx.sections(fx.section(0x15, fx.ucs2(name)), fx.section(0x17, inner)))
        inner = volume_of([f], 0xE3)
    files.append(fx.ffs_file(guid(0x300), 0x0B, fx.section(0x17, inner)))
    return volume_of(files, 0xE1)


def nested(n):
    inner = volume_of([fx.ffs_file(guid(0x100), 0x02, fx.section(0x19, b"deepest"))], 0xE4)
    for level in range(n - 1):
        inner = volume_of([fx.ffs_file(guid(0x400 + level), 0x0B, fx.section(0x17, inner))], 0xE4)
    return inner


def many_sections(n):
    body = b"".join(fx.section(0x19, b"") for _ in range(n))
    return volume_of([fx.ffs_file(guid(0x500), 0x02, body, large=len(body) + 24 > 0xFFFFFF)], 0xE5)


def ui_name(n):
    return volume_of([fx.ffs_file(guid(0x600), 0x02, fx.sections(fx.section(0x15, fx.ucs2("N" * n)),
                                                                  fx.section(0x19, b"x")))], 0xE6)


def main():
    what = sys.argv[1]
    if what == "names":
        data, out = names_volume(), sys.argv[2]
    elif what == "nested":
        data, out = nested(int(sys.argv[2])), sys.argv[3]
    elif what == "nestedfile":
        data, out = fx.ffs_file(guid(0x700), 0x0B, fx.section(0x17, nested(int(sys.argv[2])))), sys.argv[3]
    elif what == "sections":
        data, out = many_sections(int(sys.argv[2])), sys.argv[3]
    elif what == "uiname":
        data, out = ui_name(int(sys.argv[2])), sys.argv[3]
    else:
        raise SystemExit(__doc__)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
