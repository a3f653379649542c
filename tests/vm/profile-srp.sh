#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Profile of the SRP target: the devices of bench-srp.sh (our scst_srpt +
# vdisk_blockio against LIO's ib_srpt + iblock, twin brd disks, both read
# by ib_srp over one Soft-RoCE link), one fio job on each side while
# "perf record -e cpu-clock -a" samples the whole guest (initiator, rxe
# and target share it), then the top symbols and the share of each module
# (lib/profile.sh, which also names the parameters). Prints
# "PROFILE: side=ours|lio ..." lines for scripts/profile --srp. A
# measurement, not a test: it asserts nothing about the numbers.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh
. /tests/lib/lio.sh
. /tests/lib/bench.sh
. /tests/lib/profile.sh

PROFILE_MODS="scst.ko scst_vdisk.ko scst_srpt.ko target_core_mod.ko target_core_iblock.ko ib_srpt.ko rdma_rxe.ko ib_srp.ko ib_core.ko brd.ko"
bench_srp_setup
profile_both
exit 0
