#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scstadmin and ALUA over scst_local, in SCST's sysfs layout
# (device_groups/): -config of a file with a DEVICE_GROUP block creates
# the device group, its member, two target groups with their attributes,
# a target of this system (a link in its group) and another system's
# (a directory with rel_tgt_id); applying it again changes nothing;
# -write_config writes the block back and that file applies as "no
# changes"; -set_tgrp_attr changes a state, which REPORT TARGET PORT
# GROUPS (SPC-4 6.37) on a session of the target then reports; a file
# that changes the state through -config does the same; the bad values
# and a device in two groups are refused with nothing changed; a file
# without the block leaves it without -force and removes it with it.
#
# Needs the kernel side of ALUA (device_groups/ in the management tree).
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
scst_local_load
command -v scstadmin > /dev/null || fail "scstadmin is not in the guest"
[ -d $SCST/device_groups ] || fail "no $SCST/device_groups: the modules have no ALUA"

DG=$SCST/device_groups/dg1
TGA=$DG/target_groups/tg_a
TGB=$DG/target_groups/tg_b

# DEVICE_GROUP with the TARGET_GROUPs' attributes in SCST's order
cat > /tmp/base.conf <<'CONF'
HANDLER vdisk_nullio {
	DEVICE disk_a {
		size_mb 64
	}
	DEVICE disk_b {
		size_mb 32
	}
}

TARGET_DRIVER scst_local {
	TARGET tgt1 {
		LUN 0 disk_a
		LUN 1 disk_b
	}

	TARGET tgt2 {
		LUN 0 disk_a
	}
}
CONF
dgblock() {
	cat <<CONF
DEVICE_GROUP dg1 {
	DEVICE disk_a

	TARGET_GROUP tg_a {
		group_id 1
		preferred 1
		state $1
		TARGET tgt1
	}

	TARGET_GROUP tg_b {
		group_id 2
		preferred 0
		state $2
		TARGET remote_tgt {
			rel_tgt_id 50
		}
		TARGET tgt2
	}
}
CONF
}
{ cat /tmp/base.conf; dgblock active standby; } > /tmp/alua.conf

run scstadmin -check_config /tmp/alua.conf
run scstadmin -config /tmp/alua.conf
[ -L $DG/devices/disk_a ] || fail "disk_a is not a member of dg1"
[ -e $DG/devices/disk_b ] && fail "disk_b is a member of dg1"
assert_eq "$(attr_value $TGA/group_id)" 1 "tg_a group_id"
assert_eq "$(attr_value $TGA/preferred)" 1 "tg_a preferred"
assert_eq "$(attr_value $TGA/state)" active "tg_a state"
assert_eq "$(attr_value $TGB/group_id)" 2 "tg_b group_id"
assert_eq "$(attr_value $TGB/state)" standby "tg_b state"
[ -L $TGA/tgt1 ] || fail "tgt1 is not a link in tg_a"
[ -L $TGB/tgt2 ] || fail "tgt2 is not a link in tg_b"
{ [ -d $TGB/remote_tgt ] && [ ! -L $TGB/remote_tgt ]; } ||
	fail "remote_tgt is not a directory in tg_b"
assert_eq "$(attr_value $TGB/remote_tgt/rel_tgt_id)" 50 "remote_tgt rel_tgt_id"

before=$(tree_snapshot)
out=$(scstadmin -config /tmp/alua.conf 2>&1) || fail "second apply failed: $out"
echo "$out"
grep -q 'no changes' <<< "$out" || fail "second apply of the same file changed something"
[ "$before" = "$(tree_snapshot)" ] || fail "second apply changed the tree"

# -write_config: the block as the file has it, and it applies as it is
run scstadmin -write_config /tmp/written.conf
cat /tmp/written.conf
# every target group attribute is a [key], so all are written
dgblock active standby > /tmp/want-block
awk '/^DEVICE_GROUP /,/^}$/' /tmp/written.conf > /tmp/got-block
diff -u /tmp/want-block /tmp/got-block || fail "-write_config wrote another DEVICE_GROUP block"
out=$(scstadmin -config /tmp/written.conf 2>&1) || fail "applying the written file failed: $out"
grep -q 'no changes' <<< "$out" || fail "the written file is not the running configuration: $out"

# REPORT TARGET PORT GROUPS through tgt2 (in tg_b): state of group N
mgmt $SCST/targets/scst_local/mgmt "add_session tgt2 host2"
wait_for 10 "host of tgt2" local_host tgt2 host2
h2=$(local_host tgt2 host2)
wait_lun "$h2" 0
rtpg_state() {
	sg_rtpg "$(lun_sg "$h2" 0)" | awk -v id="$(printf '0x%x' "$1")" '
		/target port group id :/ { cur = $6 }
		/asymmetric access state :/ && cur == id { print $NF; exit }'
}
clear_ua "$(lun_sg "$h2" 0)"
assert_eq "$(rtpg_state 1)" 0x00 "RTPG: tg_a active/optimized"
assert_eq "$(rtpg_state 2)" 0x02 "RTPG: tg_b standby"

