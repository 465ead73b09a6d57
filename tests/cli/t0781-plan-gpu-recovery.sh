#!/bin/sh
# fwlens plan --gpu-recovery on the identity sample (four Blackwell GPUs whose driver failed in
# identity groups 13, 15, 21, 23 below switch ports 22:00.0, 22:01.0, 42:00.0, 42:01.0): the JSON
# steps with the machine's values, the script dry-run against a copied root with stand-ins for
# setpci, sleep and dmesg (nothing written, the steps in order), refused while a process holds
# /dev/nvidia0, applied (group type, remove, bus reset, rescan written; the driver's result read
# from the log: recovered, or failed again with the power cycle named), and refusals of GPUs that
# work, devices that are not GPUs and machines whose log shows no failure.
. "$(dirname "$0")/lib.sh"
ID="$SAMPLES/sysroot-1104-identity"
t_need_file gpu-recovery "$ID/var/log/dmesg" "the samples (make samples)" || exit 0
export SOURCE_DATE_EPOCH=1767225600
cd "$T_DIR" || exit 1

t_run json 0 fwlens plan "$ID" --gpu-recovery failed --format json -o rec.json
python3 -c '
import json
d = json.load(open("rec.json"))
assert d["kind"] == "gpu-recovery" and d["log_from"] == "var/log/dmesg", d
got = [(g["bdf"], g["bridge"], g["iommu_group"], g["group_type"], g["device_minor"], g["functions"]) for g in d["gpus"]]
want = [("0000:23:00.0", "0000:22:00.0", 13, "identity", 0, ["0000:23:00.0"]),
        ("0000:24:00.0", "0000:22:01.0", 15, "identity", 1, ["0000:24:00.0"]),
        ("0000:43:00.0", "0000:42:00.0", 21, "identity", 2, ["0000:43:00.0"]),
        ("0000:44:00.0", "0000:42:01.0", 23, "identity", 3, ["0000:44:00.0"])]
assert got == want, got
g = d["gpus"][0]
assert g["why"] == "the driver failed: [ 7602.300400] nvidia: probe of 0000:23:00.0 failed with error -1", g["why"]
steps = [(s["step"], s["command"]) for s in g["steps"]]
assert steps == [
    ("check-holders", "refuse while a process holds /dev/nvidia0 /dev/vfio/13 (/proc/*/fd, fuser)"),
    ("iommu-type", "echo DMA-FQ > /sys/kernel/iommu_groups/13/type"),
    ("remove", "echo 1 > /sys/bus/pci/devices/0000:23:00.0/remove"),
    ("bus-reset", "setpci -s 0000:22:00.0 BRIDGE_CONTROL=0x40:0x40; sleep 1; setpci -s 0000:22:00.0 BRIDGE_CONTROL=0x00:0x40; sleep 1"),
    ("rescan", "echo 1 > /sys/bus/pci/rescan"),
    ("driver-result", "dmesg (or journalctl -k) lines naming 0000:23:00.0 after the rescan; the driver bound to it"),
    ("fallback", "cold power cycle: power off, remove AC or ipmitool chassis power cycle, power on")], steps
assert "42 DMA-FQ" in g["steps"][1]["why"], g["steps"][1]["why"]
' && pass json-steps || fail json-steps "steps or values not as expected"

t_run script 0 fwlens plan "$ID" --gpu-recovery 0000:23:00.0,24:00.0 -o rec.sh
sh -n rec.sh && pass script-sh-n || fail script-sh-n "sh -n refuses the script"
if command -v shellcheck >/dev/null 2>&1; then
	shellcheck -s sh rec.sh >sc 2>&1 && pass script-shellcheck || fail script-shellcheck "$(head -c 300 sc)"
else
	skip script-shellcheck "shellcheck is not installed"
fi
grep -q "^# GPU 0000:24:00.0: the driver failed: \[ 7604.600800\] nvidia: probe of 0000:24:00.0 failed with error -1$" rec.sh &&
	pass script-names-evidence || fail script-names-evidence "no evidence line for 0000:24:00.0"
