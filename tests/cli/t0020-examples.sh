#!/bin/sh
# Every example of every command's help works: each is run against the samples (file names in
# the examples are mapped to sample files), or, where it needs something the samples cannot give
# (the live machine, a Tiano stream), its fwlens invocations are at least parsed (each is run with
# --help appended, which fails on an unknown option or a missing option value).
. "$(dirname "$0")/lib.sh"

CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file examples "$CAP" "the sample capsules are built by make samples" || exit 0
CAP2="$SAMPLES/ESC8000A-E13-ASUS-1201.CAP"
ROOT="$SAMPLES/sysroot-1104"
WORK="$T_DIR/work"
mkdir -p "$WORK" "$T_DIR/bin"

# Inputs the examples name, made from the samples.
fwlens snapshot capture --root "$ROOT" --image "$CAP" -o "$T_DIR/s1104.fwsnap" -q
fwlens snapshot capture --root "$SAMPLES/sysroot-1201" --image "$CAP2" -o "$T_DIR/s1201.fwsnap" -q
fwlens extract "$CAP" --guid Setup --section pe32 -o "$T_DIR/Setup.efi" -q
fwlens extract "$CAP" --guid EE4E5898-3914-4259-9D6E-DC7BD79403CF --section stored -o "$T_DIR/lzma.body" -q
ACPIDUMP=""
[ -f "$CORPUS/acpi/asus-rog-strix-x670e-f.acpidump.txt" ] && ACPIDUMP="$CORPUS/acpi/asus-rog-strix-x670e-f.acpidump.txt"

# fwlens as the examples call it: the real one, with its exit status logged.
cat >"$T_DIR/bin/fwlens" <<EOF2
#!/bin/sh
if [ "\${EX_PARSE_ONLY:-0}" = 1 ]; then "$FWLENS" "\$@" --help >/dev/null 2>"$T_DIR/ex.err"; else "$FWLENS" "\$@" 2>"$T_DIR/ex.err"; fi
rc=\$?
echo "\$rc fwlens \$*" >>"$T_DIR/ex.log"
exit \$rc
EOF2
chmod +x "$T_DIR/bin/fwlens"

fwlens help --format json >"$T_DIR/help.json"
python3 - "$T_DIR/help.json" "$T_DIR/examples" <<PY
import json, re, sys, os
doc = json.load(open(sys.argv[1]))
m = {
    # images
    "ESC8000A-E13-ASUS-1104.CAP": "$CAP", "ESC8000A-E13-1104.CAP": "$CAP", "BIOS.CAP": "$CAP",
    "old.CAP": "$CAP", "ESC8000A-E13-ASUS-1201.CAP": "$CAP2", "new.CAP": "$CAP2",
    "flash-dump.bin": "$CAP", "nvram.bin": "$CAP",
    "OVMF_CODE.fd": "/usr/share/OVMF/OVMF_CODE_4M.fd",
    # machines
    "host.fwsnap": "$T_DIR/s1104.fwsnap", "s1104.fwsnap": "$T_DIR/s1104.fwsnap", "before.fwsnap": "$T_DIR/s1104.fwsnap",
    "s1201.fwsnap": "$T_DIR/s1201.fwsnap", "after.fwsnap": "$T_DIR/s1201.fwsnap",
    "gpu-host.fwsnap": "$SAMPLES/sysroot-1104-identity",
    "/sys/firmware/acpi/tables": "$ROOT/sys/firmware/acpi/tables",
    "/sys/firmware/efi/efivars": "$ROOT/sys/firmware/efi/efivars",
    "ivrs.dat": "$ROOT/sys/firmware/acpi/tables/IVRS", "acpidump.txt": "$ACPIDUMP",
    # modules and sections
    "Setup.sct": "$T_DIR/Setup.efi", "body.efi": "$T_DIR/Setup.efi", "body.bin": "$T_DIR/lzma.body",
    "platform.pem": "$SAMPLES/test-root-key.pub.pem",
    "CbsSetupDxeSHP": "CbsSetupDxeBRH", "CbsSetupDxeSTP": "CbsSetupDxeBRH",
    # outputs
    "/etc/bash_completion.d/fwlens": "fwlens.bash",
}
out = open(sys.argv[2], "w")
for c in doc["commands"]:
    for e in c["examples"]:
        line = e["command"]
        if "build/samples/" in line:
            line = line.replace("build/samples/", "$SAMPLES/")
        words = line.split(" ")
        parse_only = False
        for i, w in enumerate(words):
            key = w.strip("'\"")
            if i > 0 and words[i - 1] in ("-o", "--output", ">") and key != "/etc/bash_completion.d/fwlens":
                continue                    # outputs land in the work folder
            if key in m:
                if not m[key]:
                    parse_only = True
                words[i] = w.replace(key, m[key])
            elif w == "/" and i > 0:
                words[i] = "$ROOT"          # the live root: the sample machine instead
        line = " ".join(words)
        # the live machine (capture without --root), and streams the samples do not hold
        if re.search(r"snapshot capture(?!.*--root)", line) or "section.body" in line:
            parse_only = True
        out.write(f"{c['name']}\t{'parse' if parse_only else 'run'}\t{line}\n")
PY

n=0
while IFS="$(printf '\t')" read -r cmd mode line; do
	n=$((n + 1))
	rm -f "$T_DIR/ex.log"
	if [ "$mode" = parse ]; then
		(cd "$WORK" && PATH="$T_DIR/bin:$PATH" EX_PARSE_ONLY=1 sh -c "$line" >/dev/null 2>&1 </dev/null)
	else
		(cd "$WORK" && PATH="$T_DIR/bin:$PATH" sh -c "$line" >/dev/null 2>&1 </dev/null)
	fi
	if [ ! -s "$T_DIR/ex.log" ]; then
		fail "$cmd-example-$n" "fwlens never ran: $line"
		continue
	fi
	# 141: SIGPIPE when the next command of a pipe stops reading early; 6: plan --verify's verdict
	# "stored, not yet in effect" (the sample machines do not say when they booted), like 1 a verdict
	bad=$(awk '$1 > 1 && $1 != 141 && $1 != 6' "$T_DIR/ex.log" | head -n 1)
	if [ -n "$bad" ]; then
		fail "$cmd-example-$n ($mode)" "exit ${bad%% *}: ${bad#* } : $(head -c 200 "$T_DIR/ex.err" | tr '\n' ' ')"
	else
		pass "$cmd-example-$n ($mode)"
	fi
done <"$T_DIR/examples"
[ "$n" -gt 30 ] && pass examples-counted || fail examples-counted "only $n examples"
