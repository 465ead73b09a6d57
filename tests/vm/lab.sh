#!/bin/sh
# The real-kernel lab: Debian's kernel under QEMU (TCG) with OVMF, an emulated AMD IOMMU and two
# NUMA nodes, running the built fwlens. See tests/vm/README.md.
#
#   tests/vm/lab.sh prepare            find the kernel, build the initramfs (prints why when it cannot)
#   tests/vm/lab.sh boot NAME VARS RUN [APPEND...]
#                                      boot once with the VARS file (created from OVMF_VARS_4M.fd when
#                                      missing) and run the guest parts RUN (comma-separated names of
#                                      tests/vm/guest/*.sh); results land in $LAB/out/NAME/
#
# Environment: FWLENS_BUILD (build folder), FWLENS_SRCDIR, LAB (work folder, default
# $FWLENS_BUILD/lab), LAB_KERNEL (a vmlinuz with its lib/modules beside it, to override the search),
# LAB_TIMEOUT (seconds per boot, default 240).
set -u
: "${FWLENS_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${FWLENS_BUILD:=$FWLENS_SRCDIR/build}"
: "${LAB:=$FWLENS_BUILD/lab}"
: "${LAB_TIMEOUT:=240}"
OVMF_DIR=${OVMF_DIR:-/usr/share/OVMF}
OVMF_CODE=$OVMF_DIR/OVMF_CODE_4M.fd
OVMF_VARS=$OVMF_DIR/OVMF_VARS_4M.fd
GUEST_DIR=$FWLENS_SRCDIR/tests/vm/guest

say() { echo "lab: $*" >&2; }

# What the lab cannot run without, as one plain sentence on stdout (nothing when all is there).
lab_missing() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 || { echo "qemu-system-x86_64 is not installed (Debian: qemu-system-x86)"; return; }
	[ -r "$OVMF_CODE" ] && [ -r "$OVMF_VARS" ] || { echo "OVMF is not installed ($OVMF_CODE, Debian: ovmf)"; return; }
	busybox_path >/dev/null || { echo "a static busybox is not installed (Debian: busybox-static)"; return; }
	[ -x "$FWLENS_BUILD/fwlens" ] || { echo "fwlens is not built ($FWLENS_BUILD/fwlens)"; return; }
	find_kernel >/dev/null || { echo "no Debian kernel: none in /boot, and the linux-image-*-amd64 package could not be fetched into $LAB/kernel (tools/deps.sh fetches it)"; return; }
}

busybox_path() {
	for b in /bin/busybox /usr/bin/busybox; do
		# a dynamic busybox would need its libraries in the initramfs too; only the static one is taken
		if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then echo "$b"; return 0; fi
	done
	return 1
}

