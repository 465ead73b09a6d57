#!/usr/bin/env python3
"""Checks of what fwlens writes from the hostile samples (t9040-hostile-writes.sh). Each check
prints one line per problem, naming the offset and the offending bytes, and exits 1 if any.

    hostile-check.py batch MANIFEST SUITE  every check of MANIFEST (CHECK<TAB>NAME<TAB>ARG... per
                                           line), printed as "ok SUITE/NAME" or "FAIL SUITE/NAME: why"
    hostile-check.py text PLAIN [COLOUR]   no C0 control but tab and LF, no C1 control (U+0080..U+009F
                                           or a stray byte 0x80..0x9F), no forged line; COLOUR, the
                                           same run with --color always, is PLAIN once fwlens' own
                                           SGR sequences are taken out
    hostile-check.py utf8 FILE             FILE is valid UTF-8
    hostile-check.py jsonl FILE            every line is one JSON value
    hostile-check.py markdown FILE         UTF-8, the tables pass mdtables.py, no raw HTML, no forged
                                           heading or table row, no control
    hostile-check.py xml-has FILE          the XML carries the quotes prompt exactly (as text or
                                           attribute)
    hostile-check.py settings FILE         the hostile questions of `settings --format json`: prompts,
                                           helps, options, keywords, varstore, module exactly
    hostile-check.py settings-current FILE the current values the machine's hostile variable holds
    hostile-check.py jsonl-settings FILE   the same questions in `settings --format jsonl`
    hostile-check.py ifr FILE              the hostile formset of `ifr --format json`
    hostile-check.py find FILE             `find --format json` matched the five hostile questions
    hostile-check.py sce-back FILE PLAN    `settings --format json` of a written AMISCE file: exactly
                                           the one setting PLAN (quotes, oneof) set, with its value
    hostile-check.py redfish FILE          the Redfish body names the quotes question's keyword exactly
    hostile-check.py machine-json FILE [host]   the machine's facts (host name, DMI strings) keep
                                           their members, valid UTF-8, raw bytes in KEY_hex; `host`:
                                           the host name of every line of doctor's JSON lines
    hostile-check.py metrics-lines FILE   every line a sample, HELP/TYPE/UNIT or EOF line, labels escaped
    hostile-check.py metrics FILE          the host label is the host name escaped per the
                                           exposition format, valid UTF-8
"""
import json
import re
import sys

# ---- the texts of samples/hostile.c, as a decoder gives them -----------------------------------
# (HII strings are UCS-2: lone surrogates may come back as U+FFFD or as the surrogate itself)
UNIT = "long $(touch PWNED) 'q' | "
LONG = "".join(UNIT[i % len(UNIT)] for i in range(3000))
QUOTES = "Hostile quotes 'single' \"double\" $(touch PWNED) `touch PWNED` | # <script>x</script> &amp;"
ONEOF = "Hostile one-of \x1b[31mred\x1b[0m\x07 \x9b2J \x85 $(touch PWNED)\nsecond line"
NUMERIC = "Hostile numeric \ud800 lone \udfff surrogates \x1b]0;title\x07"
CHECKBOX = "Hostile checkbox\n# Forged heading\n| forged | row |"
STRING = "Hostile string \x80\x9f C1 'q' \"q\""
PROMPTS = [QUOTES, ONEOF, NUMERIC, CHECKBOX, STRING]
HELPS = {
    QUOTES: "Help 'single' \"double\" $(touch PWNED) `touch PWNED` | # <script>alert(1)</script>",
    ONEOF: "Help line\n# not a heading\n<script>alert(1)</script>\n| a | b |\n\x1b[31mred\x1b[0m\x07 end",
    NUMERIC: LONG,
    CHECKBOX: "<script>alert('x')</script>\n```\nfence",
    STRING: "String help \x9b6n",
}
KEYWORDS = {
    QUOTES: "HostileQuotes'\"$(touch PWNED)`id`|#<k>",
    ONEOF: "HostileOneOf\x1b[2J\x07\x85\nLF",
    NUMERIC: "HostileNumeric\ud800",
    CHECKBOX: "HostileCheckbox#<script>",
    STRING: "HostileString",
}
OPTIONS = {
    QUOTES: [("Option 'single' \"double\" $(touch PWNED)", 0), ("Option `touch PWNED` | # <i>x</i>", 1),
             ("Option \u00e9t\u00e9 \u4e2d \\ \\n %s %n", 2)],
    ONEOF: [("Option 'single' \"double\" $(touch PWNED)", 0),
            ("Default\nSetup Question\t= Forged\nToken\t=99\t// Do NOT change this line\nOffset\t=0\nWidth\t=01\n"
             "BIOS Default\t=[00]Forged", 1),
            ("Option \x1b]0;title\x07 bell \x1b[2J", 2), ("Option C1 \x80\x85\x9b\x9f end", 3),
            ("Option lone \ud800 \udfff surrogates", 4), ("Option `touch PWNED` | # <b>b</b> &amp;", 5), (LONG, 6)],
}
VARSTORE = b"HostileSetup'\"$(touch PWNED)`id`|#<x>\n\x1b[2J\x07\xc2\x85\xff\xfe"
MODULE = "Hostile\x1b]0;module\x07 $(touch PWNED) 'm' \x85"
HOSTNAME = b"host'\"$(touch PWNED)`id`\x1b]0;pwn\x07\xc2\x85\xff{x=\"y\"}"
DMI = {
    "bios_version": b"1104 \xff\xfe not UTF-8 $(touch PWNED)\x1b[31m",
    "bios_vendor": b"Vendor 'single' \"double\" `touch PWNED` | # <script>x</script>",
    "board_name": b"K15PG-D24\x1b]0;title\x07\xc2\x9b2J",
    "product_name": b"ESC8000A-E13\n# Forged heading\n| forged | row |",
    "sys_vendor": b"ASUSTeK \xc2\x85\xc2\x80 \xe2\x80\xae RTL \x7f DEL",
}
# Lines a hostile string would start if its line feeds were written raw
FORGED = [b"second line", b"# Forged heading", b"| forged | row |", b"Setup Question\t= Forged", b"Token\t=99",
          b"# not a heading", b"<script>alert(1)</script>", b"| a | b |", b"# title", b"fence", b"\xff.conf",
          b"BIOS Default\t=[00]Forged", b"\x1b[2J.CAP", b"?[2J.CAP"]  # the last two: the image's file name
