#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Harness self-test: the guest test itself passes, but a module raises a
# real kernel WARNING. scripts/check expects scripts/vm/run to report this
# run as a dmesg failure (exit status 2); if it ever passes, the splat check
# is broken and the suite fails.
. /tests/lib/common.sh

run insmod /lib/modules/"$(uname -r)"/updates/scst_test_warn.ko
run rmmod scst_test_warn
log "test body passed; the harness must still fail this run"
exit 0
