# SPDX-License-Identifier: GPL-2.0-only
# Host-side helpers of the VM harness: kernel selection, vmlinux extraction,
# the cached base initramfs, the per-run initramfs, the verdict on a guest's
# log. Sourced by scripts/vm/run, scripts/vm/multi and scripts/check.

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

# The kernel command line every test guest boots with (the test's own
# words follow).
VM_APPEND="console=ttyS0,115200 panic=-1 oops=panic loglevel=4 tsc=reliable mitigations=off"

# vm_test_append TEST KREL [WORDS]: the kernel command line words of a test
# beyond VM_APPEND: the debug kernel's unmerged caches, the kernel's HZ,
# the caller's WORDS, and the test's own "# vm-append: ..." line.
vm_test_append() {
	local test=$1 krel=$2 words='' hz line

	# the debug kernel: caches unmerged, so that fault injection can
	# single out ours (/sys/kernel/slab/NAME/failslab) and KASAN tells
	# them apart
	vm_is_debug "$krel" && words="slab_nomerge"
	# the guest test's $KERNEL_HZ (scsi_debug delays are in jiffies)
	hz=$(vm_kernel_hz "$krel")
	[ -n "$hz" ] && words="KERNEL_HZ=$hz $words"
	words="$words ${3:-}"
	line=$(sed -n 's/^# vm-append: *//p' "$VM_TOP/tests/vm/$test.sh" | head -n 1)
	[ -n "$line" ] && words="$words $line"
	echo "$words"
}

# vm_initrd TEST KREL WORK: builds WORK/initrd.cpio (our modules built
# for KREL: the caller checks), the cached base initramfs plus the per-run
# part: /init, the tests, our modules and tools,
# and what TEST.tools, TEST.files and TEST.modules ask for. In the run's
# own part, so the cached base and the other tests stay as they are.
vm_initrd() {
	local test=$1 krel=$2 work=$3 base kmod_dir overlay tool prog path f
	local src dst mod deps optional

	base=$(vm_base_cpio "$krel") || exit 4
	kmod_dir=$VM_TOP/build/kmod/$krel
	overlay=$work/overlay
	mkdir -p "$overlay/tests" "$overlay/lib/modules/$krel/updates"
	cp "$VM_TOP/tests/vm/init" "$overlay/init"
	cp -r "$VM_TOP"/tests/vm/*.sh "$VM_TOP/tests/vm/lib" "$overlay/tests/"
	find "$kmod_dir" -name '*.ko' -exec cp {} "$overlay/lib/modules/$krel/updates/" \;
	# our userspace tools, when built: scstadmin needs only libc,
	# srp_hostile librdmacm and libibverbs, which the base has for rping
	for tool in usr/scstadmin/scstadmin usr/affinity/scst-affinity \
		    tests/tools/srp_hostile; do
		if [ -x "$VM_TOP/$tool" ]; then
			mkdir -p "$overlay/usr/sbin"
			cp "$VM_TOP/$tool" "$overlay/usr/sbin/"
		fi
	done
	# host programs only one test needs (tests/vm/TEST.tools, one a
	# line, such as gnuplot), with their shared libraries; a host file
	# by its absolute path, with them too; or a host directory by its
	# absolute path (a script language's library, such
	# as /usr/lib/python3.11), with the shared libraries of the shared
	# objects in it. Python's tests, build files and GUI, and udev's
	# hardware database, stay behind.
	if [ -f "$VM_TOP/tests/vm/$test.tools" ]; then
		while read -r prog; do
			case $prog in ''|'#'*) continue ;; esac
			if [ "${prog#/}" != "$prog" ] && [ -d "$prog" ]; then
				tar -C / -c --exclude=test --exclude=idlelib \
					--exclude=tkinter --exclude='config-*' \
					--exclude=lib2to3 --exclude=ensurepip \
					--exclude=hwdb.bin --exclude=hwdb.d \
					"${prog#/}" | tar -x -C "$overlay" ||
					vm_die "$test.tools: cannot copy $prog"
				for f in $(find "$prog" -name '*.so*' -type f -exec ldd {} + 2>/dev/null | grep -v ':$' |
					   grep -o '/[^ ]*' | sort -u); do
					[ -e "$overlay$f" ] && continue
					mkdir -p "$overlay$(dirname "$f")"
					cp -L "$f" "$overlay$f"
				done
				continue
			fi
			if [ "${prog#/}" != "$prog" ] && [ -f "$prog" ]; then
				path=$prog
			else
				path=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$prog") ||
					vm_die "$test.tools: $prog not found (make deps)"
			fi
			for f in "$path" $(ldd "$path" 2>/dev/null | grep -o '/[^ ]*'); do
				[ -e "$overlay$f" ] && continue
				mkdir -p "$overlay$(dirname "$f")"
				cp -L "$f" "$overlay$f"
			done
		done < "$VM_TOP/tests/vm/$test.tools"
	fi
	# files of the tree only one test needs (tests/vm/TEST.files,
	# "SOURCE GUEST-PATH" a line, such as the service scripts of
	# usr/service/ where the package installs them)
	if [ -f "$VM_TOP/tests/vm/$test.files" ]; then
		while read -r src dst; do
			case $src in ''|'#'*) continue ;; esac
			[ -e "$VM_TOP/$src" ] && [ -n "$dst" ] ||
				vm_die "$test.files: bad line '$src $dst'"
			mkdir -p "$overlay$(dirname "$dst")"
			cp -p "$VM_TOP/$src" "$overlay$dst"
		done < "$VM_TOP/tests/vm/$test.files"
	fi
	# kernel modules only one test needs (tests/vm/TEST.modules, one a
	# line, such as virtio_rng), with their dependencies; the guest's
	# depmod finds them, so the test can modprobe them. "NAME?" is one
	# a kernel may lack (the debug kernel has no dlm): the test then
	# finds it missing.
	if [ -f "$VM_TOP/tests/vm/$test.modules" ]; then
		while read -r mod; do
			case $mod in ''|'#'*) continue ;; esac
			optional=0
			case $mod in *'?') optional=1; mod=${mod%'?'} ;; esac
			if ! deps=$(modprobe -S "$krel" --show-depends "$mod" 2>/dev/null); then
				[ $optional = 1 ] && continue
				vm_die "$test.modules: no module $mod for $krel"
			fi
			for f in $(sed -n 's/^insmod \([^ ]*\).*/\1/p' <<< "$deps"); do
				mkdir -p "$overlay$(dirname "$f")"
				cp "$f" "$overlay$f"
			done
		done < "$VM_TOP/tests/vm/$test.modules"
	fi
	(cd "$overlay" && find . | cpio -o -H newc --quiet) > "$work/overlay.cpio"
	cat "$base" "$work/overlay.cpio" > "$work/initrd.cpio"
}

