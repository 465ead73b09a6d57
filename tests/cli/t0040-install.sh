#!/bin/sh
# make install into a scratch DESTDIR: the FHS layout (PREFIX/bin, PREFIX/share/man,
# PREFIX/share/fwlens, completion folders), and the installed files work.
. "$(dirname "$0")/lib.sh"

t_need_cmd install make || exit 0
DEST="$T_DIR/root"
PREFIX=/usr/local
case "$FWLENS_BUILD" in */sanitize) san=SANITIZE=1 ;; *) san= ;; esac
# a make of its own (not the jobserver of the make running the tests), on the build under test
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$FWLENS_SRCDIR" $san install DESTDIR="$DEST" PREFIX="$PREFIX" \
	>"$T_DIR/log" 2>&1; then
	pass make-install
else
	fail make-install "$(tail -n 5 "$T_DIR/log" | tr '\n' ' ')"
	exit 0
fi
R="$DEST$PREFIX"
missing=""
for f in bin/fwlens share/man/man1/fwlens.1 share/bash-completion/completions/fwlens share/zsh/vendor-completions/_fwlens \
	share/fwlens/topics.xml share/fwlens/topics.xsd share/fwlens/tree.xsd; do
	[ -s "$R/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass fhs-layout || fail fhs-layout "missing:$missing"
[ -x "$R/bin/fwlens" ] && pass binary-executable || fail binary-executable "$R/bin/fwlens is not executable"
# nothing outside PREFIX, nothing but files fwlens owns
stray=$(cd "$DEST" && find . -type f | grep -v "^\.$PREFIX/\(bin/fwlens\|share/man/man1/fwlens[-a-z]*\.1\|share/bash-completion/completions/fwlens\|share/zsh/vendor-completions/_fwlens\|share/fwlens/[a-z]*\.x[ms][ld]\)$" || true)
[ -z "$stray" ] && pass nothing-else-installed || fail nothing-else-installed "$stray"

cmds=$("$R/bin/fwlens" help --format json | python3 -c "import json,sys; print(' '.join(c['name'] for c in json.load(sys.stdin)['commands']))")
missing=""
for c in $cmds; do [ -s "$R/share/man/man1/fwlens-$c.1" ] || missing="$missing $c"; done
[ -z "$missing" ] && pass man-page-per-command || fail man-page-per-command "no page for:$missing"
if command -v man >/dev/null 2>&1; then
	MANPATH="$R/share/man" MANWIDTH=80 man fwlens-query 2>/dev/null | grep -q "$PREFIX/share/fwlens/topics.xml" &&
		pass man-finds-installed-page || fail man-finds-installed-page "man fwlens-query via MANPATH does not name the installed rules"
fi
t_run installed-version 0 "$R/bin/fwlens" --version
bash -n "$R/share/bash-completion/completions/fwlens" && pass installed-completion-parses || fail installed-completion-parses "bash -n"
# the installed rules are the built-in ones, usable with --rules
"$FWLENS" query --list-topics >"$T_DIR/builtin"
t_run installed-rules-load 0 "$R/bin/fwlens" query --rules "$R/share/fwlens/topics.xml" --list-topics
cmp -s "$T_OUT" "$T_DIR/builtin" && pass installed-rules-are-built-in || fail installed-rules-are-built-in "topics differ"
# the installed schema validates the XML it describes
if command -v xmllint >/dev/null 2>&1 && [ -f "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" ]; then
	"$FWLENS" tree "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" --format xml >"$T_DIR/tree.xml"
	xmllint --noout --schema "$R/share/fwlens/tree.xsd" "$T_DIR/tree.xml" 2>"$T_DIR/xerr" && pass tree-xsd-validates ||
		fail tree-xsd-validates "$(head -c 300 "$T_DIR/xerr")"
fi
