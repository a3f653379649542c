#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Harness self-test: a guest test that fails with a clean dmesg. scripts/check
# expects scripts/vm/run to report exit status 1 for it.
. /tests/lib/common.sh

fail "deliberate failure for the harness self-test"
