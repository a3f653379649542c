#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-guests: t1 t2 t3 t4
#
# cluster_mode beyond two nodes (Documentation/ha.md, "What bounds it";
# issue 34): four target nodes, corosync 3 and dlm_controld from Debian
# on each, one vdisk_nullio device of t10_dev_id ha1 in cluster_mode on
# every node, each node's own host on it through scst_local (initiator
# host-tN, relative target port N). The nodes join the lockspace one by
# one; at each size (cluster_mode off, 1, 2, 3 and 4 nodes) t1 times 40
# PR OUTs (pr_latency), and the node that joined last must see the keys
# the others registered. Then, at four nodes:
#  - t4 reserves (Write Exclusive - Registrants Only) and PREEMPT AND
#    ABORTs t1's key: t1's host gets REGISTRATIONS PREEMPTED and its
#    writes conflict, t2 and t3 see the new state (keys, reservation,
#    PRgeneration equal on every node) and admit their registrants'
#    writes;
#  - t3's QEMU is killed (a power cut): the three others stay quorate,
#    the DLM recovers the lockspace without node 3, and a PR OUT through
#    t2 (a new key for t2's host) is seen through t1 and t4, the
#    reservation kept;
#  - the latencies are logged as one line, "PR OUT latency by nodes".
# Four TCG guests time-slice the host's two CPUs: the latencies show
# how the PR OUT grows with the nodes, not what a real network gives.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/pr.sh
. /tests/lib/ha.sh

DEV=ha1
LS=scst-$DEV
D=$SCST/devices/$DEV

ha_cluster_up
ha_barrier 300 cluster-up

# --- every node: the device (not yet in cluster_mode) and its own host -----
run modprobe -a sd_mod sg
scst_local_load
run modprobe scst_cluster
run sh -c "echo $HA_CLUSTER_NAME > $SCST/cluster_name"
mgmt $SCST/handlers/vdisk_nullio/mgmt "add_device $DEV size_mb=16;t10_dev_id=$DEV"
REL_TGT_ID=$VM_NODEID local_target tgt "host-$VM_GUEST" "$DEV 0"
SG=$(lun_sg "$host" 0)
clear_ua "$SG"
KEY=0x$VM_NODEID

# join: this node's device enters the lockspace; waits until the DLM
# lists the members IDS
join() {
	run sh -c "echo 1 > $D/cluster_mode"
	dmesg | grep "$DEV: cluster:" | tail -n 2
	wait_for 120 "lockspace $LS members $1" ha_ls_members_are "$LS" "$1"
}

# lat NAME: t1 times 40 PR OUTs and publishes the figures as flag NAME
lat() {
	local all net

	clear_ua "$SG"
	read -r all net <<< "$(pr_latency "$SG" 40)"
	log "PR OUT latency, $1: $all us per sg_persist, $net us more than a TEST UNIT READY's"
	ha_mark "lat-$1" "$all $net"
}

# sees_keys KEYS: READ KEYS through this node lists KEYS (sorted, one
# line, each followed by a space)
sees_keys() {
	assert_eq "$(keys "$SG" | sort | tr '\n' ' ')" "$1" "keys through $VM_GUEST"
}

# --- cluster_mode off, then 1 to 4 nodes ------------------------------------
if [ "$VM_GUEST" = t1 ]; then
	lat off
	prout "$SG" --register-ignore --param-sark=$KEY
	join 1
	lat 1node
	# pr_latency leaves 0x100 or 0x101 as t1's key; KEY again
	prout "$SG" --register-ignore --param-sark=$KEY
	ha_mark measured-1
fi
members=1
for n in 2 3 4; do
	members="$members $n"
	if [ "$VM_GUEST" = "t$n" ]; then
		# after t1's measurement at one node fewer (t1's key is
		# KEY again then)
		ha_wait_mark 600 "measured-$((n - 1))" t1
		join "$members"
		clear_ua "$SG"
		want=
		for ((i = 1; i < n; i++)); do want="${want}0x$i "; done
		sees_keys "$want"
		prout "$SG" --register --param-sark=$KEY
		ha_mark "joined-$n"
	fi
	if [ "$VM_GUEST" = t1 ]; then
		ha_wait_mark 300 "joined-$n" "t$n"
		wait_for 60 "lockspace $LS members $members" ha_ls_members_are "$LS" "$members"
		lat "${n}nodes"
		prout "$SG" --register-ignore --param-sark=$KEY
		ha_mark "measured-$n"
	fi
done
ha_wait_mark 600 measured-4 t1
ALL="0x1 0x2 0x3 0x4 "
sees_keys "$ALL"
ha_barrier 300 four

# --- four nodes: t4 reserves and preempts t1 --------------------------------
if [ "$VM_GUEST" = t4 ]; then
	prout "$SG" --reserve --param-rk=$KEY --prout-type=5
	prout "$SG" --preempt-abort --param-rk=$KEY --param-sark=0x1 --prout-type=5
	ha_mark preempted "$(generation "$SG")"
fi
ha_wait_mark 300 preempted t4
gen=$(ha_fetch t4 preempted)
case $VM_GUEST in
t1)
	ua_is "$SG" "registrations preempted"
	assert_eq "$(io "$SG" write)" conflict "t1's host's write after PREEMPT AND ABORT"
	;;
t2|t3)
	clear_ua "$SG"
	assert_eq "$(io "$SG" write)" good "$VM_GUEST's host's write (a registrant)"
	;;
esac
sees_keys "0x2 0x3 0x4 "
assert_eq "$(resv "$SG")" "0x4 Write Exclusive, registrants only" "reservation through $VM_GUEST"
assert_eq "$(generation "$SG")" "$gen" "PRgeneration through $VM_GUEST"
ha_barrier 300 preempt-checked

# --- t3's power cut: three nodes go on ---------------------------------------
if [ "$VM_GUEST" = t3 ]; then
	log "t3: waiting for the power cut"
	sleep 600
	fail "t3 was not killed"
fi
if [ "$VM_GUEST" = t2 ]; then
	ha_wait_passed 300 preempt-checked t1 t3 t4
	ha_host_kill t3
fi
wait_for 120 "t3 gone" ha_peer_gone t3
ha_wait_view 120 3 yes
wait_for 120 "lockspace $LS without node 3" ha_ls_members_are "$LS" "1 2 4"
log "$(dmesg | grep "$DEV: cluster:" | tail -n 3 | tr '\n' ' ')"
wait_for 60 "$DEV serving again" sh -c "! sg_turs $SG 2>&1 | grep -qi 'not ready'"
ha_barrier 300 three-left t1 t2 t4
if [ "$VM_GUEST" = t2 ]; then
	prout "$SG" --register-ignore --param-sark=0x22
	ha_mark registered-after-cut
fi
ha_wait_mark 300 registered-after-cut t2
clear_ua "$SG"
sees_keys "0x22 0x3 0x4 "
assert_eq "$(resv "$SG")" "0x4 Write Exclusive, registrants only" "reservation after t3's death"
ha_barrier 300 checked t1 t2 t4

if [ "$VM_GUEST" = t1 ]; then
	log "PR OUT latency by nodes (us per command, us over TEST UNIT READY): off $(ha_fetch t1 lat-off); 1 $(ha_fetch t1 lat-1node); 2 $(ha_fetch t1 lat-2nodes); 3 $(ha_fetch t1 lat-3nodes); 4 $(ha_fetch t1 lat-4nodes)"
fi
log "ha-scale: done on $VM_GUEST"
ha_finish 300
