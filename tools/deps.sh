#!/bin/sh
# Install the Debian packages fwlens needs to build and test, or say exactly what is missing.
# Build: compiler, pkg-config and the libraries. Tests: the oracles (UEFIExtract, iasl/acpixtract,
# OVMF/AAVMF images; Ansible, promtool and systemd-analyze for the fleet playbooks, metrics and
# units; QEMU, busybox-static and Debian's kernel package for the real-kernel lab, tests/vm).
# Set FWLENS_NO_DEPS=1 to skip this step.
set -u
[ "${FWLENS_NO_DEPS:-0}" = 1 ] && exit 0

build_pkgs="gcc make pkg-config liblzma-dev libbrotli-dev zlib1g-dev libssl-dev libxml2-dev libjansson-dev libarchive-dev libpcre2-dev libpci-dev"
test_pkgs="uefitool-cli acpica-tools ovmf qemu-efi-aarch64 openssl ansible-core ansible prometheus systemd qemu-system-x86 busybox-static graphviz shellcheck libxml2-utils jq python3 pci.ids debhelper dpkg-dev"
optional_pkgs="clang libclang-rt-14-dev hyperfine"

missing=""
for p in $build_pkgs $test_pkgs; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
opt_missing=""
for p in $optional_pkgs; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case "$status" in
	*"install ok installed"*) ;;
	*) opt_missing="$opt_missing $p" ;;
	esac
done

# the lab's kernel: Debian's linux-image-amd64, downloaded and unpacked into the build folder
# (not installed); the lab skips with the reason when it cannot be had
fetch_kernel() {
	case ${FWLENS_BUILD:-build} in */sanitize) return 0 ;; esac # the lab runs in the plain build only
	FWLENS_BUILD=${FWLENS_BUILD:-build} sh "$(dirname "$0")/../tests/vm/fetch-kernel.sh" ||
		echo "fwlens: the real-kernel lab will skip: no kernel package" >&2
}

if [ -z "$missing" ] && [ -z "$opt_missing" ]; then
	fetch_kernel
	exit 0
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "fwlens: installing Debian packages:$missing$opt_missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y --no-install-recommends $missing $opt_missing >/dev/null 2>&1; then
		apt-get update >/dev/null 2>&1 || true
		if ! apt-get install -y --no-install-recommends $missing >/dev/null; then
			echo "fwlens: apt-get could not install:$missing" >&2
			exit 1
		fi
		apt-get install -y --no-install-recommends $opt_missing >/dev/null 2>&1 ||
			echo "fwlens: optional packages not installed (fuzzing, benchmarks):$opt_missing" >&2
	fi
	fetch_kernel
	exit 0
fi

if [ -n "$missing" ]; then
	echo "fwlens: missing Debian packages:$missing" >&2
	echo "fwlens: install them as root with:" >&2
	echo "    apt-get install -y$missing$opt_missing" >&2
	exit 1
fi
echo "fwlens: optional packages missing (fuzzing, benchmarks):$opt_missing" >&2
fetch_kernel
exit 0
