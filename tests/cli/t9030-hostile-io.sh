#!/bin/sh
# Output files, signals, pipes, devices and memory: -o replaces only a regular file (a device or a
# FIFO is written in place, a folder refused), modes follow the umask or the file replaced
# (snapshots 0600); a signal removes the temporary, the iasl child and its folder; every input
# read from a pipe gives what the same bytes in a file give; a device is refused; running out of
# memory is exit 4 with one line, never an abort; extract --all stops cleanly on a full disk.
. "$(dirname "$0")/lib.sh"

CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
SEED="$FWLENS_SRCDIR/tests/fuzz/corpus/hii-scan/forms-and-two-groups"
FV="$FWLENS_SRCDIR/tests/data/firmware/mini.fv"
t_need_file hostile-io "$CAP" "the sample capsule is built by make" || exit 0

leftovers() { find "$1" -maxdepth 1 -name "$2.tmp-*" | wc -l; }
# AddressSanitizer reserves terabytes of address space, so `ulimit -v` stops it before main().
sanitize=0
case "$FWLENS_BUILD" in */sanitize) sanitize=1 ;; esac

# --- -o FILE: what is replaced and what is written in place ------------------------------------
mkdir -p "$T_DIR/o"
if [ "$(id -u)" -eq 0 ]; then
	mknod "$T_DIR/o/full" c 1 7 # /dev/full under another name
	t_run o-device-full 4 fwlens info "$FV" -o "$T_DIR/o/full"
	if [ -c "$T_DIR/o/full" ]; then pass o-device-stays-device; else fail o-device-stays-device "replaced by $(stat -c %F "$T_DIR/o/full")"; fi
	grep -q "No space left on device" "$T_ERR" && pass o-device-full-message ||
		fail o-device-full-message "$(cat "$T_ERR")"
	mknod "$T_DIR/o/null" c 1 3
	t_run o-device-null 0 fwlens info "$FV" -o "$T_DIR/o/null"
	[ -c "$T_DIR/o/null" ] && [ "$(leftovers "$T_DIR/o" null)" -eq 0 ] && pass o-device-null-in-place ||
		fail o-device-null-in-place "$(stat -c %F "$T_DIR/o/null"), $(leftovers "$T_DIR/o" null) temporaries"
else
	skip o-device-full "mknod needs root"
fi
mkfifo "$T_DIR/o/fifo"
timeout 20 cat "$T_DIR/o/fifo" >"$T_DIR/o/from-fifo" & # bounded: a FIFO replaced by a file never gets its writer
reader=$!
t_run o-fifo 0 fwlens info "$FV" -o "$T_DIR/o/fifo"
wait "$reader"
fwlens info "$FV" >"$T_DIR/o/expected"
if [ -p "$T_DIR/o/fifo" ] && cmp -s "$T_DIR/o/expected" "$T_DIR/o/from-fifo"; then
	pass o-fifo-written-in-place
else
	fail o-fifo-written-in-place "$(stat -c %F "$T_DIR/o/fifo"); $(wc -c <"$T_DIR/o/from-fifo") bytes through it"
fi
mkdir "$T_DIR/o/dir"
t_run o-folder-refused 4 fwlens snapshot capture --root "$SAMPLES/sysroot-1104" -o "$T_DIR/o/dir"
grep -q "is a folder" "$T_ERR" && [ -z "$(ls -A "$T_DIR/o/dir")" ] && [ "$(leftovers "$T_DIR/o" dir)" -eq 0 ] &&
	pass o-folder-message || fail o-folder-message "$(cat "$T_ERR"); $(ls -A "$T_DIR/o/dir" "$T_DIR/o")"

# --- modes -------------------------------------------------------------------------------------
(umask 027 && "$FWLENS" info "$FV" -o "$T_DIR/o/new-027")
[ "$(stat -c %a "$T_DIR/o/new-027")" = 640 ] && pass o-created-umask ||
	fail o-created-umask "mode $(stat -c %a "$T_DIR/o/new-027") under umask 027"
