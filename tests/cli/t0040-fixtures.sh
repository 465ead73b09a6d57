#!/bin/sh
# The project's own binary fixtures come from its own generator: tests/data/firmware/make-fixtures.py
# (with tests/data/compress/make-vectors.py) run on a scratch copy writes the checked-in files
# byte for byte.
. "$(dirname "$0")/lib.sh"
if t_need_cmd fixtures-regenerate python3; then
	mkdir -p "$T_DIR/gen/tests/data"
	cp -r "$FWLENS_SRCDIR/tests/data/firmware" "$FWLENS_SRCDIR/tests/data/compress" "$T_DIR/gen/tests/data/"
	if python3 "$T_DIR/gen/tests/data/firmware/make-fixtures.py" >"$T_DIR/gen.log" 2>&1; then
		pass fixtures-regenerate
		for f in mini.fv broken.fv mini.cap dxe.ffs pe32.sct ffs3.fv more.fv evil.fv; do
			cmp -s "$T_DIR/gen/tests/data/firmware/$f" "$FWLENS_SRCDIR/tests/data/firmware/$f" &&
				pass "fixture-reproduced: $f" || fail "fixture-reproduced: $f" "make-fixtures.py writes other bytes"
		done
	else
		fail fixtures-regenerate "$(tail -n 1 "$T_DIR/gen.log")"
	fi
fi
