#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# libiscsi's iscsi-test-cu (a third party's SCSI conformance suite) runs
# its SCSI family over SG_IO against two LUNs exported through scst_local:
# LUN 0 a fully provisioned vdisk_blockio on brd, LUN 1 a thin-provisioned
# vdisk_fileio file.
# Every test that does not pass (failed, or skipped by the suite) must be
# listed in conformance.expect, which Documentation/conformance.md
# explains; a listed test that passes fails this test too, so that the
# list stays true.
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=65536
scst_local_load
run truncate -s 64M /tmp/thin.img
H=$SCST/handlers
# fully provisioned on every kernel (brd can discard on 6.12, not 6.1)
mgmt $H/vdisk_blockio/mgmt "add_device bio filename=/dev/ram0; thin_provisioned=0"
mgmt $H/vdisk_fileio/mgmt "add_device thin filename=/tmp/thin.img; thin_provisioned=1"
local_target conf s1 "bio 0" "thin 1"

# cu_results LUN < LOG: "LUN SUITE.TEST passed|failed|skipped" per test
# of CUnit's verbose output ("  Test: NAME ..." then the suite's
# "[SKIPPED] why" lines, then "passed" or "FAILED").
cu_results() {
	awk -v lun="$1" '
	function done(st) {
		if (t == "") return
		if (st == "passed" && skip) st = "skipped"
		print lun, s "." t, st
		t = ""
	}
	/^Suite: / { s = $2; next }
	/^  Test: / {
		t = $2; skip = 0
		sub(/^  Test: [^ ]+ \.\.\./, "")
	}
	/\[SKIPPED\]/ { skip = 1; sub(/^ *\[SKIPPED\].*/, "") }
	/^passed$/ { done("passed") }
	/^FAILED$/ { done("failed") }'
}

: > /tmp/cu.results
for lun in 0 1; do
	sg=$(lun_sg "$host" $lun) || fail "no sg node for LUN $lun"
	clear_ua "$sg"
	log "iscsi-test-cu SCSI family on LUN $lun ($sg)"
	timeout 900 iscsi-test-cu --dataloss --verbose --test=SCSI "$sg" \
		> /tmp/cu.$lun.log 2>&1
	log "iscsi-test-cu exit status $?"
	cat /tmp/cu.$lun.log
	cu_results $lun < /tmp/cu.$lun.log > /tmp/cu.$lun.res
	total=$(grep -E '^ +tests +[0-9]' /tmp/cu.$lun.log | awk '{print $2}')
	ran=$(wc -l < /tmp/cu.$lun.res)
	[ -n "$total" ] && [ "$ran" = "$total" ] ||
		fail "LUN $lun: parsed $ran test results, CUnit says ${total:-none}"
	for st in passed failed skipped; do
		eval "n_$st=\$(grep -c \" $st\$\" /tmp/cu.$lun.res)"
	done
	log "CONFORMANCE LUN $lun: tests run $ran, passed $n_passed, failed $n_failed, skipped $n_skipped"
	cat /tmp/cu.$lun.res >> /tmp/cu.results
done

grep -v ' passed$' /tmp/cu.results > /tmp/cu.notpassed
grep -v '^#' /tests/conformance.expect | grep . > /tmp/cu.expect
if ! diff -u /tmp/cu.expect /tmp/cu.notpassed; then
	fail "iscsi-test-cu results differ from tests/vm/conformance.expect (- expected, + seen)"
fi
log "every test not passed is listed in conformance.expect"
