#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-guests: tgt ini
#
# Profile of the target guest of bench-srp2 (scripts/profile --srp2): our
# scst_srpt + vdisk_blockio and LIO's ib_srpt + iblock in the guest tgt,
# each on its own null_blk device, ib_srp and fio in the guest ini over
# one Soft-RoCE link (lib/bench2.sh). For each side ini starts the job
# and, once its I/O flows, has tgt sample itself alone with
# "perf record -e cpu-clock -a" for P_SECS s; once fio ended, tgt prints
# the "PROFILE:" lines of its samples (lib/profile.sh) and ini the job's
# figures as "PROFILE-INI:" lines. So the shares are those of the target
# stacks, their backing device and their side of Soft-RoCE, without the
# initiator's and fio's work that profile-srp's one guest mixes in. A
# measurement, not a test: it asserts nothing about the numbers.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh
. /tests/lib/lio.sh
. /tests/lib/bench.sh
. /tests/lib/ha.sh
. /tests/lib/bench2.sh
. /tests/lib/profile.sh

PROFILE_MODS="scst.ko scst_vdisk.ko scst_srpt.ko target_core_mod.ko target_core_iblock.ko ib_srpt.ko rdma_rxe.ko ib_core.ko null_blk.ko"

case $VM_GUEST in
tgt)
	b2_tgt_setup
	b2_serve
	;;
ini)
	b2_ini_setup
	for side in ours lio; do
		disk=${!side}
		before=$(disk_ios "$disk")
		# longer than the sampling, which starts once the I/O flows
		# and the request reached tgt
		profile_fio "$side" "$disk" $((P_SECS + 10)) &
		fpid=$!
		wait_for 60 "I/O of fio on $disk" io_started "$disk" "$before"
		b2_ask "record.$side"
		# no polling of tgt while it samples
		sleep "$P_SECS"
		ha_wait_mark 120 "recorded-$side" tgt
		wait "$fpid" || { cat "/tmp/fio-$side.out"; fail "fio on side $side failed"; }
		cat "/tmp/fio-$side.out"
		echo "PROFILE-INI: side=$side$(profile_fio_kv "/tmp/fio-$side.out")"
		b2_ask "report.$side"
		ha_wait_mark 600 "reported-$side" tgt
	done
	b2_ini_logout
	b2_ask finish
	;;
*)
	fail "profile-srp2 runs in the guests tgt and ini (scripts/vm/multi), not '${VM_GUEST:-}'"
	;;
esac
ha_finish 300
exit 0