# fwlens' own colour sequences (tools/cli/text-filter.c)
OWN_SGR = re.compile(rb"\x1b\[(?:0|1|2|31|32|33|34|36)m")

problems = []


def bad(where, msg):
    problems.append("%s: %s" % (where, msg))


def context(data, i):
    return repr(data[max(0, i - 24):i + 24])


def controls(path, data):
    """C0 but tab/LF, C1 as characters or stray bytes, found by decoding UTF-8 by hand."""
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        if c < 0x20 and c not in (0x09, 0x0A):
            bad(path, "control byte 0x%02X at offset %d: %s" % (c, i, context(data, i)))
            return
        if c < 0x80:
            i += 1
            continue
        # a UTF-8 sequence, or a stray byte
        need = 1 if 0xC2 <= c <= 0xDF else 2 if 0xE0 <= c <= 0xEF else 3 if 0xF0 <= c <= 0xF4 else 0
        seq = data[i:i + 1 + need]
        try:
            ch = seq.decode("utf-8") if need else None
        except UnicodeDecodeError:
            ch = None
        if ch is None:
            if 0x80 <= c <= 0x9F:
                bad(path, "C1 byte 0x%02X (not UTF-8) at offset %d: %s" % (c, i, context(data, i)))
                return
            i += 1
            continue
        if 0x80 <= ord(ch) <= 0x9F:
            bad(path, "C1 control U+%04X at offset %d: %s" % (ord(ch), i, context(data, i)))
            return
        i += len(seq)


def forged(path, data):
    for lineno, line in enumerate(data.split(b"\n"), 1):
        for f in FORGED:
            if line.startswith(f):
                bad(path, "line %d is a forged line from a hostile string: %r" % (lineno, line[:80]))
                return


def check_text(plain, colour=None, lines_kept=False):
    data = open(plain, "rb").read()
    controls(plain, data)
    if not lines_kept:
        forged(plain, data)
    if colour:
        c = open(colour, "rb").read()
        stripped = OWN_SGR.sub(b"", c)
        if stripped != data:
            i = next((k for k in range(min(len(stripped), len(data))) if stripped[k] != data[k]),
                     min(len(stripped), len(data)))
            bad(colour, "with --color always, less fwlens' own SGR, differs from --color never at offset %d: "
                        "%s instead of %s" % (i, context(stripped, i), context(data, i)))


def check_utf8(path):
    data = open(path, "rb").read()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        bad(path, "not UTF-8 at offset %d: %s" % (e.start, context(data, e.start)))


