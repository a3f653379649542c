#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Profile of the core without a transport: the devices of bench-local.sh
# (our scst_local + vdisk_blockio against LIO's tcm_loop + iblock, on
# twin null_blk devices), one fio job on each side while
# "perf record -e cpu-clock -a" samples the whole guest, then the top
# symbols and the share of each module (lib/profile.sh, which also names
# the parameters). Prints "PROFILE: side=ours|lio ..." lines; the host's
# scripts/profile extracts them into build/profile/<side>.txt. A
# measurement, not a test: it asserts nothing about the numbers.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh
. /tests/lib/bench.sh
. /tests/lib/profile.sh

PROFILE_MODS="scst.ko scst_vdisk.ko scst_local.ko target_core_mod.ko target_core_iblock.ko tcm_loop.ko null_blk.ko"
bench_local_setup
profile_both
exit 0
