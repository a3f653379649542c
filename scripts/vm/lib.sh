# SPDX-License-Identifier: GPL-2.0-only
# Host-side helpers of the VM harness: kernel selection, vmlinux extraction,
# the cached base initramfs. Sourced by scripts/vm/run and scripts/check.

VM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VM_BUILD=${VM_BUILD:-$VM_TOP/build/vm}

vm_die() {
	echo "vm: $*" >&2
	exit 4
}

# vm_kernel_release SERIES: newest installed Debian kernel release of a
# series ("6.1", "6.12") that has an image, modules and headers.
vm_kernel_release() {
	local series=$1 rel best=

	# the debug kernel (scripts/debug-kernel) lives in its cache
	if [ "$series" = debug ]; then
		"$VM_TOP/scripts/debug-kernel" --release ||
			vm_die "the debug kernel is not built (make debug-kernel)"
		return
	fi
	for d in /lib/modules/"$series".*-amd64; do
		[ -d "$d" ] || continue
		rel=${d##*/}
		[ -f "/boot/vmlinuz-$rel" ] || continue
		[ -d "/usr/src/linux-headers-$rel" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$rel" | sed '/^$/d' | sort -V | tail -n 1)
	done
	[ -n "$best" ] || vm_die "no installed kernel of series $series (run make deps)"
	echo "$best"
}

# vm_extract_vmlinux BZIMAGE OUT: the ELF vmlinux inside a bzImage, which
# boots faster under TCG than the compressed image (no decompression).
vm_extract_vmlinux() {
	local bz=$1 out=$2 magic tool off

	for pair in '\xfd\x37\x7a\x58\x5a\x00:xz -dc' \
		    '\x28\xb5\x2f\xfd:zstd -dcq' '\x1f\x8b\x08:gzip -dc'; do
		magic=${pair%%:*}
		tool=${pair#*:}
		for off in $(LC_ALL=C grep -obUaP "$magic" "$bz" | cut -d: -f1); do
			tail -c +$((off + 1)) "$bz" | $tool > "$out.tmp" 2>/dev/null
			if readelf -h "$out.tmp" >/dev/null 2>&1; then
				mv "$out.tmp" "$out"
				return 0
			fi
		done
	done
	rm -f "$out.tmp"
	return 1
}

# vm_cache_lock DIR: hold DIR's lock until the calling (sub)shell exits or
# closes $vm_lock_fd, so that VM runs started in parallel (scripts/check
# with VM_JOBS > 1) build a kernel's cache once, not over each other.
vm_cache_lock() {
	exec {vm_lock_fd}> "$1/.lock"
	flock "$vm_lock_fd"
}

# vm_is_debug KREL: whether KREL is the debug kernel's release.
vm_is_debug() {
	[[ $1 == *-scst-debug ]]
}

# vm_kernel_hz KREL: that kernel's CONFIG_HZ (tests that give scsi_debug
# a delay in jiffies need it: Debian's kernels run at 250, the debug
# kernel at defconfig's 1000); empty when its config is not found.
vm_kernel_hz() {
	local config=/boot/config-$1

	vm_is_debug "$1" &&
		config=$("$VM_TOP/scripts/debug-kernel" --dir)/obj/.config
	sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' "$config" 2> /dev/null
}

# vm_vmlinux KREL: path of the cached vmlinux for that kernel.
vm_vmlinux() {
	local krel=$1 dir=$VM_BUILD/$1

	if vm_is_debug "$krel"; then
		"$VM_TOP/scripts/debug-kernel" --image
		return
	fi
	mkdir -p "$dir"
	vm_cache_lock "$dir"
	if [ ! -s "$dir/vmlinux" ] || [ "/boot/vmlinuz-$krel" -nt "$dir/vmlinux" ]; then
		vm_extract_vmlinux "/boot/vmlinuz-$krel" "$dir/vmlinux" ||
			vm_die "cannot extract vmlinux from /boot/vmlinuz-$krel"
	fi
	exec {vm_lock_fd}>&-
	echo "$dir/vmlinux"
}

# vm_base_cpio KREL: path of the cached base initramfs (busybox, tools,
# libraries, kernel modules), rebuilt when its inputs change.
vm_base_cpio() {
	local krel=$1 dir=$VM_BUILD/$1 key

	mkdir -p "$dir"
	# the modules' directory too: the debug kernel's release stays the
	# same when its config (and cache directory) changes
	key=$( { cat "$VM_TOP/scripts/vm/mkinitramfs"; echo "$krel";
		 readlink -f "/lib/modules/$krel"; dpkg-query -W 2>/dev/null; } |
	       sha256sum | cut -c1-16)
	vm_cache_lock "$dir"
	if [ ! -s "$dir/base-$key.cpio" ]; then
		rm -f "$dir"/base-*.cpio
		"$VM_TOP/scripts/vm/mkinitramfs" "$krel" "$dir/base-$key.cpio" >&2 ||
			vm_die "building the base initramfs failed"
	fi
	exec {vm_lock_fd}>&-
	echo "$dir/base-$key.cpio"
}
