#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Harness self-test, debug kernel only (make check-debug): the guest test
# passes, but a module leaks one allocation that only its own data pointed
# at. The leak scans /init runs after each test on the debug kernel must
# report it, and scripts/vm/run must report the run as a dmesg failure
# (exit status 2); if it ever passes, the leak check is broken.
. /tests/lib/common.sh

[ -e /sys/kernel/debug/kmemleak ] || fail "no kmemleak: run this on the debug kernel"
run insmod /lib/modules/"$(uname -r)"/updates/scst_test_warn.ko leak=1
run rmmod scst_test_warn
log "test body passed; the harness must still fail this run"
exit 0
