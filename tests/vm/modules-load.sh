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

	# cluster_mode's module, built where the kernel has the DLM: it
	# loads dlm with it, and nothing of the cluster starts before a
	# device turns cluster_mode on
	if modinfo scst_cluster > /dev/null 2>&1; then
		run modprobe scst_cluster
		module_loaded dlm || fail "scst_cluster loaded without dlm"
		run modprobe -r scst_cluster
		module_loaded scst_cluster && fail "scst_cluster still loaded"
	else
		log "cycle $cycle: no scst_cluster for $(uname -r) (a kernel without the DLM)"
	fi

	for ((i = ${#OUR_MODULES[@]} - 1; i >= 0; i--)); do
		run modprobe -r "${OUR_MODULES[$i]}"
		module_loaded "${OUR_MODULES[$i]}" && fail "${OUR_MODULES[$i]} still loaded"
	done
	[ -e /sys/kernel/scst_tgt ] && fail "/sys/kernel/scst_tgt left after unload"
done
log "all modules loaded and unloaded cleanly"
exit 0
