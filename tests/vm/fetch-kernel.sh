#!/bin/sh
# Fetch Debian's current amd64 kernel package for the lab without installing it: resolve the meta
# package linux-image-amd64 to the versioned one, `apt-get download` it into $LAB and unpack the
# kernel and the modules the lab loads into $LAB/kernel. Does nothing when that is already there.
# Exit 0 when the kernel is there afterwards, 1 (with the reason on stderr) when not.
set -u
: "${FWLENS_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${FWLENS_BUILD:=$FWLENS_SRCDIR/build}"
: "${LAB:=$FWLENS_BUILD/lab}"
if ls "$LAB"/kernel/boot/vmlinuz-*-amd64 >/dev/null 2>&1; then exit 0; fi
command -v apt-get >/dev/null 2>&1 || { echo "fwlens lab: no apt-get to fetch the kernel package" >&2; exit 1; }
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1)
[ -n "$pkg" ] || { echo "fwlens lab: linux-image-amd64 names no versioned kernel package (apt-get update?)" >&2; exit 1; }
mkdir -p "$LAB"
deb=$(ls "$LAB/$pkg"_*.deb 2>/dev/null | head -n 1)
if [ -z "$deb" ]; then
	(cd "$LAB" && apt-get download "$pkg" >/dev/null 2>&1) || { echo "fwlens lab: apt-get download $pkg failed" >&2; exit 1; }
	deb=$(ls "$LAB/$pkg"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || { echo "fwlens lab: apt-get download $pkg left no package" >&2; exit 1; }
fi
rm -rf "$LAB/kernel.tmp"
mkdir -p "$LAB/kernel.tmp"
# only the kernel, the module lists and the folders holding the modules the lab loads
# (efivarfs; 9p over virtio with netfs and fscache)
if ! dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$LAB/kernel.tmp" --wildcards './boot/vmlinuz-*' \
	'./lib/modules/*/modules.builtin' './lib/modules/*/kernel/fs/efivarfs/*' \
	'./lib/modules/*/kernel/fs/9p/*' './lib/modules/*/kernel/net/9p/*' './lib/modules/*/kernel/fs/netfs/*' \
	'./lib/modules/*/kernel/fs/fscache/*' './lib/modules/*/kernel/drivers/virtio/*' 2>"$LAB/kernel.tmp.err"; then
	echo "fwlens lab: could not unpack $deb: $(head -n 2 "$LAB/kernel.tmp.err")" >&2
	exit 1
fi
rm -f "$LAB/kernel.tmp.err"
rm -rf "$LAB/kernel" && mv "$LAB/kernel.tmp" "$LAB/kernel"
rm -f "$deb"
