#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every module this repository builds loads, shows its sysfs root, and
# unloads cleanly; twice, to catch state left behind by the first cycle.
. /tests/lib/common.sh

for cycle in 1 2; do
	for m in "${OUR_MODULES[@]}"; do
		run modprobe "$m"
		module_loaded "$m" || fail "$m not loaded"
	done

	[ -d /sys/kernel/scst_tgt ] || fail "/sys/kernel/scst_tgt missing"
	version=$(cat /sys/kernel/scst_tgt/version) || fail "cannot read version"
	[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
		fail "version '$version' is not major.minor.patch"
	log "cycle $cycle: scst_tgt/version = $version"
	expect_fail sh -c 'echo 1 > /sys/kernel/scst_tgt/version' 2>/dev/null

	for ((i = ${#OUR_MODULES[@]} - 1; i >= 0; i--)); do
		run modprobe -r "${OUR_MODULES[$i]}"
		module_loaded "${OUR_MODULES[$i]}" && fail "${OUR_MODULES[$i]} still loaded"
	done
	[ -e /sys/kernel/scst_tgt ] && fail "/sys/kernel/scst_tgt left after unload"
done
log "all modules loaded and unloaded cleanly"
exit 0
