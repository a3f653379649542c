#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scstadmin with an ib_srpt target and a scst_local target in one
# scst.conf, against the real modules: all three vdisk kinds; groups with
# wildcard initiators on both targets; the Linux SRP initiator (10.0.0.2,
# over two rxe devices) and two scst_local sessions see exactly their LUNs;
# applying the file twice reports no changes; -write_config, then
# -clear_config -force, then -config of the written file restores the same
# tree, and the initiator logs in again to the same LUNs.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=131072
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=64 status=none
srpt_target_up rxe_setup_two
run modprobe scst_local add_default_tgt=0
gid=$(rxe_port_gid rxe0)
L=$SCST/targets/scst_local/local1

cat > /tmp/scst.conf <<CONF
# ib_srpt and scst_local in one file
HANDLER vdisk_blockio {
	DEVICE disk_bio {
		filename /dev/ram0
	}
}

HANDLER vdisk_fileio {
	DEVICE disk_fio {
		filename /tmp/fileio.img
		write_through 1
	}
}

HANDLER vdisk_nullio {
	DEVICE disk_null {
		size_mb 256
	}
	DEVICE disk_null2 {
		size_mb 128
	}
}

TARGET_DRIVER ib_srpt {
	TARGET $gid {
		enabled 1

		# initiators in no group
		LUN 0 disk_null2

		GROUP net2 {
			LUN 0 disk_bio
			LUN 1 disk_null {
				read_only 1
			}
			INITIATOR "10.0.0.2*"
			INITIATOR 10.0.1.?
		}

		GROUP net1 {
			LUN 0 disk_fio
			INITIATOR 10.0.0.1
		}
	}
}

TARGET_DRIVER scst_local {
	TARGET local1 {
		LUN 0 disk_fio
		LUN 1 disk_null2

		GROUP nine {
			LUN 3 disk_null
			INITIATOR host9*
		}
	}
}
CONF

run scstadmin -check_config /tmp/scst.conf
run scstadmin -config /tmp/scst.conf
[ -d "$L" ] || fail "scstadmin did not create the scst_local target"
for d in disk_bio disk_fio disk_null disk_null2; do
	[ -d "$SCST/devices/$d" ] || fail "device $d not created"
done
assert_eq "$(attr_value "$T/enabled")" 1 "ib_srpt target enabled"
[ -e "$T/ini_groups/net2/initiators/10.0.0.2*" ] || fail "quoted pattern missing"
assert_eq "$(attr_value "$T/ini_groups/net2/luns/1/read_only")" 1 "read_only LUN"
assert_eq "$(attr_value "$SCST/devices/disk_fio/write_through")" 1 "write_through"

before=$(tree_snapshot)
out=$(scstadmin -config /tmp/scst.conf 2>&1) || fail "second apply failed: $out"
echo "$out"
grep -qi 'no changes' <<< "$out" || fail "the second apply of the same file changed something"
[ "$before" = "$(tree_snapshot)" ] || fail "the second apply changed the tree"

# sees_exactly HOST PRODUCT...: the host's LUNs are 0.. with these products
sees_exactly() {
	local host=$1 lun=0 luns p
	shift
	luns=$(ua_retry sg_luns "$(lun_sg "$host" 0)") || fail "REPORT LUNS on host $host"
	assert_eq "$(grep -c '^    000' <<< "$luns")" $# "LUNs of host $host"
	for p in "$@"; do
		wait_lun "$host" "$lun"
		grep -q "Product identification: $p\\b" <<< "$(ua_retry sg_inq "$(lun_disk "$host" "$lun")")" ||
			fail "host $host LUN $lun is not $p"
		lun=$((lun + 1))
	done
}

srp_check() {
	srp_login "$id" "$id"
	srpt_wait_lun 0
	srpt_wait_lun 1
	sees_exactly "$SRP_HOST" disk_bio disk_null
	[ -d "$T/sessions/$RXE_INITIATOR_IP" ] || fail "no SRP session $RXE_INITIATOR_IP"
	# LUN 1 is read-only: a write must fail
	if dd if=/dev/zero of="$(lun_disk "$SRP_HOST" 1)" bs=4k count=1 oflag=direct status=none 2> /dev/null; then
		fail "a write to the read-only LUN succeeded"
	fi
	fio_run srp-verify --filename="$(lun_disk "$SRP_HOST" 0)" --ioengine=libaio \
		--direct=1 --rw=randwrite --bs=4k --iodepth=16 --size=8M \
		--verify=crc32c --do_verify=1 --verify_fatal=1
}
srp_check
run scstadmin -list_sessions

# scst_local: host9x is in group nine (LUN 3 only: LUN 0 is not mapped but
# answers REPORT LUNS), host1 in no group
mgmt $SCST/targets/scst_local/mgmt "add_session local1 host1"
mgmt $SCST/targets/scst_local/mgmt "add_session local1 host9x"
wait_for 10 "host1" local_host local1 host1
wait_for 10 "host9x" local_host local1 host9x
h1=$(local_host local1 host1)
h9=$(local_host local1 host9x)
wait_lun "$h1" 0
sees_exactly "$h1" disk_fio disk_null2
wait_lun "$h9" 3
luns=$(ua_retry sg_luns "$(lun_sg "$h9" 3)")
assert_eq "$(grep -c '^    000' <<< "$luns")" 1 "LUNs of host9x"
grep -q '^    0003' <<< "$luns" || fail "host9x does not see LUN 3: $luns"
mgmt $SCST/targets/scst_local/mgmt "del_session local1 host1"
mgmt $SCST/targets/scst_local/mgmt "del_session local1 host9x"
srp_logout
srpt_wait_sessions "$T" 0

# --- write, clear, re-apply --------------------------------------------------
run scstadmin -write_config /tmp/written.conf
cat /tmp/written.conf
grep -q "TARGET $gid" /tmp/written.conf || fail "the ib_srpt target is not written"
expect_fail scstadmin -clear_config -noprompt
run scstadmin -clear_config -force -noprompt
[ -d $SCST/devices/disk_bio ] && fail "-clear_config left devices"
[ -e "$T/ini_groups/net2" ] && fail "-clear_config left groups"
assert_eq "$(attr_value "$T/enabled")" 0 "ib_srpt target after -clear_config"
run scstadmin -config /tmp/written.conf
after=$(tree_snapshot)
[ "$before" = "$after" ] ||
	{ diff <(echo "$before") <(echo "$after"); fail "re-applying the written file gave another tree"; }
out=$(scstadmin -config /tmp/written.conf 2>&1) || fail "second apply of the written file: $out"
grep -qi 'no changes' <<< "$out" || fail "the written file applied twice changed something: $out"
sleep 3	# ib_srp forgets a removed target a moment after its SCSI host
SRP_LOGIN_TRIES=25
srp_check
srp_logout
srpt_wait_sessions "$T" 0

run rmmod ib_srp
run rmmod scst_local
run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scst
log "scstadmin-srpt passed"
exit 0
