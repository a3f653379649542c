#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-guests: t1 t2 ini
#
# A partition of the HA pair (Documentation/ha.md; issue 34): t1 is cut
# off from the cluster segment (the link to t2 and ini's cluster NIC:
# cutting the t1-t2 link alone makes corosync's membership re-form
# every few seconds, Documentation/testing.md) while its SRP data link to
# the hosts stays up. Hosts A and B (ini, initiator_ext 0xa and 0xb) have
# a nexus through each node. Checks:
#  - A holds a Write Exclusive - Registrants Only reservation, A and B
#    registered through both nodes;
#  - t1, alone and inquorate, stops admitting the commands a reservation
#    could restrict (NOT READY) although the hosts still reach it;
#  - B preempts A through t2 (PREEMPT AND ABORT), which the quorate side
#    (t2 with ini's vote) carries out: from then on no write of A's is
#    admitted anywhere, not through t2 (RESERVATION CONFLICT) nor through
#    the cut-off t1 (NOT READY), and B writes through t2;
#  - t1 is fenced (its QEMU killed, as a cluster manager's STONITH
#    would), the link healed, t1 booted again: it joins the lockspace
#    with the state B's preemption made (READ KEYS through t1), refuses
#    A's writes and admits B's.
. /tests/lib/ha-srp.sh

DEV=ha1
LS=scst-$DEV
LIFE=${VM_LIFE:-1}

ha_cluster_up

# target_up: the shared disk in cluster_mode as LUN 0
target_up() {
	ha_shared_disk
	ha_target_up $DEV /dev/vda
}

if [ "$VM_GUEST" = t1 ] && [ "$LIFE" = 2 ]; then
	target_up
	log "t1 again: $(dmesg | grep "$DEV: cluster: joined lockspace" | tail -n 1)"
	ha_wait_mark 900 done ini
	ha_finish 300
	exit 0
fi

if ha_is_target; then
	target_up
else
	ha_ini_links_up t1 t2
fi
ha_barrier 300 targets-up t1 t2 ini

# io_not_good SG WHAT: a WRITE through SG is not admitted (any status but
# GOOD); logs what it got
io_not_good() {
	local got
	got=$(io "$1" write)
	[ "$got" != good ] || fail "$2: a write was admitted"
	log "$2: $(head -c 160 <<< "$got" | tr '\n' ' ')"
}

# not_ready SG: a WRITE through SG gets NOT READY (the node fails closed)
not_ready() {
	local got
	got=$(io "$1" write)
	grep -qi 'not ready' <<< "$got"
}

if [ "$VM_GUEST" = ini ]; then
	ha_two_hosts_reserved

	# --- t1 cut off from the cluster -----------------------------------
	ha_wait_passed 300 targets-up t1 t2
	ha_hub isolate t1
	ha_mark isolate-requested
	ha_wait_view 90 2 yes
	log "ini sees: $(ha_view)"
	# t1 notices (token timeout and consensus): from then on it admits
	# no command a reservation could restrict, though ini reaches it
	wait_for 120 "t1 to fail closed" not_ready "$SG_A1"
	io_not_good "$SG_B1" "B's write through the cut-off t1"
	# B fences A through t2, once t2 recovered the lockspace without t1
	wait_for 120 "t2 to admit a PR OUT" sg_persist -n --out --preempt-abort \
		--param-rk=0xb --param-sark=0xa --prout-type=5 "$SG_B2"
	log "B preempted A through t2"
	clear_ua "$SG_A2"
	assert_eq "$(keys "$SG_B2" | xargs)" "0xb 0xb" "keys through t2 after the preemption"
	assert_eq "$(io "$SG_A2" write)" conflict "A's write through t2 after the preemption"
	assert_eq "$(io "$SG_B2" write)" good "B's write through t2 after the preemption"
	io_not_good "$SG_A1" "A's write through the cut-off t1 after the preemption"
	io_not_good "$SG_B1" "B's write through the cut-off t1 after the preemption"
	ha_wait_mark 120 t1-alone-seen t1

	# --- t1 fenced, healed, back ----------------------------------------
	ha_host_kill t1
	sleep 2
	ha_hub rejoin t1
	ha_host_boot t1
	ha_wait_mark 600 srp-ready t1
	ha_wait_view 120 3 yes
	# ib_srp reconnects its nexuses through t1 (reconnect_delay)
	wait_for 120 "A's nexus through t1 back" sg_turs "$SG_A1"
	wait_for 120 "B's nexus through t1 back" sg_turs "$SG_B1"
	clear_ua "$SG_A1"
	clear_ua "$SG_B1"
	assert_eq "$(keys "$SG_A1" | xargs)" "0xb 0xb" "keys through t1 back"
	assert_eq "$(resv "$SG_A1")" "0xb Write Exclusive, registrants only" \
		"reservation through t1 back"
	assert_eq "$(io "$SG_A1" write)" conflict "A's write through t1 back"
	assert_eq "$(io "$SG_B1" write)" good "B's write through t1 back"
	prout "$SG_B1" --clear --param-rk=0xb
	ha_srp_logout A1 A2 B1 B2
	ha_mark done
fi

if [ "$VM_GUEST" = t1 ]; then
	ha_wait_mark 300 isolate-requested ini
	ha_wait_view 90 1 no
	log "cut-off t1 sees: $(ha_view)"
	dmesg | grep "$DEV: cluster" | tail -n 5
	ha_mark t1-alone-seen
	# life 1 ends by the fence
	ha_wait_mark 900 done ini
	fail "t1 was not fenced"
fi
if [ "$VM_GUEST" = t2 ]; then
	ha_wait_mark 300 isolate-requested ini
	ha_wait_view 90 2 yes
	wait_for 120 "lockspace $LS without t1" ha_ls_members_are "$LS" 2
	log "t2 sees: $(ha_view); lockspace members: $(ha_ls_members "$LS")"
	ha_wait_mark 900 done ini
	dmesg | grep "$DEV: cluster" | tail -n 8
fi
log "ha-partition: done on $VM_GUEST"
ha_finish 300