# -set_tgrp_attr: SCST's option and argument form
run scstadmin -set_tgrp_attr tg_b -dev_group dg1 -attributes state=nonoptimized
assert_eq "$(attr_value $TGB/state)" nonoptimized "tg_b state after -set_tgrp_attr"
clear_ua "$(lun_sg "$h2" 0)"
assert_eq "$(rtpg_state 2)" 0x01 "RTPG: tg_b active/non-optimized"
run scstadmin -set_ttgt_attr remote_tgt -dev_group dg1 -tgt_group tg_b -attributes rel_tgt_id=51
assert_eq "$(attr_value $TGB/remote_tgt/rel_tgt_id)" 51 "remote_tgt rel_tgt_id after -set_ttgt_attr"

# a state change through -config: only the state is written
{ cat /tmp/base.conf; dgblock active unavailable; } > /tmp/alua2.conf
sed -i 's/rel_tgt_id 50/rel_tgt_id 51/' /tmp/alua2.conf
out=$(scstadmin -config /tmp/alua2.conf 2>&1) || fail "state change failed: $out"
echo "$out"
assert_eq "$(grep -c '^-> ' <<< "$out")" 1 "-config wrote more than the state"
assert_eq "$(attr_value $TGB/state)" unavailable "tg_b state after -config"

# refused: bad values, a device in two device groups; nothing changes
before=$(tree_snapshot)
sed 's/state unavailable/state sleeping/' /tmp/alua2.conf > /tmp/bad.conf
out=$(scstadmin -config /tmp/bad.conf 2>&1) && fail "a bad state was applied"
grep -q "bad.conf:.*bad state 'sleeping'" <<< "$out" || fail "the error does not name the line: $out"
sed 's/group_id 2/group_id 70000/' /tmp/alua2.conf > /tmp/bad.conf
expect_fail scstadmin -config /tmp/bad.conf
{ cat /tmp/alua2.conf; printf 'DEVICE_GROUP dg2 {\n\tDEVICE disk_a\n}\n'; } > /tmp/bad.conf
out=$(scstadmin -config /tmp/bad.conf 2>&1) && fail "a device in two device groups was applied"
grep -q "belongs to one device group" <<< "$out" || fail "unexpected message: $out"
expect_fail scstadmin -add_dgrp_dev disk_a -dev_group dg1
expect_fail scstadmin -add_tgrp_tgt tgt1 -dev_group dg1 -tgt_group tg_b
[ "$before" = "$(tree_snapshot)" ] || fail "a refused change changed the tree"

# a file without the block: left without -force, removed with it
mgmt $SCST/targets/scst_local/mgmt "del_session tgt2 host2"
out=$(scstadmin -config /tmp/base.conf 2>&1) || fail "apply without the block failed: $out"
echo "$out"
grep -q 'not made: remove device group dg1' <<< "$out" || fail "the removal was not named"
[ -d $DG ] || fail "dg1 removed without -force"
run scstadmin -config /tmp/base.conf -force
[ -e $DG ] && fail "dg1 left with -force"
[ -d $SCST/devices/disk_a ] || fail "removing the device group removed its device"
[ -d $SCST/targets/scst_local/tgt1 ] || fail "removing the device group removed a target"

# the object commands, one by one, then the file applies to them
run scstadmin -add_dgrp dg1
run scstadmin -add_dgrp_dev disk_a -dev_group dg1
run scstadmin -add_tgrp tg_a -dev_group dg1
run scstadmin -set_tgrp_attr tg_a -dev_group dg1 -attributes group_id=1,preferred=1,state=active
run scstadmin -add_tgrp_tgt tgt1 -dev_group dg1 -tgt_group tg_a
run scstadmin -list_dgrp dg1
run scstadmin -list_tgrp tg_a -dev_group dg1
run scstadmin -list_tgrp_attr tg_a -dev_group dg1
run scstadmin -config /tmp/alua.conf
run scstadmin -rem_tgrp_tgt tgt1 -dev_group dg1 -tgt_group tg_a
[ -e $TGA/tgt1 ] && fail "-rem_tgrp_tgt left tgt1"
run scstadmin -rem_dgrp_dev disk_a -dev_group dg1
run scstadmin -rem_tgrp tg_a -dev_group dg1
run scstadmin -rem_dgrp dg1
[ -e $DG ] && fail "-rem_dgrp left dg1"
log "scstadmin-alua passed"
exit 0
