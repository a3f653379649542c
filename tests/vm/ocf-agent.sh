#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The OCF resource agent (usr/ocf/scst, where scst-ng-tools installs it:
# /usr/lib/ocf/resource.d/scst-ng/scst) under ocf-tester from Debian's
# resource-agents (target group named), as Pacemaker would run it: start and stop through the
# packaged scst-service with /etc/scst.conf (a device, an scst_local
# target, the ALUA groups of both nodes of a pair), monitor, and as a
# promotable clone promote/demote setting this node's target group's
# state. Then by hand, the target group found by the agent (the one
# holding this node's target, not the other node's): monitor's answers (7 stopped, 0 unpromoted, 8
# promoted) and what each action leaves in sysfs; validate-all refusing
# a file that does not parse, a state that is not ALUA's, and a
# promotable resource without its groups, with the reason.
. /tests/lib/common.sh
. /tests/lib/scst.sh

RA=/usr/lib/ocf/resource.d/scst-ng/scst
[ -x $RA ] || fail "no $RA in the guest (ocf-agent.files)"
export OCF_ROOT=/usr/lib/ocf
# ocf-tester checks the agent's permissions as user nobody
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:65534:65534:nobody:/nonexistent:/bin/sh' >> /etc/passwd
grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >> /etc/group
TG=$SCST/device_groups/dg/target_groups/tg1

cat >> /etc/default/scst-ng <<CONF
SCST_MODULES="scst scst_vdisk scst_local"
SCST_OPTS_scst_local="add_default_tgt=0"
SCST_STOP_TIMEOUT=10
CONF
cat > /etc/scst.conf <<'CONF'
HANDLER vdisk_nullio {
	DEVICE disk1 {
		size_mb 16
		t10_dev_id disk1
	}
}
TARGET_DRIVER scst_local {
	TARGET node1 {
		rel_tgt_id 1
		LUN 0 disk1
	}
}
DEVICE_GROUP dg {
	DEVICE disk1
	TARGET_GROUP tg1 {
		group_id 1
		state active
		TARGET node1
	}
	TARGET_GROUP tg2 {
		group_id 2
		state nonoptimized
		TARGET node2 {
			rel_tgt_id 2
		}
	}
}
CONF

# ra ACTION [NAME=VALUE...]: the agent as Pacemaker runs it (a
# promotable clone, device_group dg, target_group left to the agent to
# find: the group of this node's target); prints its exit status
ra() {
	local action=$1
	shift
	env OCF_RESOURCE_INSTANCE=scst OCF_RESKEY_device_group=dg \
		OCF_RESKEY_CRM_meta_promotable=true \
		"$@" "$RA" "$action" > /tmp/ra.out 2>&1
	echo $?
}

log "+ ocf-tester -n scst -o device_group=dg -o target_group=tg1 $RA"
if ! ocf-tester -n scst -o device_group=dg -o target_group=tg1 $RA > /tmp/ocf-tester.out 2>&1; then
	cat /tmp/ocf-tester.out
	fail "ocf-tester"
fi
cat /tmp/ocf-tester.out
grep -q "$RA passed all tests" /tmp/ocf-tester.out || fail "ocf-tester did not say it passed"

# by hand: each action's result and what it leaves
assert_eq "$(ra monitor)" 7 "monitor, stopped"
assert_eq "$(ra start)" 0 "start"
assert_eq "$(attr_value $TG/state)" nonoptimized "tg1 after start (unpromoted)"
assert_eq "$(attr_value $SCST/device_groups/dg/target_groups/tg2/node2/rel_tgt_id)" 2 \
	"the other node's port in tg2"
assert_eq "$(ra monitor)" 0 "monitor, unpromoted"
assert_eq "$(ra promote)" 0 "promote"
assert_eq "$(attr_value $TG/state)" active "tg1 promoted"
assert_eq "$(ra monitor)" 8 "monitor, promoted"
assert_eq "$(ra demote)" 0 "demote"
assert_eq "$(attr_value $TG/state)" nonoptimized "tg1 demoted"
assert_eq "$(ra promote OCF_RESKEY_promoted_state=bogus)" 6 "promote to a state that is not ALUA's"
assert_eq "$(attr_value $TG/state)" nonoptimized "tg1 after the refused promote"
assert_eq "$(ra stop)" 0 "stop"
assert_eq "$(ra monitor)" 7 "monitor after stop"
[ -d $SCST ] && fail "stop left $SCST"

# validate-all's refusals, each with its reason
assert_eq "$(ra validate-all OCF_RESKEY_unpromoted_state=sideways)" 6 "validate-all, bad state"
grep -q "not an ALUA state: sideways" /tmp/ra.out || { cat /tmp/ra.out; fail "no reason for the bad state"; }
assert_eq "$(ra validate-all OCF_RESKEY_device_group=)" 6 "validate-all, promotable without device_group"
grep -q "promotable: set device_group" /tmp/ra.out || { cat /tmp/ra.out; fail "no reason for the missing group"; }
echo "DEVICE_GROUP {" >> /etc/scst.conf
assert_eq "$(ra validate-all)" 6 "validate-all, a file that does not parse"
cat /tmp/ra.out
assert_eq "$(ra start)" 6 "start with a file that does not parse"
assert_eq "$(ra monitor)" 7 "monitor after the refused start"
log "ocf-agent: ocf-tester passed; monitor 7/0/8, promote/demote, validate-all's refusals"
exit 0
