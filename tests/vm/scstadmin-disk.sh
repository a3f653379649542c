#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scstadmin with dev_disk pass-through devices (SCST's syntax): a
# scsi_debug disk opened with -open_dev -handler dev_disk and closed with
# -close_dev; "HANDLER dev_disk { DEVICE H:C:I:L }" applied with -config,
# written back by -write_config, cleared, and the written file applied
# again gives the same tree.
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
run modprobe scst
run modprobe scst_disk
run modprobe scst_local add_default_tgt=0
run modprobe scsi_debug dev_size_mb=16 max_luns=1
command -v scstadmin > /dev/null || fail "scstadmin is not in the guest"

wait_for 10 "the scsi_debug disk" sdebug_hctl > /dev/null
hctl=$(sdebug_hctl)
log "scsi_debug disk $hctl"

# -open_dev / -close_dev
run scstadmin -noprompt -open_dev "$hctl" -handler dev_disk
assert_eq "$(readlink $SCST/devices/"$hctl"/handler | sed 's|.*/||')" dev_disk "handler of $hctl"
run scstadmin -noprompt -close_dev "$hctl" -handler dev_disk
[ -e $SCST/devices/"$hctl" ] && fail "$hctl left after -close_dev"

cat > /tmp/scst.conf <<CONF
HANDLER dev_disk {
	DEVICE $hctl
}

TARGET_DRIVER scst_local {
	TARGET tgt1 {
		LUN 0 $hctl
	}
}
CONF
run scstadmin -noprompt -config /tmp/scst.conf
[ -d $SCST/devices/"$hctl" ] || fail "$hctl not created by -config"
assert_eq "$(readlink $SCST/targets/scst_local/tgt1/luns/0/device | sed 's|.*/||')" "$hctl" "LUN 0"
before=$(tree_snapshot)

run scstadmin -noprompt -write_config /tmp/written.conf
cat /tmp/written.conf
grep -q '^HANDLER dev_disk' /tmp/written.conf || fail "no HANDLER dev_disk written"
grep -q "DEVICE $hctl" /tmp/written.conf || fail "no DEVICE $hctl written"

run scstadmin -noprompt -force -clear_config
[ -e $SCST/devices/"$hctl" ] && fail "$hctl left after -clear_config"
run scstadmin -noprompt -config /tmp/written.conf
after=$(tree_snapshot)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "the written configuration gives another tree"; }

run scstadmin -noprompt -force -clear_config
run rmmod scst_disk
run rmmod scst_local
run rmmod scst
exit 0
