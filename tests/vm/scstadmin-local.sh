#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scstadmin against the real modules, through scst_local: apply a
# configuration with all three vdisk kinds, a target with its own LUNs and
# a group with a wildcard initiator; applying it twice changes nothing;
# -write_config, -clear_config -force, then -config of the written file
# gives back the same tree; the sessions see exactly their LUNs.
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=131072
run modprobe scst
run modprobe scst_vdisk
run modprobe scst_local add_default_tgt=0
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=128 status=none
command -v scstadmin > /dev/null || fail "scstadmin is not in the guest"

cat > /tmp/scst.conf <<'CONF'
# test configuration
HANDLER vdisk_blockio {
	DEVICE disk_bio {
		filename /dev/ram0
	}
}

HANDLER vdisk_fileio {
	DEVICE disk_fio {
		filename /tmp/fileio.img
		thin_provisioned 1
	}
}

HANDLER vdisk_nullio {
	DEVICE disk_null {
		size_mb 512
	}
}

TARGET_DRIVER scst_local {
	TARGET tgt1 {
		LUN 0 disk_bio
		LUN 1 disk_fio

		GROUP special {
			LUN 0 disk_null {
				read_only 1
			}
			INITIATOR host9*
		}
	}
}
CONF

run scstadmin -check_config /tmp/scst.conf
mgmt $SCST/targets/scst_local/mgmt "add_target tgt1"
run scstadmin -config /tmp/scst.conf
T=$SCST/targets/scst_local/tgt1
for d in disk_bio disk_fio disk_null; do
	[ -d $SCST/devices/$d ] || fail "device $d not created"
done
assert_eq "$(readlink -f $T/luns/1/device)" "$(readlink -f $SCST/devices/disk_fio)" "LUN 1"
[ -e "$T/ini_groups/special/initiators/host9*" ] || fail "initiator pattern missing"
assert_eq "$(attr_value $T/ini_groups/special/luns/0/read_only)" 1 "group LUN read_only"
assert_eq "$(attr_value $SCST/devices/disk_fio/thin_provisioned)" 1 "thin_provisioned"

before=$(tree_snapshot)
out=$(scstadmin -config /tmp/scst.conf 2>&1) || fail "second apply failed: $out"
echo "$out"
grep -qi 'no changes' <<< "$out" || fail "second apply of the same file changed something"
[ "$before" = "$(tree_snapshot)" ] || fail "second apply changed the tree"

# sessions see exactly their LUNs
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 host1"
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 host9a"
wait_for 10 "host1" local_host tgt1 host1
wait_for 10 "host9a" local_host tgt1 host9a
h1=$(local_host tgt1 host1)
h9=$(local_host tgt1 host9a)
wait_lun "$h1" 1
wait_lun "$h9" 0
sg_luns "$(lun_sg "$h1" 0)" | grep -c '^    000' | grep_q -x 2 || fail "host1 should see 2 LUNs"
sg_luns "$(lun_sg "$h9" 0)" | grep -c '^    000' | grep_q -x 1 || fail "host9a should see 1 LUN"
sg_inq "$(lun_disk "$h9" 0)" | grep_q 'Product identification: disk_null' || fail "host9a LUN 0 is not disk_null"
run scstadmin -list_sessions
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 host1"
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 host9a"

# write, clear, re-apply: the same tree
run scstadmin -write_config /tmp/written.conf
cat /tmp/written.conf
expect_fail scstadmin -clear_config -noprompt
run scstadmin -clear_config -force -noprompt
[ -d $SCST/devices/disk_bio ] && fail "-clear_config left devices"
[ -e $T/luns/0 ] && fail "-clear_config left LUNs"
run scstadmin -config /tmp/written.conf
after=$(tree_snapshot)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "re-applying the written file gave another tree"; }

# a bad file changes nothing and names the line
printf 'HANDLER vdisk_nullio {\n\tDEVICE x {\n\t\tsize_mb 64\n\t}\n' > /tmp/bad.conf
out=$(scstadmin -config /tmp/bad.conf 2>&1) && fail "an unbalanced file was applied"
echo "$out"
grep -q 'bad.conf:' <<< "$out" || fail "the error does not name the file and line"
[ -d $SCST/devices/x ] && fail "a rejected file created a device"
log "scstadmin-local passed"
exit 0