def check_jsonl(path):
    check_utf8(path)
    for lineno, line in enumerate(open(path, "rb").read().split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            json.loads(line)
        except ValueError as e:
            bad(path, "line %d is not one JSON value (%s): %r" % (lineno, e, line[:120]))
            return


def check_markdown(path):
    data = open(path, "rb").read()
    controls(path, data)
    forged(path, data)
    # raw HTML outside code spans (inside one, `<script>` is text)
    outside = re.sub(rb"(`+)(?:(?!\1).)+?\1", lambda m: b" " * len(m.group(0)), data)
    for m in re.finditer(rb"(?<!\\)<(script|b|i|x|k)>", outside):
        bad(path, "raw HTML %r at offset %d: %s" % (m.group(0), m.start(), context(data, m.start())))
        break


def same_surrogates(got, want):
    """A lone surrogate of the UCS-2 text may come back as itself or as U+FFFD."""
    if not isinstance(got, str) or len(got) != len(want):
        return False
    return all(g == w or (0xD800 <= ord(w) <= 0xDFFF and g == "\ufffd") for g, w in zip(got, want))


def expect(where, got, want):
    if not same_surrogates(got, want):
        bad(where, "%r, expected %r" % (got if not isinstance(got, str) else got[:200], want[:200]))


def ascii_only(raw):
    """The IFR decoder's reading of a varstore name (CHAR8 in the specification): each byte
    outside printable ASCII as '?'."""
    return "".join(chr(b) if 0x20 <= b <= 0x7E else "?" for b in raw)


def raw_name(obj, key, want, where, ascii_ok=False):
    """A byte string that is not UTF-8: the valid prefix exact, the raw bytes recoverable from a
    <key>_hex member or from visible \\xHH escapes in the text; with ascii_ok, the decoder's
    printable-ASCII reading, or each byte read as a character (CHAR8 widened), exactly is right too."""
    got = obj.get(key)
    if not isinstance(got, str):
        bad(where, "%s missing (%r)" % (key, got))
        return
    if ascii_ok and got == ascii_only(want):
        return
    if ascii_ok and got == want.decode("latin-1"):
        return  # CHAR8 widened to CHAR16, as firmware names the variable
    try:
        want.decode("utf-8")
        cut = len(want)
    except UnicodeDecodeError as e:
        cut = e.start
    prefix = want[:cut].decode("utf-8")
    if not got.startswith(prefix):
        bad(where, "%s is %r, expected it to start with %r" % (key, got, prefix))
        return
    hexv = obj.get(key + "_hex")
    if isinstance(hexv, str):
        try:
            if bytes.fromhex(hexv) == want:
                return
        except ValueError:
            pass
        bad(where, "%s_hex is %r, expected %s" % (key, hexv, want.hex()))
        return
    rest = want[cut:]
    if all(("\\x%02x" % b) in got.lower() for b in rest if b >= 0x80):
        return
    bad(where, "%s is %r: the bytes %s after %r are neither in %s_hex nor visible as \\xHH" %
        (key, got, rest.hex(), prefix, key))


def hostile_questions(settings, where):
    qs = [s for s in settings if isinstance(s.get("prompt"), str) and s["prompt"].startswith("Hostile ")
          and not s["prompt"].startswith("Hostile page")]  # the goto to their form
    got = [q["prompt"] for q in qs]
    if len(got) != len(PROMPTS) or not all(same_surrogates(g, w) for g, w in zip(got, PROMPTS)):
        bad(where, "hostile prompts %r, expected %r" % ([g[:60] for g in got], [w[:60] for w in PROMPTS]))
        return []
    return list(zip(PROMPTS, qs))


def check_question(want, q, where):
    w = "%s: %r" % (where, want[:30])
    expect(w + " help", q.get("help"), HELPS[want])
    expect(w + " keyword", q.get("keyword"), KEYWORDS[want])
    if want in OPTIONS:
        opts = [(o.get("text"), o.get("value")) for o in q.get("options", [])]
        if len(opts) != len(OPTIONS[want]) or not all(
                same_surrogates(t, wt) and v == wv for (t, v), (wt, wv) in zip(opts, OPTIONS[want])):
            bad(w + " options", "%r, expected %r" % ([(t[:40], v) for t, v in opts],
                                                     [(t[:40], v) for t, v in OPTIONS[want]]))
    raw_name(q, "varstore", VARSTORE, w, ascii_ok=True)


def check_settings(path):
    d = json.load(open(path, encoding="utf-8"))
    pairs = hostile_questions(d.get("settings", []), path)
    for want, q in pairs:
        check_question(want, q, path)
        expect("%s: %r module_name" % (path, want[:30]), q.get("module_name"), MODULE)


def check_settings_current(path):
    """The machine's hostile variable (its efivarfs name holds the varstore name's raw bytes) gives
    the current values 1 and 42."""
    d = json.load(open(path, encoding="utf-8"))
    pairs = hostile_questions(d.get("settings", []), path)
    if pairs:
        cur = {want[:20]: q.get("current") for want, q in pairs}
        if (cur[QUOTES[:20]], cur[NUMERIC[:20]]) != (1, 42):
            bad(path, "current values of the machine's hostile variable not bound: %r" % cur)


def check_jsonl_settings(path):
    check_jsonl(path)
    recs = [json.loads(l) for l in open(path, "rb").read().split(b"\n") if l.strip()]
    flat = []
    for r in recs:
        flat.extend(r.get("settings", [r]) if isinstance(r, dict) else [])
    for want, q in hostile_questions(flat, path):
        check_question(want, q, path)


def check_ifr(path):
    d = json.load(open(path, encoding="utf-8"))
    fss = [f for f in d.get("formsets", []) if str(f.get("title", "")).startswith("Hostile formset")]
    if len(fss) != 1:
        bad(path, "%d hostile formsets" % len(fss))
        return
    f = fss[0]
    expect(path + " title", f.get("title"), "Hostile formset \x1b[2J\x07 `id`")
    expect(path + " module_name", f.get("module_name"), MODULE)
    vs = f.get("varstores", [{}])[0]
    raw_name(vs, "name", VARSTORE, path + " varstore", ascii_ok=True)
    qs = [q for form in f.get("forms", []) for q in form.get("questions", [])]
    for want, q in hostile_questions(qs, path):
        check_question(want, q, path)


def check_find(path):
    d = json.load(open(path, encoding="utf-8"))
    hostile_questions(d.get("matches", []), path)


SCE_PLANS = {
    "quotes": (QUOTES, "Option `touch PWNED` | # <i>x</i>"),
    "oneof": (ONEOF, "Option \x1b]0;title\x07 bell \x1b[2J"),
}


def check_sce_back(path, which):
    prompt, value = SCE_PLANS[which]
    d = json.load(open(path, encoding="utf-8"))
    got = [(s.get("prompt"), s.get("current")) for s in d.get("settings", [])]
    if got != [(prompt, value)]:
        bad(path, "the AMISCE file reads back as %r, planned %r" % (got, [(prompt, value)]))


def check_redfish(path):
    keyword = KEYWORDS[QUOTES]
    d = json.load(open(path, encoding="utf-8"))
    attrs = d.get("Attributes", d)
    if keyword not in attrs:
        bad(path, "no attribute %r among %r" % (keyword, list(attrs)[:10]))


def walk(o):
    if isinstance(o, dict):
        yield o
        for v in o.values():
            yield from walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v)


