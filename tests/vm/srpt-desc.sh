#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Memory descriptor formats of SRP_CMD (SRP r16a 5.5) against scst_srpt:
# ib_srp without memory registration sends one descriptor per S/G entry,
# so requests carry indirect descriptor lists; with cmd_sg_entries=2 and
# allow_ext_sg=1 most of the table stays in the initiator's memory and the
# target fetches it by RDMA READ. Without immediate data every write's
# data-out is fetched by RDMA READ. fio --verify checks the data each time.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=131072
srpt_target_up rxe_setup_one
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt "$T/luns/mgmt" "add disk_bio 0"
run sh -c "echo 1 > '$T/enabled'"

# desc_run NAME IB_SRP_PARAMS...: log in with ib_srp loaded with the
# parameters, verify data, log out, unload ib_srp.
desc_run() {
	local name=$1 disk
	shift
	run modprobe ib_srp "$@"
	srp_login "$id" "$id" "queue_size=32"
	srpt_wait_lun 0
	disk=$(srpt_lun_disk 0)
	log "$name: sg_tablesize $(cat /sys/class/scsi_host/host$SRP_HOST/sg_tablesize)"
	fio_run "$name" --filename="$disk" --ioengine=libaio --direct=1 \
		--rw=randwrite --bsrange=512-256k --iodepth=16 --size=24M \
		--verify=crc32c --do_verify=1 --verify_fatal=1
	srp_logout
	srpt_wait_sessions "$T" 0
	run rmmod ib_srp
	# ib_srp forgets a removed target a moment after its SCSI host
	sleep 1
}

desc_run indirect-in-iu never_register=1
desc_run indirect-external never_register=1 cmd_sg_entries=2 \
	indirect_sg_entries=64 allow_ext_sg=1 use_imm_data=0
n=$(dmesg | grep -c 'descriptor table') || true
[ "$n" -eq 0 ] || { dmesg | grep 'descriptor table' | head; fail "descriptor table errors"; }

run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scst
log "srpt-desc passed"
exit 0