grep -q "cold power cycle" rec.sh && pass script-names-fallback || fail script-names-fallback "no fallback named"

# stand-ins: setpci and sleep log their calls (setpci binds the driver when asked); dmesg prints the captured log, and after the
# rescan one more line ($STAND_RESULT)
mkdir -p bin
cat >bin/setpci <<'EOF'
#!/bin/sh
echo setpci "$@" >>"$STAND_LOG"
# STAND_BIND=BRIDGE=GPU: the driver binds the GPU once the bridge's reset ends
if [ "$3" = BRIDGE_CONTROL=0x00:0x40 ] && [ "$2" = "${STAND_BIND%%=*}" ]; then
	ln -s /sys/bus/pci/drivers/nvidia "$FWLENS_ROOT/sys/bus/pci/devices/${STAND_BIND#*=}/driver"
fi
EOF
printf '#!/bin/sh\necho sleep "$@" >>"$STAND_LOG"\n' >bin/sleep
cat >bin/dmesg <<'EOF'
#!/bin/sh
cat "$FWLENS_ROOT/var/log/dmesg"
if [ -f "$FWLENS_ROOT/sys/bus/pci/rescan" ] && [ -n "${STAND_RESULT:-}" ]; then echo "$STAND_RESULT"; fi
EOF
chmod +x bin/*
export STAND_LOG="$T_DIR/stand.log"
R="$T_DIR/root"
cp -a "$ID" "$R"
tree_sum() { find "$R" -type f -exec md5sum {} + | sort; find "$R" | sort; }
tree_sum >before.sum
PATH="$T_DIR/bin:$PATH" FWLENS_ROOT="$R" t_run dry-run 0 sh rec.sh
tree_sum >after.sum
cmp -s before.sum after.sum && [ ! -e stand.log ] && pass dry-run-writes-nothing || fail dry-run-writes-nothing "the dry run changed the root or ran setpci"
cat >want <<'EOF'
GPU 0000:23:00.0 (upstream bridge 0000:22:00.0, IOMMU group 13):
  (1) check that no process holds /dev/nvidia0 /dev/vfio/13
  (2) echo DMA-FQ > /sys/kernel/iommu_groups/13/type
  (3) echo 1 > /sys/bus/pci/devices/0000:23:00.0/remove
  (4) setpci -s 0000:22:00.0 BRIDGE_CONTROL=0x40:0x40; sleep 1; setpci -s 0000:22:00.0 BRIDGE_CONTROL=0x00:0x40; sleep 1
  (5) echo 1 > /sys/bus/pci/rescan
  (6) read the kernel log (dmesg, journalctl -k) for 0000:23:00.0
GPU 0000:24:00.0 (upstream bridge 0000:22:01.0, IOMMU group 15):
  (1) check that no process holds /dev/nvidia1 /dev/vfio/15
  (2) echo DMA-FQ > /sys/kernel/iommu_groups/15/type
  (3) echo 1 > /sys/bus/pci/devices/0000:24:00.0/remove
  (4) setpci -s 0000:22:01.0 BRIDGE_CONTROL=0x40:0x40; sleep 1; setpci -s 0000:22:01.0 BRIDGE_CONTROL=0x00:0x40; sleep 1
  (5) echo 1 > /sys/bus/pci/rescan
  (6) read the kernel log (dmesg, journalctl -k) for 0000:24:00.0
dry run: nothing changed (give --apply)
EOF
cmp -s want "$T_OUT" && pass dry-run-steps || fail dry-run-steps "$(diff want "$T_OUT" | head -5 | tr '\n' ' ')"

# a process holds /dev/nvidia0: refused, nothing done for that GPU
mkdir -p "$R/proc/4242/fd"
ln -s /dev/nvidia0 "$R/proc/4242/fd/7"
echo python3 >"$R/proc/4242/comm"
PATH="$T_DIR/bin:$PATH" FWLENS_ROOT="$R" t_run held 1 sh rec.sh --apply
grep -q "^/dev/nvidia0 is held by process 4242 (python3)$" "$T_ERR" && grep -q "GPU 0000:23:00.0 is in use: not recovered" "$T_ERR" &&
	pass held-says || fail held-says "$(cat "$T_ERR")"
[ "$(cat "$R/sys/kernel/iommu_groups/13/type")" = identity ] && [ ! -e "$R/sys/bus/pci/devices/0000:23:00.0/remove" ] &&
	pass held-untouched || fail held-untouched "the held GPU was changed"
rm -rf "$R" stand.log

# applied, and the driver binds this time: recovered
cp -a "$ID" "$R"
STAND_BIND=0000:22:00.0=0000:23:00.0 STAND_RESULT="[ 9000.100000] NVRM: GPU 0000:23:00.0: enabled" PATH="$T_DIR/bin:$PATH" FWLENS_ROOT="$R" \
	t_run apply-recovered 1 sh rec.sh --apply
t_contains apply-recovered-says "GPU 0000:23:00.0: recovered, driver nvidia bound, no failure logged"
[ "$(cat "$R/sys/kernel/iommu_groups/13/type")" = DMA-FQ ] && [ "$(cat "$R/sys/bus/pci/devices/0000:23:00.0/remove")" = 1 ] &&
	[ "$(cat "$R/sys/bus/pci/rescan")" = 1 ] && pass apply-written || fail apply-written "type, remove or rescan not written"
printf '%s\n' "setpci -s 0000:22:00.0 BRIDGE_CONTROL=0x40:0x40" "sleep 1" "setpci -s 0000:22:00.0 BRIDGE_CONTROL=0x00:0x40" "sleep 1" \
	"setpci -s 0000:22:01.0 BRIDGE_CONTROL=0x40:0x40" "sleep 1" "setpci -s 0000:22:01.0 BRIDGE_CONTROL=0x00:0x40" "sleep 1" >want
cmp -s want stand.log && pass apply-bus-reset || fail apply-bus-reset "$(tr '\n' ' ' <stand.log)"
# 0000:24:00.0 got no driver and no failure line: not known, exit 1
grep -q "GPU 0000:24:00.0: no failure logged but no driver bound: not known" "$T_ERR" && pass apply-not-known ||
	fail apply-not-known "$(cat "$T_ERR")"
rm -rf "$R" stand.log

# applied, and the driver fails again: not recovered, the power cycle named
cp -a "$ID" "$R"
STAND_BIND= STAND_RESULT="[ 9000.100000] NVRM: GPU 0000:23:00.0: RmInitAdapter failed! (0x62:0xffff:2142)" PATH="$T_DIR/bin:$PATH" \
	FWLENS_ROOT="$R" t_run apply-failed 1 sh rec.sh --apply
grep -q "GPU 0000:23:00.0: NOT recovered, the driver failed again:" "$T_ERR" && grep -q "power-cycle the machine (cold" "$T_ERR" &&
	pass apply-failed-says || fail apply-failed-says "$(cat "$T_ERR")"

# refusals
t_run not-a-gpu 2 fwlens plan "$ID" --gpu-recovery 0000:22:00.0
grep -q "0000:22:00.0 is not a GPU of this machine" "$T_ERR" && pass not-a-gpu-says || fail not-a-gpu-says "$(cat "$T_ERR")"
t_run not-in-tree 2 fwlens plan "$ID" --gpu-recovery 0000:99:00.0
t_run bad-bdf 2 fwlens plan "$ID" --gpu-recovery nonsense
t_run working-gpu 2 fwlens plan "$SAMPLES/sysroot-1104" --gpu-recovery 0000:23:00.0
grep -q "GPU 0000:23:00.0" "$T_ERR" && grep -q "reset a GPU that" "$T_ERR" && pass working-gpu-says || fail working-gpu-says "$(cat "$T_ERR")"
t_run none-failed 3 fwlens plan "$SAMPLES/sysroot-1104" --gpu-recovery failed
grep -q "the kernel log (var/log/dmesg) shows no GPU whose driver failed" "$T_ERR" && pass none-failed-says ||
	fail none-failed-says "$(cat "$T_ERR")"