# the facts a snapshot shows: its key, the file the machine holds it in
FACTS = {"host": HOSTNAME, "bios_version": DMI["bios_version"], "vendor": DMI["sys_vendor"],
         "board": DMI["board_name"], "product": DMI["product_name"]}


def clean_prefix(raw):
    """The part of a machine string before its first control byte or byte that is not UTF-8: the
    machine reader may change what follows (it shows controls as spaces), a writer may not."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        text = raw[:e.start].decode("utf-8")
    m = re.search(r"[\x00-\x1f\x7f-\x9f]", text)
    return text[:m.start()] if m else text


def check_machine_json(path, keys="facts"):
    """The machine's strings keep their members (a value that is not UTF-8 with its raw bytes in
    KEY_hex), their clean part exact; `keys` names which: all facts, or the host name only (doctor
    JSON lines, one object a line)."""
    check_utf8(path)
    data = open(path, "rb").read()
    docs = [json.loads(l) for l in data.split(b"\n") if l.strip()] if keys == "host" else [json.loads(data)]
    wanted = {"host": HOSTNAME} if keys == "host" else FACTS
    for doc in docs:
        objs = [o for o in walk(doc) if any(k in o or k + "_hex" in o for k in wanted)]
        for key, raw in wanted.items():
            holder = next((o for o in objs if key in o or key + "_hex" in o), None)
            if holder is None:
                bad(path, "no member %s (or %s_hex): a value that is not UTF-8 must not make its key vanish" % (key, key))
                continue
            got = holder.get(key)
            if not isinstance(got, str) or not got.startswith(clean_prefix(raw)):
                bad(path, "%s is %r, expected it to start with %r" % (key, got, clean_prefix(raw)))
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                if not isinstance(holder.get(key + "_hex"), str):
                    bad(path, "%s is not UTF-8 on the machine and has no %s_hex member" % (key, key))


def check_metrics(path):
    check_utf8(path)
    data = open(path, "rb").read().decode("utf-8", "replace")
    valid = HOSTNAME.decode("utf-8", "ignore")
    head = valid[:valid.index("\x1b")].replace("\\", "\\\\").replace('"', '\\"')
    m = re.search(r'host="((?:[^"\\]|\\.)*)"', data)
    if not m:
        bad(path, "no host label")
    elif not m.group(1).startswith(head):
        bad(path, "host label %r does not start with the escaped host name %r" % (m.group(1), head))


SAMPLE = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*\})? '
                    r'[-+]?(?:[0-9.eE+-]+|NaN|[-+]?Inf)( [0-9.]+)?$')
COMMENT = re.compile(r'# (HELP|TYPE|UNIT) [a-zA-Z_:][a-zA-Z0-9_:]*( .*)?$|# EOF$')


def check_metrics_lines(path):
    """The exposition format's grammar: label values escape only backslash, quote and line feed."""
    check_utf8(path)
    lines = open(path, "rb").read().decode("utf-8", "replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for lineno, line in enumerate(lines, 1):
        if line.startswith("#"):
            ok = COMMENT.match(line) and "\\" not in line.replace("\\\\", "").replace("\\n", "")
        else:
            ok = SAMPLE.match(line)
        if not ok:
            bad(path, "line %d does not follow the exposition format: %r" % (lineno, line[:160]))
            return


def check_markdown_all(path):
    """The markdown table checker, then no raw HTML, no forged line, no control."""
    import contextlib
    import io
    import runpy
    check_utf8(path)
    if problems:
        return
    # notes mark the reader's own sections with HTML comments (<!-- fwlens:keep NAME -->) and end a
    # file with the hashes of their lines (<!-- fwlens:generated ... -->): fwlens' markers, not
    # text from the input, and left out of the check
    data = open(path, "rb").read()
    own = re.compile(rb"^<!-- fwlens:((keep|end) [A-Za-z0-9_-]+|generated( [0-9a-f]{12})*) -->$", re.M)
    if own.search(data):
        path_md = path + ".unmarked.md"
        open(path_md, "wb").write(own.sub(b"", data))
    else:
        path_md = path
    saved, buf, code = sys.argv, io.StringIO(), 0
    sys.argv = [MDTABLES, path_md]
    try:
        with contextlib.redirect_stdout(buf):
            runpy.run_path(MDTABLES, run_name="__main__")
    except SystemExit as e:
        code = e.code or 0
    finally:
        sys.argv = saved
    if code:
        bad(path, "mdtables.py: " + " | ".join(buf.getvalue().splitlines()[:3]))
        return
    check_markdown(path)


CHECKS = {
    "text": lambda *a: check_text(*a),
    # IFRExtractor's layout copies a string's line feeds as that tool prints them (t0500 compares
    # with its real dumps): no forged-line check, every other control still shown escaped
    "text-lines-kept": lambda p, c: check_text(p, c, lines_kept=True),
    "utf8": check_utf8,
    "jsonl": check_jsonl,
    "markdown": check_markdown_all,
    "xml-has": lambda f: check_xml_has(f),
    "settings": check_settings,
    "settings-current": check_settings_current,
    "jsonl-settings": check_jsonl_settings,
    "ifr": check_ifr,
    "find": check_find,
    "sce-back": check_sce_back,
    "redfish": check_redfish,
    "machine-json": check_machine_json,
    "metrics": check_metrics,
    "metrics-lines": check_metrics_lines,
}
MDTABLES = __file__.replace("hostile-check.py", "mdtables.py")


def batch(manifest, suite):
    """One check per line: CHECK<TAB>NAME<TAB>ARG...; prints ok/FAIL lines as the CLI tests do."""
    failed = 0
    for line in open(manifest, "rb").read().decode("utf-8", "surrogateescape").split("\n"):
        if not line:
            continue
        check, name, *args = line.split("\t")
        del problems[:]
        try:
            CHECKS[check](*args)
        except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
            bad(args[0] if args else name, "%s: %s" % (type(e).__name__, e))
        if problems:
            failed += 1
            print("FAIL %s/%s: %s" % (suite, name, " ;; ".join(problems[:4]).replace("\n", "\\n")))
        else:
            print("ok %s/%s" % (suite, name))
    return 1 if failed else 0


def main(argv):
    if argv[1] == "batch":
        return batch(argv[2], argv[3])
    CHECKS[argv[1]](*argv[2:])
    for p in problems[:5]:
        print(p)
    return 1 if problems else 0


def check_xml_has(path):
    import xml.etree.ElementTree as ET
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        bad(path, "not XML: %s" % e)
        return
    for el in root.iter():
        if (el.text or "") == QUOTES or QUOTES in el.attrib.values():
            return
    bad(path, "the prompt %r is not carried exactly" % QUOTES)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