# Kernel splats anywhere in the guest's dmesg, or on the console if the
# guest died before dumping it.
VM_SPLATS='BUG:|WARNING:|kernel BUG at|Oops|general protection fault|'
VM_SPLATS+='blocked for more than [0-9]+ seconds|soft lockup|hard LOCKUP|'
VM_SPLATS+='KASAN|UBSAN|possible circular locking|possible recursive locking|'
VM_SPLATS+='inconsistent lock state|suspicious RCU usage|Kernel panic|Call Trace:|'
# the debug kernel's detectors that print neither BUG nor WARNING:
# kmemleak, DEBUG_LIST's corruption reports, and a module of ours left
# loaded
VM_SPLATS+='unreferenced object 0x|list_(add|del) corruption|SCST-VM-UNLOAD-FAILED'

# vm_verdict LOG KREL SPLATS BOOT_SPLATS: judges a finished guest's
# serial log (carriage returns already removed). Sets vm_status: 2 a
# kernel splat (the lines in the file SPLATS), 1 the test failed, 0 it
# passed, 3 no result marker (the caller says why in vm_why); vm_why.
vm_verdict() {
	local log=$1 krel=$2 splats=$3 boot_splats=$4 boot_ts='' result

	# The debug kernel: a report stamped before the kernel ran /init
	# comes from its own boot, before any module of ours exists (an
	# interrupt in identify_cpu() under TCG makes KASAN report a wild
	# access now and then). It goes to BOOT_SPLATS, to be shown, not
	# counted: the test is about our modules. So do the reports of
	# VM_KERNEL_KNOWN, on any kernel.
	if vm_is_debug "$krel"; then
		boot_ts=$(sed -n 's/^\[ *\([0-9]*\.[0-9]*\)\] Run \/init as init process.*/\1/p' "$log" | head -n 1)
		[ -z "$boot_ts" ] &&
			boot_ts=$(sed -n 's/^SCST-VM-INIT-AT: \([0-9.]*\)$/\1/p' "$log" | head -n 1)
	fi
	: > "$splats"
	result=$(sed -n 's/^SCST-VM-RESULT: rc=\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	if sed -n '/^SCST-VM-DMESG-BEGIN/,/^SCST-VM-DMESG-END/p' "$log" |
	   vm_after_boot "$boot_ts" "$boot_splats" | grep -E "$VM_SPLATS" > "$splats" ||
	   vm_after_boot "$boot_ts" "$boot_splats" < "$log" | grep -E "$VM_SPLATS" >> "$splats"; then
		vm_status=2
		vm_why="kernel splat in dmesg: $(head -n 1 "$splats")"
	elif [ -z "$result" ]; then
		vm_status=3
		vm_why=
	elif [ "$result" != 0 ]; then
		vm_status=1
		vm_why="guest test exited $result"
	else
		vm_status=0
		vm_why=passed
	fi
}

# Warnings of the kernel's own code that our tests provoke but that are
# not ours to fix, one extended regex for the line that opens each
# report (the report, to its "end trace" line, is shown, not counted):
#  - Debian 6.1's DLM copies a message into a request queue entry
#    allocated with room for its payload, past the declared end of the
#    struct (fs/dlm/requestqueue.c): FORTIFY_SOURCE's false positive,
#    whenever a lockspace member sends while another recovers (every
#    second node joining a lockspace of cluster_mode).
VM_KERNEL_KNOWN='memcpy: detected field-spanning write \(size [0-9]+\) of single field "&e->request" at fs/dlm/requestqueue\.c'

# vm_after_boot BOOT_TS OUT: copies stdin to stdout except the kernel log
# lines stamped before BOOT_TS (empty: none) and the reports opened by a
# line matching VM_KERNEL_KNOWN, which go to the file OUT.
vm_after_boot() {
	# (the regex through the environment: -v would take its escapes)
	VM_KNOWN=$VM_KERNEL_KNOWN awk -v b="$1" -v out="$2" '
		BEGIN { known = ENVIRON["VM_KNOWN"] }
		in_known { print >> out; if (/---\[ end trace/) in_known = 0; next }
		known != "" && $0 ~ known { in_known = 1; print >> out; next }
		b != "" && match($0, /^\[ *[0-9]+\.[0-9]+\]/) {
			t = substr($0, 2, RLENGTH - 2) + 0
			if (t < b + 0) { print >> out; next }
		}
		{ print }'
}
