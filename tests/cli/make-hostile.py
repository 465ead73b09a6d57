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
    make-hostile.py forms OUT EFIVARS  an HII package list (OUT) whose prompts, option texts,
                                       defaults, help, x-UEFI keywords and a varstore name hold
                                       quotes, $(...), backticks, line feeds, ESC/BEL/C1 controls
                                       and long strings (HOSTILE_FORMS says which), and its
                                       variables as efivarfs files in the folder EFIVARS
    make-hostile.py formsvol OUT       a volume with one setup module: an HII package list whose
                                       formset, form, prompts, help texts and options carry the
                                       strings of HOSTILE_TEXTS, a varstore name of bytes that are
                                       not UTF-8, and the module's UI name hostile too
"""
import importlib.util
import os
import struct
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


# What a writer of each output language must survive: quotes and shell, markdown breakouts, raw
# HTML, terminal escapes (ESC, BEL, CSI, OSC), C1 controls, a bidi override, wide characters and
# a long string.
HOSTILE_TEXTS = [
    "Quote \" and ' $(touch PWNED) `id`",
    "Pipe | cell | break",
    "\n# Forged heading\n| forged | row |",
    "<script>alert(1)</script><!-- comment",
    "\x1b]0;title\x07\x1b[2J\x1b[31mred\x1b[0m",
    "C1 \u009b31m and \u0085 next line",
    "\u202eRTL override",
    "Wide \u542f\u52a8 \u8bbe\u7f6e",
    "Long " + "L" * 600,
]
PLATFORM_SETUP = fx.g("93039971-8545-4B04-B45E-32EB8326040E")
FORMSET = fx.g("F1E2D3C4-0025-4F25-8025-000000000025")
VARSTORE = fx.g("F1E2D3C4-0025-4F25-8025-0000000000A5")


def ifr(opcode, body, scope=False):
    return bytes([opcode, (len(body) + 2) | (0x80 if scope else 0)]) + body


def volume_string_package(texts):
    """EFI_HII_STRING_PACKAGE_HDR (en-US) with one SIBT_STRING_UCS2 block per text, ids from 1."""
    lang = b"en-US\0"
    hdr_size = 4 + 4 + 4 + 32 + 2 + len(lang)
    blocks = b"".join(b"\x14" + fx.ucs2(t) for t in texts) + b"\x00"
    body = struct.pack("<II", hdr_size, hdr_size) + bytes(32) + struct.pack("<H", 1) + lang + blocks
    return struct.pack("<I", 4 + len(body))[:3] + b"\x04" + body


def volume_form_package(nquestions, varstore_name):
    """FORM_SET > VARSTORE, FORM > ONE_OF questions of two options each; string ids as
    hostile_forms_volume lays them out."""
    ops = ifr(0x0E, FORMSET + struct.pack("<HHB", 2, 3, 1) + PLATFORM_SETUP, scope=True)
    ops += ifr(0x24, VARSTORE + struct.pack("<HH", 1, 64) + varstore_name + b"\0")
    ops += ifr(0x01, struct.pack("<HH", 1, 4), scope=True)
    for q in range(nquestions):
        sid = 5 + 4 * q
        ops += ifr(0x05, struct.pack("<HHHHHBBBBB", sid, sid + 1, 0x100 + q, 1, q, 0, 0, 0, 1, 0), scope=True)
        ops += ifr(0x09, struct.pack("<HBBB", sid + 2, 0x10, 0, 0))
        ops += ifr(0x09, struct.pack("<HBBB", sid + 3, 0, 0, 1))
        ops += ifr(0x29, b"")
    ops += ifr(0x29, b"") + ifr(0x29, b"")
    return struct.pack("<I", 4 + len(ops))[:3] + b"\x02" + ops


def hostile_forms_volume():
    """Strings: 1 language name, 2 formset title, 3 formset help, 4 form title, then per question
    its prompt, help and two options, every one of them a hostile text."""
    n = len(HOSTILE_TEXTS)
    texts = ["English", HOSTILE_TEXTS[4] + " setup", HOSTILE_TEXTS[2], HOSTILE_TEXTS[1] + " form"]
    for q in range(n):
        texts += [HOSTILE_TEXTS[q], HOSTILE_TEXTS[(q + 1) % n], HOSTILE_TEXTS[(q + 2) % n] + " on",
                  HOSTILE_TEXTS[(q + 3) % n] + " off"]
    packages = volume_string_package(texts) + volume_form_package(n, b"Setup\xff\xfe|`$(id)`\x1b[2J")
    packages += struct.pack("<I", 4)[:3] + b"\xdf"
    package_list = fx.g("A1B2C3D4-0025-4025-8025-000000000025") + struct.pack("<I", 20 + len(packages)) + packages
    module = fx.ffs_file(guid(0x500), 0x07, fx.sections(fx.section(0x10, fx.pe32()), fx.section(0x19, package_list),
                                                        fx.section(0x15, fx.ucs2(HOSTILE_TEXTS[2] + " module"))))
    return volume_of([module], 0xE7)


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


# A command that must never run: every test checks that no file PWNED appears.
RUN = "$(touch PWNED)"
SETUP_GUID = "EC87D643-EBA4-4BB5-A1E5-3F3E36B20DA9"
EVIL_GUID = "A1B2C3D4-0000-4000-8000-00000000E5C1"
EVIL_VARSTORE = b"Evil\n" + RUN.encode() + b"\xff"  # ASCII name with a line feed and a byte that is not UTF-8
# (prompt, x-UEFI keyword or None, help, [(option text, value)], default value, offset, varstore)
# Offsets are in Setup (id 1) or in the hostile varstore (id 2).
HOSTILE_FORMS = [
    # 1: an option text with a line feed and a command (the efivarfs script ran it, even dry)
    ("Boot Mode", "BootMode", "help", [("Safe", 0), ("Evil\n" + RUN + "\necho pwned", 1)], 0, 0, 1),
    # 2: quotes, backticks, $(...) and a "//" in texts an AMISCE script can carry as they are
    ("Quote ' \" `touch PWNED` " + RUN + " ; rm -rf ~ // not a comment", "Quote$(touch PWNED)`x`",
     "it's \"quoted\"", [("Off 'a' \"b\"", 0), ("On `touch PWNED` " + RUN, 1)], 0, 1, 1),
    # 3: a default text with line feeds that would forge a whole Setup Question block
    ("Forge Default", "ForgeDefault", "help",
     [("Normal", 0), ("Auto\nSetup Question\t= Forged\nToken\t=1\nOffset\t=0\nWidth\t=01\nValue\t=<1>", 1)], 1, 2, 1),
    # 4: terminal controls in the prompt: ESC (OSC title, CSI), BEL, C1 CSI, NEL, a bidirectional override
    ("Term \x1b]0;pwned\x07 \x1b[2J \u009b31m \u0085 \u202eevil", "TermKw", "help", [("A", 0), ("B", 1)], 0, 3, 1),
    # 5: a long prompt and a help text with line breaks, ESC and a command (help is layout)
    ("Long " + "L" * 3000, "SharedKw", "line one\nline two\r\n\x1b[31m" + RUN, [("Off", 0), ("On", 1)], 0, 4, 1),
    # 6: the same x-UEFI keyword as 5 (a Redfish body cannot carry both)
    ("Shared Twin", "SharedKw", "help", [("Off", 0), ("On", 1)], 0, 5, 1),
    # 7: plain texts in the varstore whose name holds a line feed and a command
    ("In Evil Store", "EvilStore", "help", [("Off", 0), ("On", 1)], 0, 0, 2),
    # 8: a line feed in the keyword
    ("Keyword Break", "Kw\n" + RUN, "help", [("Off", 0), ("On", 1)], 0, 6, 1),
    # 9: blanks around a prompt and before an option text, which AMISCE keeps (ASUS indents prompts)
    ("  Spaced Prompt  ", "Spaced", "  help  ", [(" Off", 0), ("  On", 1)], 0, 7, 1),
]


def package(ptype, body):
    return struct.pack("<I", (4 + len(body)) | (ptype << 24)) + body


def string_package(lang, texts):
    """texts[i] is string id i + 1; None is skipped (SIBT_SKIP1)."""
    hdr = 46 + len(lang) + 1
    body = struct.pack("<II", hdr, hdr) + b"\0" * 32 + struct.pack("<H", 1) + lang.encode() + b"\0"
    for t in texts:
        body += b"\x22\x01" if t is None else b"\x14" + fx.ucs2(t)
    return package(0x04, body + b"\0")


def op(code, payload, scope=False):
    return bytes([code, (2 + len(payload)) | (0x80 if scope else 0)]) + payload


def form_package(ids):
    """FORM_SET > VARSTOREs, FORM > one ONE_OF per HOSTILE_FORMS row; ids maps texts to string ids."""
    b = op(0x0E, fx.g("F1E2D3C4-00E5-4F00-8000-0000000000E5") + struct.pack("<HHB", ids["Hostile"], ids[""], 0), True)
    b += op(0x5C, struct.pack("<HH", 0, 0))  # DEFAULTSTORE standard
    b += op(0x24, fx.g(SETUP_GUID) + struct.pack("<HH", 1, 16) + b"Setup\0")
    b += op(0x24, fx.g(EVIL_GUID) + struct.pack("<HH", 2, 16) + EVIL_VARSTORE + b"\0")
    b += op(0x01, struct.pack("<HH", 1, ids["Main"]), True)
    for n, (prompt, _kw, helptext, options, default, offset, vs) in enumerate(HOSTILE_FORMS):
        qh = struct.pack("<HHHHHB", ids[prompt], ids[helptext], 0x100 + n, vs, offset, 0)
        b += op(0x05, qh + bytes([0, 0, len(options) - 1, 1]), True)  # one byte: flags, min, max, step
        for text, value in options:
            b += op(0x09, struct.pack("<HBBB", ids[text], 0x10 if value == default else 0, 0, value))
        b += op(0x29, b"")
    b += op(0x29, b"") + op(0x29, b"")  # end FORM, end FORM_SET
    return package(0x02, b)


def hostile_forms():
    texts = ["Hostile", "", "Main"]
    for prompt, _kw, helptext, options, _d, _o, _v in HOSTILE_FORMS:
        for t in [prompt, helptext] + [o[0] for o in options]:
            if t not in texts:
                texts.append(t)
    ids = {t: i + 1 for i, t in enumerate(texts)}
    keywords = [None] * len(texts)
    for prompt, kw, *_ in HOSTILE_FORMS:
        if kw:
            keywords[ids[prompt] - 1] = kw
    packages = string_package("en-US", texts) + string_package("x-UEFI-AMI", keywords) + form_package(ids)
    packages += struct.pack("<I", 4 | (0xDF << 24))  # END package
    return fx.g("F1E2D3C4-00E6-4F00-8000-0000000000E6") + struct.pack("<I", 20 + len(packages)) + packages


def efivarfs_file(folder, name, guid, data):
    """A variable as efivarfs shows it: attributes (non-volatile, boot and runtime access), then data."""
    path = os.path.join(folder.encode(), name + b"-" + guid.lower().encode())
    with open(path, "wb") as f:
        f.write(struct.pack("<I", 7) + data)


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
    elif what == "forms":
        data, out = hostile_forms(), sys.argv[2]
        os.makedirs(sys.argv[3], exist_ok=True)
        efivarfs_file(sys.argv[3], b"Setup", SETUP_GUID, bytes(16))
        # the name as efivarfs shows the variable firmware made from the varstore: each CHAR8 byte
        # widened to CHAR16 (0xFF is U+00FF), in UTF-8; the line feed stays a line feed
        efivarfs_file(sys.argv[3], EVIL_VARSTORE.decode("latin-1").encode("utf-8"), EVIL_GUID, bytes(16))
    elif what == "formsvol":
        data, out = hostile_forms_volume(), sys.argv[2]
    else:
        raise SystemExit(__doc__)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