printf 'old\n' >"$T_DIR/o/kept" && chmod 604 "$T_DIR/o/kept"
(umask 022 && "$FWLENS" info "$FV" -o "$T_DIR/o/kept")
[ "$(stat -c %a "$T_DIR/o/kept")" = 604 ] && ! grep -q '^old$' "$T_DIR/o/kept" && pass o-replaced-keeps-mode ||
	fail o-replaced-keeps-mode "mode $(stat -c %a "$T_DIR/o/kept")"
(umask 000 && "$FWLENS" snapshot capture -q --root "$SAMPLES/sysroot-1104" -o "$T_DIR/o/s.fwsnap")
printf 'x\n' >"$T_DIR/o/s2.fwsnap" && chmod 644 "$T_DIR/o/s2.fwsnap"
(umask 000 && "$FWLENS" snapshot capture -q --root "$SAMPLES/sysroot-1104" -o "$T_DIR/o/s2.fwsnap")
[ "$(stat -c %a "$T_DIR/o/s.fwsnap") $(stat -c %a "$T_DIR/o/s2.fwsnap")" = "600 600" ] && pass snapshot-0600 ||
	fail snapshot-0600 "modes $(stat -c %a "$T_DIR/o/s.fwsnap") (new) $(stat -c %a "$T_DIR/o/s2.fwsnap") (replaced) under umask 000"

# --- signals: the temporary, the iasl child and its folder go; the status is 128 + signo ---------
# A stand-in iasl that records its pid and sleeps, so the signal lands while it runs.
if t_need_cmd signals python3; then
	mkdir -p "$T_DIR/sig/tmp"
	cat >"$T_DIR/sig/iasl" <<EOF
#!/bin/sh
echo \$\$ >"$T_DIR/sig/iasl.pid"
exec sleep 60
EOF
	chmod +x "$T_DIR/sig/iasl"
	for sig in INT TERM HUP XFSZ; do
		rm -f "$T_DIR/sig/iasl.pid"
		out=$(FWLENS_IASL="$T_DIR/sig/iasl" TMPDIR="$T_DIR/sig/tmp" python3 - "$FWLENS" "$SAMPLES/sysroot-1104" \
			"$T_DIR/sig/topo.txt" "$T_DIR/sig/iasl.pid" "$sig" 2>"$T_DIR/sig/py.err" <<'EOF'
import os, signal, subprocess, sys, time
fwlens, root, out, pidfile, name = sys.argv[1:]
# as from a terminal: a caller that runs the tests in the background has SIGINT ignored, under
# nohup SIGHUP too, and an ignored signal stays ignored (tested below with XFSZ)
def from_terminal():
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGXFSZ):
        signal.signal(sig, signal.SIG_DFL)
p = subprocess.Popen([fwlens, "acpi", "topo", root, "-o", out], stderr=subprocess.DEVNULL,
                     preexec_fn=from_terminal)
for _ in range(600):
    if os.path.exists(pidfile) and open(pidfile).read().strip():
        break
    time.sleep(0.05)
else:
    p.kill()
    print("iasl never started")
    sys.exit(0)
child = int(open(pidfile).read())
p.send_signal(getattr(signal, "SIG" + name))
rc = p.wait(timeout=30)
alive = True
for _ in range(100):  # the stand-in's sleep is reaped by fwlens; a zombie reads as gone
    try:
        state = open("/proc/%d/stat" % child).read().split(")")[1].split()[0]
        alive = state != "Z"
    except FileNotFoundError:
        alive = False
    if not alive:
        break
    time.sleep(0.05)
