#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scstadmin -config keeps SCST's safety rule with an initiator logged in
# over SRP: a file that lacks a LUN the initiator is reading changes
# nothing without -force (the removal is named, the tree stays, the
# initiator's reads go on); -check_config marks it; with -force the LUN
# goes and the initiator gets REPORTED LUNS DATA HAS CHANGED (SPC-4
# 6.37: the unit attention after a LUN inventory change) and REPORT LUNS
# without it.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

command -v scstadmin > /dev/null || fail "scstadmin is not in the guest"
run modprobe -a sd_mod sg
rxe_setup_one
srpt_load
T=$(srpt_tgt rxe0)
wait_for 10 "target of rxe0" test -d "$T"
gid=${T##*/}
id=$(srpt_login_field "$T" tid_ext)

# conf [LUN1]: the file, with LUN 1 if an argument is given
conf() {
	cat <<CONF
HANDLER vdisk_nullio {
	DEVICE n0 {
		size_mb 64
	}
	DEVICE n1 {
		size_mb 64
	}
}

TARGET_DRIVER ib_srpt {
	TARGET $gid {
		enabled 1
		LUN 0 n0
${1:+		LUN 1 n1}
	}
}
CONF
}
conf with-lun1 > /tmp/full.conf
conf > /tmp/less.conf
run scstadmin -config /tmp/full.conf
[ -d "$T/luns/1" ] || fail "LUN 1 not created"

srp_login "$id" "$id"
srpt_wait_lun 0
srpt_wait_lun 1
disk1=$(srpt_lun_disk 1)

# --- without -force: nothing changes, the initiator keeps reading LUN 1 ---
fio --name=reader --filename="$disk1" --ioengine=libaio --direct=1 \
	--rw=randread --bs=4k --iodepth=8 --time_based --runtime=8 \
	--output=/tmp/fio.out > /dev/null 2>&1 &
reader=$!
sleep 2
before=$(tree_snapshot)
out=$(scstadmin -config /tmp/less.conf 2>&1) || fail "-config without -force failed: $out"
echo "$out"
grep -q "not made: remove LUN 1 (n1) from target $gid" <<< "$out" ||
	fail "the held removal of LUN 1 is not named"
[ "$before" = "$(tree_snapshot)" ] ||
	{ diff <(echo "$before") <(echo "$(tree_snapshot)"); fail "-config without -force changed the tree"; }
out=$(scstadmin -check_config /tmp/less.conf 2>&1) || fail "-check_config failed: $out"
echo "$out"
grep -q "would remove LUN 1 (n1) from target $gid \[needs -force" <<< "$out" ||
	fail "-check_config does not mark the removal as needing -force"
wait "$reader" || { cat /tmp/fio.out; fail "the reader of LUN 1 failed"; }
grep -q 'err= 0' /tmp/fio.out || { cat /tmp/fio.out; fail "fio reported errors"; }

# --- with -force: LUN 1 goes, the initiator is told ------------------------
out=$(scstadmin -config /tmp/less.conf -force 2>&1) || fail "-config -force failed: $out"
echo "$out"
[ -e "$T/luns/1" ] && fail "LUN 1 still there after -force"
sg=$(lun_sg "$SRP_HOST" 0)
# each RDMA channel is an I_T nexus with its own unit attentions
seen=
for cpu in $(seq 0 $(($(nproc) - 1))); do
	for i in 1 2 3; do
		seen+=$(taskset -c "$cpu" sg_turs -v "$sg" 2>&1)
	done
done
grep -qi 'reported luns data has changed' <<< "$seen" ||
	{ echo "$seen"; fail "no REPORTED LUNS DATA HAS CHANGED after the removal"; }
luns=$(ua_retry sg_luns "$sg") || fail "REPORT LUNS: $luns"
grep -q '^    0001' <<< "$luns" && fail "LUN 1 still reported: $luns"
grep -q '^    0000' <<< "$luns" || fail "LUN 0 not reported: $luns"

srp_logout
srpt_wait_sessions "$T" 0
run rmmod ib_srp
run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scst
log "scstadmin-force passed"
exit 0