# The kernel: LAB_KERNEL, the Debian package unpacked in $LAB/kernel (tools/deps.sh puts it there),
# or /boot with /lib/modules. Prints "VMLINUZ MODULES_DIR".
find_kernel() {
	if [ -n "${LAB_KERNEL:-}" ]; then
		v=$(basename "$LAB_KERNEL"); v=${v#vmlinuz-}
		m=$(dirname "$LAB_KERNEL")/../lib/modules/$v
		[ -r "$LAB_KERNEL" ] && [ -d "$m" ] && { echo "$LAB_KERNEL $m"; return 0; }
		return 1
	fi
	for k in "$LAB"/kernel/boot/vmlinuz-*-amd64 /boot/vmlinuz-*; do
		[ -r "$k" ] || continue
		v=${k##*/vmlinuz-}
		case $k in "$LAB"/*) m=$LAB/kernel/lib/modules/$v ;; *) m=/lib/modules/$v ;; esac
		if [ -r "$m/kernel/fs/efivarfs/efivarfs.ko" ]; then echo "$k $m"; return 0; fi
	done
	return 1
}

# A module's dependencies, read from its .modinfo strings (modinfo -F depends, without needing kmod).
module_depends() {
	if command -v modinfo >/dev/null 2>&1; then
		modinfo -F depends "$1" 2>/dev/null | tr ',' ' '
	else
		case $1 in
		*.xz) xz -dc "$1" ;; *.zst) zstd -dc "$1" ;; *) cat "$1" ;;
		esac | tr '\0' '\n' | sed -n 's/^depends=//p' | tr ',' ' '
	fi
}

module_file() { find "$2/kernel" -name "$1.ko" -o -name "$1.ko.xz" -o -name "$1.ko.zst" | head -n 1; }

# Print the module files for NAMES, each after the modules it depends on, each once: repeat
# passes over what is still wanted, taking a module once all its dependencies are taken.
modules_in_order() {
	mdir=$1
	shift
	want=$(echo "$@" | tr '-' '_')
	taken=" "
	while [ -n "$want" ]; do
		next="" progress=0
		for name in $want; do
			case $taken in *" $name "*) continue ;; esac
			f=$(module_file "$name" "$mdir")
			[ -n "$f" ] || f=$(module_file "$(echo "$name" | tr '_' '-')" "$mdir")
			if [ -z "$f" ]; then
				# built into the kernel: nothing to load
				if grep -q "/$name.ko" "$mdir/modules.builtin" 2>/dev/null; then
					taken="$taken$name "; progress=1; continue
				fi
				say "module $name not found under $mdir"
				return 1
			fi
			ready=1
			for d in $(module_depends "$f"); do
				d=$(echo "$d" | tr '-' '_')
				case $taken in *" $d "*) ;; *) ready=0; next="$next $d" ;; esac
			done
			if [ $ready = 1 ]; then
				echo "$f"; taken="$taken$name "; progress=1
			else
				next="$next $name"
			fi
		done
		want=$(echo "$next" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ')
		if [ $progress = 0 ] && [ -n "$want" ]; then say "modules with circular dependencies: $want"; return 1; fi
	done
}

# Copy a program and the libraries ldd names to the same paths under $1.
copy_with_libs() {
	root=$1 prog=$2
	mkdir -p "$root$(dirname "$prog")"
	cp -L "$prog" "$root$prog"
	ldd "$prog" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
		while read -r lib; do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
}

# Build $LAB/initrd.gz: busybox, fwlens, iasl, the modules (efivarfs, 9p over virtio; msr), the guest
# parts and OVMF's code image (the forms fwlens plans with). Rebuilt when fwlens or a guest part is newer.
prepare() {
	why=$(lab_missing)
	if [ -n "$why" ]; then echo "$why"; return 1; fi
	set -- $(find_kernel)
	KERNEL=$1 MODDIR=$2
	echo "$KERNEL" >"$LAB/kernel.path" 2>/dev/null || { mkdir -p "$LAB" && echo "$KERNEL" >"$LAB/kernel.path"; }
	initrd=$LAB/initrd.gz
	if [ -f "$initrd" ] && [ -z "$(find "$FWLENS_BUILD/fwlens" "$GUEST_DIR" "$FWLENS_SRCDIR/tests/vm/lab.sh" -newer "$initrd" 2>/dev/null | head -n 1)" ]; then
		return 0
	fi
	root=$LAB/initramfs
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run" \
		"$root/var/log" "$root/lab" "$root/etc" "$root/lib/modules" "$root/lab-guest" "$root/usr/share/OVMF"
	cp "$(busybox_path)" "$root/bin/busybox"
	copy_with_libs "$root" "$FWLENS_BUILD/fwlens"
	mkdir -p "$root/usr/bin" && mv "$root$FWLENS_BUILD/fwlens" "$root/usr/bin/fwlens"
	if command -v iasl >/dev/null 2>&1; then copy_with_libs "$root" "$(command -v iasl)"; fi
	# lsattr/chattr for the efivarfs script's immutable files (e2fsprogs), when the host has them
	for p in chattr lsattr; do
		command -v $p >/dev/null 2>&1 && copy_with_libs "$root" "$(command -v $p)"
	done
	mods=$(modules_in_order "$MODDIR" efivarfs 9p 9pnet_virtio virtio_pci) || return 1
	: >"$root/lib/modules/load"
	for f in $mods; do
		b=$(basename "$f")
		case $b in
		*.xz) xz -dc "$f" >"$root/lib/modules/${b%.xz}"; b=${b%.xz} ;;
		*.zst) zstd -qdc "$f" >"$root/lib/modules/${b%.zst}"; b=${b%.zst} ;;
		*) cp "$f" "$root/lib/modules/$b" ;;
		esac
		echo "$b" >>"$root/lib/modules/load"
	done
	# msr for the security step, which loads it itself: the other parts run without /dev/cpu/N/msr
	f=$(module_file msr "$MODDIR")
	case $f in
	"") ;;
	*.xz) xz -dc "$f" >"$root/lib/modules/msr.ko" ;;
	*.zst) zstd -qdc "$f" >"$root/lib/modules/msr.ko" ;;
	*) cp "$f" "$root/lib/modules/msr.ko" ;;
	esac
	cp "$GUEST_DIR"/* "$root/lab-guest/"
	mv "$root/lab-guest/init" "$root/init"
	chmod +x "$root/init" "$root"/lab-guest/*.sh
	cp "$OVMF_CODE" "$root/usr/share/OVMF/"
	CPIO=cpio
	command -v cpio >/dev/null 2>&1 || CPIO="$root/bin/busybox cpio"
	(cd "$root" && find . | $CPIO -o -H newc 2>/dev/null | gzip -1) >"$initrd.tmp" && mv "$initrd.tmp" "$initrd"
}

# Boot once. $1 name (results in $LAB/out/NAME), $2 the VARS file (kept across the boots of one
# scenario), $3 the guest parts to run, then extra kernel arguments. The guest mounts
# $LAB/out/NAME at /lab over 9p; the host may put inputs there first. The serial console is
# kept in $LAB/out/NAME.console. Prints the boot's wall time; exit 1 when the guest did not finish.
boot() {
	name=$1 vars=$2 run=$3
	shift 3
	out=$LAB/out/$name
	mkdir -p "$out"
	[ -f "$vars" ] || cp "$OVMF_VARS" "$vars"
	t0=$(date +%s)
	timeout "$LAB_TIMEOUT" qemu-system-x86_64 -machine q35 -accel tcg -smp 2 -m 2048 \
		-display none -no-reboot -serial "file:$out.console" -monitor none \
		-device amd-iommu \
		-drive if=pflash,format=raw,readonly=on,file="$OVMF_CODE" \
		-drive if=pflash,format=raw,file="$vars" \
		-object memory-backend-ram,id=m0,size=1G -object memory-backend-ram,id=m1,size=1G \
		-numa node,nodeid=0,memdev=m0,cpus=0 -numa node,nodeid=1,memdev=m1,cpus=1 \
		-device pxb-pcie,id=pxb1,bus_nr=0x40,numa_node=1,bus=pcie.0 \
		-device pcie-root-port,id=rp1,bus=pxb1,chassis=1,slot=1 -device e1000e,bus=rp1 \
		-device pcie-root-port,id=rp2,bus=pxb1,chassis=2,slot=2 -device e1000e,bus=rp2 \
		-device pxb-pcie,id=pxb0,bus_nr=0x20,numa_node=0,bus=pcie.0 \
		-device pcie-root-port,id=rp3,bus=pxb0,chassis=3,slot=3 -device e1000e,bus=rp3 \
		-device e1000e,bus=pcie.0 \
		-fsdev local,id=labfs,path="$out",security_model=none \
		-device virtio-9p-pci,fsdev=labfs,mount_tag=lab,bus=pcie.0 \
		-kernel "$(cat "$LAB/kernel.path")" -initrd "$LAB/initrd.gz" \
		-append "console=ttyS0 panic=-1 amd_iommu=on intremap=off lab.run=$run $*" \
		>"$out.qemu" 2>&1
	rc=$?
	t1=$(date +%s)
	echo "$((t1 - t0))" >"$out.seconds"
	if ! grep -q '^LAB-DONE' "$out.console" 2>/dev/null; then
		say "boot $name did not finish (qemu exit $rc; console $out.console): $(tail -n 5 "$out.console" 2>/dev/null | tr '\n' ' ')"
		return 1
	fi
	return 0
}

case ${1:-} in
prepare) shift; prepare "$@" ;;
boot) shift; prepare >/dev/null && boot "$@" ;;
missing) lab_missing ;;
*) echo "usage: $0 prepare | boot NAME VARS RUN [APPEND...] | missing" >&2; exit 2 ;;
esac
