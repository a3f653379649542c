#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The OCF resource agent (usr/ocf/scst, where scst-ng-tools installs it:
# /usr/lib/ocf/resource.d/scst-ng/scst) under ocf-tester from Debian's
# resource-agents (target group named), as Pacemaker would run it: start and stop through the
# packaged scst-service with /etc/scst.conf (a device, an scst_local
# target, the ALUA groups of both nodes of a pair), monitor, and as a
# promotable clone promote/demote setting this node's target group's
# state (and promote the other node's group unpromoted). Then by hand, the target group found by the agent (the one
# holding this node's target, not the other node's): monitor's answers (7 stopped, 0 unpromoted, 8
# promoted) and what each action leaves in sysfs; validate-all refusing
# a file that does not parse, a state that is not ALUA's, and a
# promotable resource without its groups, with the reason. Then
# notify as Pacemaker runs it on t1 (OCF_RESKEY_CRM_meta_notify_*): the
# other node's group tg2 active after t2's post-promote, unpromoted
# after its post-demote, pre-* notifications doing nothing, t1's own
# promotion (action or notification) leaving tg2 unpromoted, peer_groups
# naming it; refused with OCF_ERR_CONFIGURED and the node named, nothing
# changed: a node peer_groups does not name, a node with three groups
# and no peer_groups (validate-all too), a peer_groups word that is not
# NODE:GROUP.
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
TG2=$SCST/device_groups/dg/target_groups/tg2

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

# notify: on t1, tg2 (t2's group as t1 reports it) follows t2
# nfy TYPE OPERATION NODES [NAME=VALUE...]: a notification as Pacemaker
# sends it to t1, NODES the promoted or demoted ones
nfy() {
	local type=$1 op=$2 nodes=$3
	shift 3
	ra notify OCF_RESKEY_CRM_meta_on_node=t1 \
		OCF_RESKEY_CRM_meta_notify_type="$type" \
		OCF_RESKEY_CRM_meta_notify_operation="$op" \
		OCF_RESKEY_CRM_meta_notify_"$op"_uname="$nodes" "$@"
}
states() {
	echo "$(attr_value $TG/state) $(attr_value $TG2/state)"
}
assert_eq "$(ra start)" 0 "start again, for notify"
assert_eq "$(states)" "nonoptimized nonoptimized" "tg1 tg2 after start"
assert_eq "$(nfy pre promote t2)" 0 "pre-promote t2"
assert_eq "$(states)" "nonoptimized nonoptimized" "tg1 tg2 after pre-promote t2 (nothing)"
assert_eq "$(nfy post promote t2)" 0 "post-promote t2"
assert_eq "$(states)" "nonoptimized active" "tg1 tg2 after post-promote t2"
log "notify post-promote t2: tg1 tg2 $(states)"
assert_eq "$(nfy pre demote t2)" 0 "pre-demote t2"
assert_eq "$(states)" "nonoptimized active" "tg1 tg2 after pre-demote t2 (nothing)"
# Pacemaker names the whole transition's promotions in every notification
assert_eq "$(nfy post demote t2 OCF_RESKEY_CRM_meta_notify_promote_uname=t1)" 0 "post-demote t2"
assert_eq "$(states)" "nonoptimized nonoptimized" "tg1 tg2 after post-demote t2"
log "notify post-demote t2: tg1 tg2 $(states)"
assert_eq "$(nfy post start t2)" 0 "post-start t2"
assert_eq "$(states)" "nonoptimized nonoptimized" "tg1 tg2 after post-start t2 (nothing)"
# failover: t2 promoted, then dead without a demote; t1 promoted
assert_eq "$(nfy post promote t2)" 0 "post-promote t2, again"
assert_eq "$(states)" "nonoptimized active" "tg1 tg2, t2 promoted"
assert_eq "$(ra promote)" 0 "promote t1 (t2 dead, never demoted)"
assert_eq "$(states)" "active nonoptimized" "tg1 tg2 after t1's promote"
log "promote t1 after t2 promoted: tg1 tg2 $(states)"
# t1's own post-promote notification: the others unpromoted, its own as is
echo active > $TG2/state
assert_eq "$(nfy post promote t1)" 0 "post-promote t1 (this node)"
assert_eq "$(states)" "active nonoptimized" "tg1 tg2 after t1's post-promote"
log "notify post-promote t1 (tg2 active by hand before): tg1 tg2 $(states)"
# this node's name from crm_node -n or uname -n without CRM_meta_on_node
echo active > $TG2/state
assert_eq "$(ra notify OCF_RESKEY_CRM_meta_notify_type=post \
	OCF_RESKEY_CRM_meta_notify_operation=promote \
	OCF_RESKEY_CRM_meta_notify_promote_uname="$(uname -n)")" 0 \
	"post-promote $(uname -n), no on_node"
