#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A hostile SRP initiator (tests/tools/srp_hostile, librdmacm) against
# scst_srpt: malformed logins (truncated, wrong IU type, IU lengths out of
# range, unsupported buffer formats, wrong target port ID, reserved
# multi-channel actions), malformed IUs on a live channel (unknown and
# truncated IUs, SRP_CMDs whose additional CDB or descriptors run past the
# IU, bad descriptor counts and indirect tables, bogus R_Keys, unmapped
# LUNs, unknown task management functions, SRP_I_LOGOUT) and a credit
# overrun; bounded resources: READ(16)/WRITE(16) of 2^24 blocks with 4 GiB
# descriptors and bogus R_Keys, allocation lengths of 4 GiB, thousands of
# descriptors, login floods beyond max_sessions and
# max_channels_per_initiator (the guest's MemAvailable watched meanwhile).
# The target must refuse each one as SRP r16a says, stay up, enabled and
# without sessions afterwards, and then serve Linux' ib_srp with verified
# data. Then again with a send queue of 16 entries: a descriptor table
# fetched while the send queue is full waits and no entry is lost
# (sessions/*/sq_free), a command that can never fit is refused, and
# ib_srp's I/O gets through. srp_hostile --flip proves the tool's checks
# can fail.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

command -v srp_hostile > /dev/null ||
	fail "srp_hostile not in the guest (make test-tools)"

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=131072

# setup_target: LUN 0 on /dev/ram0, LUN 1 a 16 GiB vdisk_nullio (READ and
# WRITE of 2^24 blocks are in range there), enabled; sets T and id.
setup_target() {
	T=$(srpt_tgt rxe0)
	wait_for 10 "target of rxe0" test -d "$T"
	id=$(srpt_login_field "$T" tid_ext)
	mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
	mgmt $SCST/handlers/vdisk_nullio/mgmt "add_device disk_big size_mb=16384"
	mgmt "$T/luns/mgmt" "add disk_bio 0"
	mgmt "$T/luns/mgmt" "add disk_big 1"
	run sh -c "echo 1 > '$T/enabled'"
}

# unload_target: every module of the target side
unload_target() {
	run rmmod scst_srpt
	[ ! -e "$SRPT" ] || fail "$SRPT left after rmmod scst_srpt"
	run rmmod scst_vdisk
	run rmmod scst
}

# serve_fio NAME: ib_srp logs in, writes and verifies, logs out.
serve_fio() {
	local disk
	srp_login "$id" "$id" "queue_size=32"
	srpt_wait_lun 0
	disk=$(srpt_lun_disk 0)
	run ua_retry sg_turs "$disk"
	fio_run "$1" --filename="$disk" --ioengine=libaio --direct=1 \
		--rw=randwrite --bsrange=512-128k --iodepth=16 --size=$(io_mb 32) \
		--verify=crc32c --do_verify=1 --verify_fatal=1
	srp_logout
	srpt_wait_sessions "$T" 0
}

rxe_setup_one
srpt_load
setup_target

hostile=(srp_hostile --dest "$SRP_DEST_IP:$SRP_PORT" --id-ext "$id"
	 --ioc-guid "$id" --sysfs-target "$T" --big-lun 1)
[ -n "$SRP_SRC_IP" ] && hostile+=(--src "$SRP_SRC_IP")

# --- the checks can fail: one inverted case must be reported as failed ------
for c in tmf-unknown-function login-wrong-id-ext cmd-many-1byte-desc \
	 cmd-write16-huge-bogus-rkey; do
	log "+ ${hostile[*]} --only $c --flip $c (must fail)"
	out=$(timeout 120 "${hostile[@]}" --only "$c" --flip "$c" 2>&1)
	rc=$?
	echo "$out"
	[ "$rc" = 1 ] || fail "srp_hostile --flip $c: exit status $rc, expected 1"
	grep -q "^FAIL $c: " <<< "$out" || fail "srp_hostile --flip $c: no FAIL line"
done
srpt_wait_sessions "$T" 0

# --- the hostile initiator ---------------------------------------------------
log "+ ${hostile[*]} --verbose"
start=$(date +%s)
timeout 400 "${hostile[@]}" --verbose
rc=$?
log "srp_hostile exited $rc after $(($(date +%s) - start)) s"
[ "$rc" = 0 ] || fail "srp_hostile: exit status $rc (a FAIL line above says why)"

# --- the target is still there, enabled, and every channel is gone -----------
[ -d "$T" ] || fail "target $T is gone"
assert_eq "$(attr_value "$T/enabled")" 1 "enabled after srp_hostile"
srpt_wait_sessions "$T" 0
log "target messages: $(dmesg | grep -c 'scst_srpt:') lines," \
    "$(dmesg | grep -c 'scst_srpt: login of .* refused') refused logins"
# the login flood: 18 logins refused for the limits, each with one line at
# most (rate-limited), none unexplained
n=$(dmesg | grep -c 'refused (insufficient resources)') || true
[ "$n" -ge 1 ] && [ "$n" -le 18 ] ||
	fail "$n log lines for the 18 logins refused by the limits"
assert_eq "$(attr_value "$T/max_sessions")" 512 "max_sessions restored"
assert_eq "$(attr_value "$T/max_channels_per_initiator")" 64 \
	"max_channels_per_initiator restored"

# --- and serves a well-behaved initiator ---------------------------------------
serve_fio verify-after-hostile

# --- a send queue of 16 entries ------------------------------------------------
unload_target
srpt_load srpt_sq_size=16
setup_target
log "+ ${hostile[*]} --only sq-full-table-fetch --only sq-cmd-exceeds-queue --verbose"
timeout 200 "${hostile[@]}" --only sq-full-table-fetch \
	--only sq-cmd-exceeds-queue --verbose ||
	fail "srp_hostile with srpt_sq_size=16: exit status $? (a FAIL line above says why)"
srpt_wait_sessions "$T" 0
# ib_srp's queue depth 32 against 16 entries: responses wait for room
serve_fio verify-small-sq

run rmmod ib_srp
unload_target
log "srpt-hostile passed"
exit 0
