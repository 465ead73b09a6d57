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
			"$T_DIR/sig/topo.txt" "$T_DIR/sig/iasl.pid" "$sig" <<'EOF'
import os, signal, subprocess, sys, time
fwlens, root, out, pidfile, name = sys.argv[1:]
p = subprocess.Popen([fwlens, "acpi", "topo", root, "-o", out], stderr=subprocess.DEVNULL)
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
			fail "signal-$sig-cleans-up" "status/iasl: $out (want -$signo gone); $left entries in TMPDIR, $tmps temporaries"
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