print(rc, "alive" if alive else "gone")
EOF
)
		left=$(ls -A "$T_DIR/sig/tmp" | wc -l)
		tmps=$(leftovers "$T_DIR/sig" topo.txt)
		signo=$(kill -l "$sig" 2>/dev/null || python3 -c "import signal; print(signal.SIG$sig.value)")
		if [ "$out" = "-$signo gone" ] && [ "$left" -eq 0 ] && [ "$tmps" -eq 0 ] && [ ! -e "$T_DIR/sig/topo.txt" ]; then
			pass "signal-$sig-cleans-up"
		else
			fail "signal-$sig-cleans-up" "status/iasl: $out (want -$signo gone); $left entries in TMPDIR, $tmps temporaries; $(tail -n 3 "$T_DIR/sig/py.err" | tr '\n' ' ')"
		fi
		pkill -KILL -F "$T_DIR/sig/iasl.pid" 2>/dev/null
		rm -rf "$T_DIR/sig/tmp"/*
	done
fi
# SIGXFSZ from the file size limit: the temporary goes, the status is 128 + SIGXFSZ.
status=0
sh -c 'ulimit -f 64; exec "$@"' sh "$FWLENS" tree "$CAP" --format json -o "$T_DIR/o/big.json" 2>/dev/null || status=$?
if [ "$status" -gt 128 ] && [ "$(leftovers "$T_DIR/o" big.json)" -eq 0 ] && [ ! -e "$T_DIR/o/big.json" ]; then
	pass xfsz-removes-temporary
else
	fail xfsz-removes-temporary "exit $status, $(leftovers "$T_DIR/o" big.json) temporaries left"
fi

# --- pipes: the same bytes as in a file -----------------------------------------------------------
for cmd in ifr settings; do
	"$FWLENS" "$cmd" "$SEED" >"$T_DIR/$cmd.file" 2>&1
	status=0
	"$FWLENS" "$cmd" - <"$SEED" >"$T_DIR/$cmd.redirect" 2>&1 || status=$?
	cat "$SEED" | "$FWLENS" "$cmd" - >"$T_DIR/$cmd.pipe" 2>&1 || status=$?
	if [ "$status" -eq 0 ] && cmp -s "$T_DIR/$cmd.file" "$T_DIR/$cmd.pipe" && cmp -s "$T_DIR/$cmd.file" "$T_DIR/$cmd.redirect"; then
		pass "pipe-$cmd"
	else
		fail "pipe-$cmd" "exit $status; $(head -c 200 "$T_DIR/$cmd.pipe")"
	fi
done
"$FWLENS" find "$SEED" 'Mode|Level' >"$T_DIR/find.file" 2>&1
status=0
cat "$SEED" | "$FWLENS" find /dev/fd/0 'Mode|Level' >"$T_DIR/find.pipe" 2>&1 || status=$?
sed "s|/dev/fd/0|$SEED|g" "$T_DIR/find.pipe" >"$T_DIR/find.pipe.named"
[ "$status" -eq 0 ] && cmp -s "$T_DIR/find.file" "$T_DIR/find.pipe.named" && pass pipe-find-dev-fd ||
	fail pipe-find-dev-fd "exit $status; $(head -c 200 "$T_DIR/find.pipe")"
cat "$CAP" | "$FWLENS" tree - --format json | sed 's|"path": "-"|"path": "CAP"|' >"$T_DIR/tree.pipe" 2>&1
"$FWLENS" tree "$CAP" --format json | sed 's|"path": ".*"|"path": "CAP"|' >"$T_DIR/tree.file" 2>&1
[ -s "$T_DIR/tree.file" ] && cmp -s "$T_DIR/tree.file" "$T_DIR/tree.pipe" && pass pipe-tree || fail pipe-tree "outputs differ"
"$FWLENS" snapshot capture -q --root "$SAMPLES/sysroot-1104" -o "$T_DIR/pipe.fwsnap"
"$FWLENS" doctor "$T_DIR/pipe.fwsnap" --format json >"$T_DIR/doctor.file" 2>&1
status=0
cat "$T_DIR/pipe.fwsnap" | "$FWLENS" doctor - --format json >"$T_DIR/doctor.pipe" 2>&1 || status=$?
sed 's|"-"|"'"$T_DIR/pipe.fwsnap"'"|g' "$T_DIR/doctor.pipe" >"$T_DIR/doctor.pipe.named"
[ "$(grep -c '"status"' "$T_DIR/doctor.pipe")" -gt 0 ] && [ "$(grep -c '"status"' "$T_DIR/doctor.pipe")" = "$(grep -c '"status"' "$T_DIR/doctor.file")" ] &&
	pass pipe-snapshot || fail pipe-snapshot "exit $status; $(head -c 200 "$T_DIR/doctor.pipe")"

# --- devices: refused at once ---------------------------------------------------------------------
for cmd in info tree ifr settings nvram; do
	t_run "device-$cmd" 3 timeout 20 "$FWLENS" "$cmd" /dev/zero
done
grep -q "character device" "$T_ERR" && pass device-message || fail device-message "$(cat "$T_ERR")"
t_run device-stdin 3 timeout 20 "$FWLENS" tree - </dev/zero

# --- memory: exit 4 and one line, never an abort ---------------------------------------------------
if [ "$sanitize" = 1 ]; then
	skip oom "ulimit -v cannot be used under AddressSanitizer"
else
# /dev/zero through a pipe: read toward the 1 GiB input limit in 512 MiB of address space.
status=0
(ulimit -v 524288 && head -c 1500000000 /dev/zero | "$FWLENS" tree - >/dev/null 2>"$T_DIR/oom.err") || status=$?
if [ "$status" -eq 4 ] && grep -q "out of memory.*while reading standard input" "$T_DIR/oom.err" && [ "$(wc -l <"$T_DIR/oom.err")" -eq 1 ]; then
	pass oom-pipe
else
	fail oom-pipe "exit $status: $(head -c 300 "$T_DIR/oom.err")"
fi
# A 300 MB settings list through a pipe: under 1 GiB of address space its JSON tree does not fit.
status=0
cat >"$T_DIR/list.py" <<'EOF'
import sys
w = sys.stdout.write
w('{"settings": [')
rec = '{"prompt": "Setting %07d", "varstore": "Setup", "offset": %d, "width": 1, "current": 1, "help": "' + "h" * 180 + '"}'
for i in range(1300000):
    w(("," if i else "") + rec % (i, i))
w("]}\n")
EOF
(ulimit -v 1048576 && python3 "$T_DIR/list.py" | "$FWLENS" find - Setting >/dev/null 2>"$T_DIR/oom2.err") || status=$?
if [ "$status" -eq 4 ] && grep -q "out of memory" "$T_DIR/oom2.err"; then
	pass oom-settings-json
elif [ "$status" -eq 3 ] && grep -q "limit" "$T_DIR/oom2.err"; then
	pass oom-settings-json # a record or byte limit hit before memory ran out: also one line
else
	fail oom-settings-json "exit $status: $(head -c 300 "$T_DIR/oom2.err")"
fi
# A snapshot of 20 members that each inflate to 120 MiB (2.4 MB on disk).
python3 - "$T_DIR/bomb.fwsnap" <<'EOF'
import gzip, hashlib, io, json, sys, tarfile
size = 120 << 20
zeros = bytes(size)
digest = hashlib.sha256(zeros).hexdigest()
packed = gzip.compress(zeros, 9)
members = [{"path": "sys/firmware/acpi/tables/T%02d" % i, "kind": "acpi-table", "from": "/", "size": size,
            "sha256": digest, "compression": "gzip", "stored": "files/sys/firmware/acpi/tables/T%02d.gz" % i}
           for i in range(20)]
manifest = {"format": "fwlens-snapshot", "version": 1, "tool": "test", "created": "2026-01-01T00:00:00Z",
            "source": {"root": "/"}, "members": members, "links": [], "nodes": [], "unreadable": []}
with tarfile.open(sys.argv[1], "w", format=tarfile.USTAR_FORMAT) as t:
    def add(name, data):
        info = tarfile.TarInfo(name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    add("manifest.json", json.dumps(manifest).encode())
    for m in members:
        add(m["stored"], packed)
EOF
status=0
(ulimit -v 1048576 && "$FWLENS" acpi "$T_DIR/bomb.fwsnap" >/dev/null 2>"$T_DIR/oom3.err") || status=$?
if { [ "$status" -eq 4 ] && grep -q "out of memory.*bomb.fwsnap" "$T_DIR/oom3.err"; } ||
	{ [ "$status" -eq 3 ] && [ "$(wc -l <"$T_DIR/oom3.err")" -eq 1 ]; }; then
	pass oom-snapshot-members
else
	fail oom-snapshot-members "exit $status: $(head -c 300 "$T_DIR/oom3.err")"
fi
# Two gzip members of 120 MiB (within the 256 MiB budget) in 244 MiB of address space: the first
# inflates, the second cannot; the line names that member and the snapshot.
python3 - "$T_DIR/two.fwsnap" <<'EOF'
import io, json, sys, tarfile, zlib
c = zlib.compressobj(1, zlib.DEFLATED, 31)
packed = b"".join([c.compress(bytes(1 << 20)) for _ in range(120)] + [c.flush()])
man = json.dumps({"format": "fwlens-snapshot", "version": 1, "members": [], "links": [], "nodes": [], "unreadable": []})
with tarfile.open(sys.argv[1], "w", format=tarfile.USTAR_FORMAT) as t:
    for n, b in [("manifest.json", man.encode()), ("files/sys/firmware/acpi/tables/A.gz", packed),
                 ("files/sys/firmware/acpi/tables/B.gz", packed)]:
        i = tarfile.TarInfo(n); i.size = len(b); t.addfile(i, io.BytesIO(b))
EOF
status=0
(ulimit -v 250000 && "$FWLENS" snapshot show "$T_DIR/two.fwsnap" >/dev/null 2>"$T_DIR/oom4.err") || status=$?
if [ "$status" -eq 4 ] && [ "$(wc -l <"$T_DIR/oom4.err")" -eq 1 ] &&
	grep -q "out of memory (allocating 125829121 bytes) while reading files/sys/firmware/acpi/tables/B.gz in $T_DIR/two.fwsnap$" "$T_DIR/oom4.err"; then
	pass oom-snapshot-member-named
else
	fail oom-snapshot-member-named "exit $status: $(head -c 300 "$T_DIR/oom4.err")"
fi
# Decompressors: a buffer they cannot have is out of memory (exit 4), not a limit diagnostic.
# Each stream states 400 MiB (under the 512 MiB limit of one section), in 244 MiB of address
# space; zlib grows its buffer toward the 300 MiB a gzip stream of zeros gives.
python3 - "$T_DIR" <<'EOF'
import struct, sys, zlib
d, size = sys.argv[1], 400 << 20
open(d + "/s.lzma", "wb").write(bytes([0x5D]) + struct.pack("<IQ", 1 << 20, size) + bytes(64))
open(d + "/s.brotli", "wb").write(struct.pack("<QQ", size, 0) + b"\x0b" * 64)
open(d + "/s.tiano", "wb").write(struct.pack("<II", 64, size) + bytes(64))
c = zlib.compressobj(1, zlib.DEFLATED, 31)
open(d + "/s.gzip", "wb").write(b"".join([c.compress(bytes(1 << 20)) for _ in range(300)] + [c.flush()]))
EOF
for algo in lzma brotli tiano efi11 gzip; do
	in="$T_DIR/s.$algo"
	[ "$algo" = efi11 ] && in="$T_DIR/s.tiano"
	status=0
	(ulimit -v 250000 && "$FWLENS" decompress --algo "$algo" "$in" -o "$T_DIR/s.out" 2>"$T_DIR/oom5.err") || status=$?
	if [ "$status" -eq 4 ] && [ "$(wc -l <"$T_DIR/oom5.err")" -eq 1 ] &&
		grep -q "error: out of memory (allocating [0-9]* bytes) while reading $in$" "$T_DIR/oom5.err"; then
		pass "oom-decompress-$algo"
	else
		fail "oom-decompress-$algo" "exit $status: $(head -c 300 "$T_DIR/oom5.err")"
	fi
done
# The same inside a firmware tree: mini.fv's LZMA section made to state 400 MiB ends the run with
# exit 4, where it was a warning on the section ("cannot allocate").
python3 -c '
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
assert b[0x368] == 0x5D  # the LZMA stream of the GUID-defined section at 0x350
b[0x36D:0x375] = struct.pack("<Q", 400 << 20)
open(sys.argv[2], "wb").write(b)' "$FV" "$T_DIR/big-lzma.fv"
status=0
(ulimit -v 250000 && "$FWLENS" tree "$T_DIR/big-lzma.fv" >/dev/null 2>"$T_DIR/oom6.err") || status=$?
[ "$status" -eq 4 ] && grep -q "out of memory (allocating 419430400 bytes) while reading $T_DIR/big-lzma.fv$" "$T_DIR/oom6.err" &&
	pass oom-tree-section || fail oom-tree-section "exit $status: $(head -c 300 "$T_DIR/oom6.err")"
fi

# --- snapshot capture --image / --dmesg ------------------------------------------------------------
t_run capture-missing-image 4 fwlens snapshot capture -q --root "$SAMPLES/sysroot-1104" --image "$T_DIR/no-such.CAP" -o "$T_DIR/c1.fwsnap"
grep -q "no-such.CAP" "$T_ERR" && [ ! -e "$T_DIR/c1.fwsnap" ] && pass capture-missing-image-named ||
	fail capture-missing-image-named "$(cat "$T_ERR")"
t_run capture-missing-dmesg 4 fwlens snapshot capture -q --root "$SAMPLES/sysroot-1104" --dmesg "$T_DIR/no-such.log" -o "$T_DIR/c2.fwsnap"
grep -q "no-such.log" "$T_ERR" && pass capture-missing-dmesg-named || fail capture-missing-dmesg-named "$(cat "$T_ERR")"
mkfifo "$T_DIR/dmesg.fifo"
start=$(date +%s)
t_run capture-dmesg-fifo-no-writer 4 timeout 60 "$FWLENS" snapshot capture -q --root "$SAMPLES/sysroot-1104" --dmesg "$T_DIR/dmesg.fifo" -o "$T_DIR/c3.fwsnap"
took=$(($(date +%s) - start))
[ "$took" -lt 30 ] && grep -q "no end of data within" "$T_ERR" && pass capture-dmesg-fifo-time-limit ||
	fail capture-dmesg-fifo-time-limit "took $took s: $(cat "$T_ERR")"
t_run capture-dmesg-pipe 0 sh -c 'printf "[    0.000000] Linux version 6.8\n" | "$1" snapshot capture -q --root "$2" --dmesg /dev/fd/0 -o "$3"' \
	sh "$FWLENS" "$SAMPLES/sysroot-1104" "$T_DIR/c4.fwsnap"

# --- extract --all on a full disk ------------------------------------------------------------------
# The file size limit stands in for a full disk (SIGXFSZ ignored, so writes fail with EFBIG).
mkdir -p "$T_DIR/x"
status=0
sh -c 'trap "" XFSZ; ulimit -f 256; exec "$@"' sh "$FWLENS" extract "$CAP" --all "$T_DIR/x/new" 2>"$T_DIR/x.err" || status=$?
[ "$status" -eq 4 ] && grep -q "the disk is full" "$T_DIR/x.err" && [ ! -e "$T_DIR/x/new" ] && pass extract-full-removes-its-folder ||
	fail extract-full-removes-its-folder "exit $status: $(head -c 300 "$T_DIR/x.err"); $(ls "$T_DIR/x" 2>&1)"
mkdir -p "$T_DIR/x/given"
status=0
sh -c 'trap "" XFSZ; ulimit -f 256; exec "$@"' sh "$FWLENS" extract "$CAP" --all "$T_DIR/x/given" 2>"$T_DIR/x.err" || status=$?
[ "$status" -eq 4 ] && [ -d "$T_DIR/x/given" ] && [ -n "$(ls -A "$T_DIR/x/given")" ] && pass extract-full-keeps-given-folder ||
	fail extract-full-keeps-given-folder "exit $status: $(head -c 300 "$T_DIR/x.err")"
# A real full file system where one can be mounted (root in a container that allows it).
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T_DIR/mnt" && mount -t tmpfs -o size=512k tmpfs "$T_DIR/mnt" 2>/dev/null; then
	status=0
	"$FWLENS" extract "$CAP" --all "$T_DIR/mnt/out" 2>"$T_DIR/x.err" || status=$?
	[ "$status" -eq 4 ] && grep -q "No space left on device" "$T_DIR/x.err" && [ -z "$(ls -A "$T_DIR/mnt")" ] &&
		pass extract-enospc || fail extract-enospc "exit $status: $(head -c 300 "$T_DIR/x.err")"
	umount "$T_DIR/mnt"
else
	skip extract-enospc "no tmpfs can be mounted here"
fi

# --- extract --all: its total, the one the tree inflates to, met through FWLENS_LIMITS ------------
# mini.fv writes 22666 bytes in 38 nodes (LZMA and EFI sections inflated). At that total the tree
# and the output are the same; one byte less stops before the last node with exit 4, and the
# folder extract created goes.
fwlens tree "$FV" >"$T_DIR/x/tree-default"
t_run extract-total-at-limit 0 env FWLENS_LIMITS=inflate-total=22666 "$FWLENS" extract "$FV" --all "$T_DIR/x/at"
grep -qx "38 nodes, 22666 bytes written to $T_DIR/x/at" "$T_OUT" && pass extract-total-at-limit-output ||
	fail extract-total-at-limit-output "$(cat "$T_OUT")"
FWLENS_LIMITS=inflate-total=22666 "$FWLENS" tree "$FV" | cmp -s - "$T_DIR/x/tree-default" && pass extract-total-same-tree ||
	fail extract-total-same-tree "the tree changed at inflate-total=22666"
t_run extract-total-past-limit 4 env FWLENS_LIMITS=inflate-total=22665 "$FWLENS" extract "$FV" --all "$T_DIR/x/past"
grep -q "would pass the limit of 22665 bytes for extract --all (the total a tree may inflate to)" "$T_ERR" &&
	[ "$(wc -l <"$T_ERR")" -eq 1 ] && [ ! -e "$T_DIR/x/past" ] && pass extract-total-past-limit-message ||
	fail extract-total-past-limit-message "$(cat "$T_ERR"); $(ls -d "$T_DIR/x/past" 2>&1)"
mkdir "$T_DIR/x/past-given"
t_run extract-total-past-limit-given 4 env FWLENS_LIMITS=inflate-total=22665 "$FWLENS" extract "$FV" --all "$T_DIR/x/past-given"
[ -d "$T_DIR/x/past-given" ] && pass extract-total-keeps-given-folder || fail extract-total-keeps-given-folder "removed"
# FWLENS_LIMITS only lowers: a larger value changes nothing; a malformed one is a usage error
t_run limits-raise-ignored 0 env FWLENS_LIMITS=inflate-total=99G "$FWLENS" extract "$FV" --all "$T_DIR/x/raised"
t_run limits-malformed 2 env FWLENS_LIMITS=inflate-total=12X "$FWLENS" info "$FV"
grep -q "FWLENS_LIMITS: 'inflate-total=12X' is not NAME=N" "$T_ERR" && pass limits-malformed-message ||
	fail limits-malformed-message "$(cat "$T_ERR")"

# --- a signal during a progress line: the line is cleared, so the prompt starts a line of its own --
# Standard error is a terminal (a pty); the snapshot goes into a FIFO nobody reads, so capture
# stops inside its writing while the progress line stands; then SIGTERM.
if t_need_cmd progress-signal python3; then
	mkfifo "$T_DIR/sig/full.fifo"
	out=$(FWLENS_PROGRESS_DELAY=0 python3 - "$FWLENS" "$SAMPLES/sysroot-1104" "$CAP" "$T_DIR/sig/full.fifo" <<'EOF'
import os, pty, select, signal, subprocess, sys, time
fwlens, root, cap, fifo = sys.argv[1:]
master, slave = pty.openpty()
reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # opened, never read: the writer blocks
p = subprocess.Popen([fwlens, "snapshot", "capture", "--root", root, "--image", cap, "-o", fifo],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
seen = b""
def drain(seconds):
    global seen
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([master], [], [], 0.05)
        if r:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            seen += chunk
while b"capturing" not in seen and b"reading" not in seen and p.poll() is None and len(seen) < 100000:
    drain(0.1)
    if time.time() > 0 and len(seen) == 0 and p.poll() is not None:
        break
drain(0.6)  # the ticker redraws the line while the write blocks
p.send_signal(signal.SIGTERM)
rc = p.wait(timeout=30)
drain(0.3)
os.close(reader)
last = seen.rfind(b"\r\x1b[K")
tail = seen[last + 4:] if last >= 0 else seen
# ends cleared: the last thing written is the erase, after the last progress text
print(rc, "shown" if last >= 0 and seen[:last].strip() else "none", "cleared" if last >= 0 and tail == b"" else repr(tail[-60:]))
EOF
)
	[ "$out" = "-15 shown cleared" ] && pass progress-cleared-on-signal || fail progress-cleared-on-signal "$out"
	[ "$(leftovers "$T_DIR/sig" full.fifo)" -eq 0 ] && pass progress-signal-no-temporary || fail progress-signal-no-temporary "temporaries left"
fi
