#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What pass-through costs over SRP: one scsi_debug disk (in memory, no
# delay) exported twice through one scst_srpt target on Soft-RoCE, as a
# dev_disk device (LUN 0, its SCSI device) and as a vdisk_blockio device
# (LUN 1, its sd block device), both read by the Linux ib_srp initiator
# in one boot, alternating run by run. Prints one "BENCH:" line per run
# with side=pt or side=blockio; scripts/bench makes the table (as for
# bench-disk over scst_local). Never asserts timings.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh
. /tests/lib/bench.sh

run modprobe -a sd_mod sg
bench_sdebug

srpt_target_up rxe_setup_one
guid=$(rxe_node_guid_hex rxe0)
run modprobe scst_disk
mgmt $SCST/handlers/dev_disk/mgmt "add_device $hctl"
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device bio filename=$local_disk"
mgmt "$T/luns/mgmt" "add $hctl 0"
mgmt "$T/luns/mgmt" "add bio 1"
run sh -c "echo 1 > '$T/enabled'"
srp_login "$guid" "$guid" "queue_size=128,max_cmd_per_lun=128"
srpt_wait_lun 0
srpt_wait_lun 1
pt=$(srpt_lun_disk 0)
blockio=$(srpt_lun_disk 1)
for d in "$pt" "$blockio"; do
	run ua_retry sg_turs "$d"
done
# no scheduler on either path, the local disk BLOCKIO submits to included
bench_no_scheduler "$pt" "$blockio" "$local_disk"
grep -q 'Product identification: scsi_debug' <<< "$(sg_inq "$pt")" ||
	fail "$pt is not the pass-through of $hctl"
log "pass-through: $pt, BLOCKIO: $blockio, both on $hctl ($local_disk) over SRP"

bench_alternate 200M pt "$pt" blockio "$blockio" \
	"randread bs=4k qd=1" "randread bs=4k qd=32" "read bs=128k qd=8"
exit 0