assert_eq "$(states)" "active nonoptimized" "tg1 tg2 after post-promote of $(uname -n)"
# peer_groups names t2's group
assert_eq "$(nfy post promote t2 OCF_RESKEY_peer_groups='t1:tg1 t2:tg2')" 0 \
	"post-promote t2, peer_groups"
assert_eq "$(states)" "active active" "tg1 tg2 after post-promote t2, peer_groups"
assert_eq "$(nfy post demote t2 OCF_RESKEY_peer_groups='t2:tg2')" 0 \
	"post-demote t2, peer_groups"
assert_eq "$(states)" "active nonoptimized" "tg1 tg2 after post-demote t2, peer_groups"
assert_eq "$(ra validate-all OCF_RESKEY_CRM_meta_on_node=t1 OCF_RESKEY_peer_groups='t1:tg1 t2:tg2')" 0 \
	"validate-all, peer_groups"
assert_eq "$(ra validate-all OCF_RESKEY_CRM_meta_on_node=t1 OCF_RESKEY_peer_groups='t1:tg2 t2:tg1')" 6 \
	"validate-all, peer_groups giving t1 t2's group"
grep -q "peer_groups: t1:tg2, but this node (t1) has tg1" /tmp/ra.out ||
	{ cat /tmp/ra.out; fail "no reason for the swapped groups"; }
# refusals: OCF_ERR_CONFIGURED, the node named, nothing changed
assert_eq "$(nfy post promote t3 OCF_RESKEY_peer_groups='t2:tg2')" 6 \
	"post-promote t3, not in peer_groups"
grep -q "node t3 is not in peer_groups" /tmp/ra.out || { cat /tmp/ra.out; fail "no reason for t3"; }
cat /tmp/ra.out
assert_eq "$(states)" "active nonoptimized" "tg1 tg2 after the refused notify"
assert_eq "$(nfy post promote t2 OCF_RESKEY_peer_groups='t1:tg1 t2')" 6 \
	"post-promote t2, a bad peer_groups"
assert_eq "$(states)" "active nonoptimized" "tg1 tg2 after the refused notify"
mgmt $SCST/device_groups/dg/target_groups/mgmt "create tg3"
echo nonoptimized > $SCST/device_groups/dg/target_groups/tg3/state
assert_eq "$(nfy post promote t3)" 6 "post-promote t3, three groups"
grep -q "node t3: device group 'dg' holds 3 target groups" /tmp/ra.out ||
	{ cat /tmp/ra.out; fail "no reason for the three groups"; }
cat /tmp/ra.out
assert_eq "$(states)" "active nonoptimized" "tg1 tg2 after the refused notify"
assert_eq "$(ra validate-all)" 6 "validate-all, three groups without peer_groups"
grep -q "holds 3 target groups: set peer_groups" /tmp/ra.out ||
	{ cat /tmp/ra.out; fail "no reason for the three groups (validate-all)"; }
cat /tmp/ra.out
assert_eq "$(ra validate-all OCF_RESKEY_peer_groups='t2:tg2 t3:tg3')" 0 \
	"validate-all, three groups named"
assert_eq "$(nfy post promote t3 OCF_RESKEY_peer_groups='t2:tg2 t3:tg3')" 0 \
	"post-promote t3, peer_groups"
assert_eq "$(attr_value $SCST/device_groups/dg/target_groups/tg3/state)" active "tg3 after post-promote t3"
assert_eq "$(ra demote)" 0 "demote t1"
assert_eq "$(ra stop)" 0 "stop after notify"

# validate-all's refusals, each with its reason
assert_eq "$(ra validate-all OCF_RESKEY_unpromoted_state=sideways)" 6 "validate-all, bad state"
grep -q "not an ALUA state: sideways" /tmp/ra.out || { cat /tmp/ra.out; fail "no reason for the bad state"; }
assert_eq "$(ra validate-all OCF_RESKEY_device_group=)" 6 "validate-all, promotable without device_group"
grep -q "promotable: set device_group" /tmp/ra.out || { cat /tmp/ra.out; fail "no reason for the missing group"; }
assert_eq "$(ra validate-all OCF_RESKEY_peer_groups='t1:tg1 t2')" 6 "validate-all, peer_groups word t2"
grep -q "peer_groups: 't2' is not NODE:GROUP" /tmp/ra.out || { cat /tmp/ra.out; fail "no reason for the bad peer_groups"; }
cat /tmp/ra.out
assert_eq "$(ra validate-all OCF_RESKEY_peer_groups='t1:tg1 t1:tg2')" 6 "validate-all, a node twice in peer_groups"
echo "DEVICE_GROUP {" >> /etc/scst.conf
assert_eq "$(ra validate-all)" 6 "validate-all, a file that does not parse"
cat /tmp/ra.out
assert_eq "$(ra start)" 6 "start with a file that does not parse"
assert_eq "$(ra monitor)" 7 "monitor after the refused start"
log "ocf-agent: ocf-tester passed; monitor 7/0/8, promote/demote, notify, validate-all's refusals"
exit 0
