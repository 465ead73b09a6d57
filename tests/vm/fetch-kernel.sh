#!/bin/sh
# Fetch Debian's current amd64 kernel package for the lab without installing it: resolve the meta
# package linux-image-amd64 to the versioned one, `apt-get download` it into $LAB and unpack the
# kernel and the modules the lab loads into $LAB/kernel. Does nothing when that is already there.
# Exit 0 when the kernel is there afterwards, 1 (with the reason on stderr) when not. A kernel
# unpacked before the security step needed the msr module is fetched again; when that fails the
# kernel there is kept (the security step then says the module is absent).
set -u
: "${FWLENS_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${FWLENS_BUILD:=$FWLENS_SRCDIR/build}"
: "${LAB:=$FWLENS_BUILD/lab}"
have_kernel() { ls "$LAB"/kernel/boot/vmlinuz-*-amd64 >/dev/null 2>&1; }
have_msr() {
	[ -n "$(find "$LAB/kernel/lib/modules" -path '*/arch/x86/kernel/msr.ko*' 2>/dev/null | head -n 1)" ] ||
		grep -qs '/msr.ko$' "$LAB"/kernel/lib/modules/*/modules.builtin
}
if have_kernel && have_msr; then exit 0; fi
# keep an older unpacked kernel when a new fetch fails
give_up() {
	echo "$1" >&2
	if have_kernel; then exit 0; fi
	exit 1
}
command -v apt-get >/dev/null 2>&1 || give_up "fwlens lab: no apt-get to fetch the kernel package"
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1)
[ -n "$pkg" ] || give_up "fwlens lab: linux-image-amd64 names no versioned kernel package (apt-get update?)"
mkdir -p "$LAB"
deb=$(ls "$LAB/$pkg"_*.deb 2>/dev/null | head -n 1)
if [ -z "$deb" ]; then
	(cd "$LAB" && apt-get download "$pkg" >/dev/null 2>&1) || give_up "fwlens lab: apt-get download $pkg failed"
	deb=$(ls "$LAB/$pkg"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || give_up "fwlens lab: apt-get download $pkg left no package"
fi
rm -rf "$LAB/kernel.tmp"
mkdir -p "$LAB/kernel.tmp"
# only the kernel, the module lists and the folders holding the modules the lab loads
# (efivarfs; 9p over virtio with netfs and fscache), then msr, which the security step loads
if ! dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$LAB/kernel.tmp" --wildcards './boot/vmlinuz-*' \
	'./lib/modules/*/modules.builtin' './lib/modules/*/kernel/fs/efivarfs/*' \
	'./lib/modules/*/kernel/fs/9p/*' './lib/modules/*/kernel/net/9p/*' './lib/modules/*/kernel/fs/netfs/*' \
	'./lib/modules/*/kernel/fs/fscache/*' './lib/modules/*/kernel/drivers/virtio/*' 2>"$LAB/kernel.tmp.err"; then
	give_up "fwlens lab: could not unpack $deb: $(head -n 2 "$LAB/kernel.tmp.err")"
fi
# msr apart: a kernel with it built in has no file to match
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$LAB/kernel.tmp" --wildcards './lib/modules/*/kernel/arch/x86/kernel/msr.ko*' \
	2>/dev/null || true
rm -f "$LAB/kernel.tmp.err"
rm -rf "$LAB/kernel" && mv "$LAB/kernel.tmp" "$LAB/kernel"
rm -f "$deb"
