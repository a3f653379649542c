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
# overrun. The target must refuse each one as SRP r16a says, stay up,
# enabled and without sessions afterwards, and then serve Linux' ib_srp
# with verified data. srp_hostile --flip proves the tool's checks can fail.
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
rxe_setup_one
srpt_load
T=$(srpt_tgt rxe0)
wait_for 10 "target of rxe0" test -d "$T"
id=$(srpt_login_field "$T" tid_ext)
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt "$T/luns/mgmt" "add disk_bio 0"
run sh -c "echo 1 > '$T/enabled'"

hostile=(srp_hostile --dest "$SRP_DEST_IP:$SRP_PORT" --id-ext "$id"
	 --ioc-guid "$id")
[ -n "$SRP_SRC_IP" ] && hostile+=(--src "$SRP_SRC_IP")

# --- the checks can fail: one inverted case must be reported as failed ------
for c in tmf-unknown-function login-wrong-id-ext; do
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

# --- and serves a well-behaved initiator ---------------------------------------
srp_login "$id" "$id" "queue_size=32"
srpt_wait_lun 0
disk=$(srpt_lun_disk 0)
run ua_retry sg_turs "$disk"
fio_run verify-after-hostile --filename="$disk" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=512-128k --iodepth=16 --size=32M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
srp_logout
srpt_wait_sessions "$T" 0

run rmmod ib_srp
run rmmod scst_srpt
[ ! -e "$SRPT" ] || fail "$SRPT left after rmmod scst_srpt"
run rmmod scst_vdisk
run rmmod scst
log "srpt-hostile passed"
exit 0
