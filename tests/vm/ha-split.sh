#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-guests: t1 t2 ini
#
# A split of the HA pair (Documentation/ha.md; issue 34): only the link
# between the two target nodes is cut on the cluster segment; both still
# reach the third voter (ini) and the hosts reach both over their data
# links. Corosync cannot form one membership of three then: one target
# ends alone and inquorate, the other and ini form a quorate two (which
# one differs from run to run, and it may change while the membership
# re-forms: Documentation/testing.md). The targets' dlm_controld fences
# a node that left (HA_FENCE=1: a fence agent asking the host to kill
# that guest, as a power switch would), as ha.md tells users to run it:
# without fencing, a target that had been alone could later form the
# quorate side with the state it had, missing an update the other side
# made meanwhile. Hosts A and B (ini, initiator_ext 0xa and 0xb) have a
# nexus through each node. Checks:
#  - A holds a Write Exclusive - Registrants Only reservation, A and B
#    registered through both nodes, before the cut;
#  - once both targets see the cut, B's PREEMPT AND ABORT of A is tried
#    through each target still up, t2 first, until one admits it (the
#    refusals logged: NOT READY from a node failing closed, HARDWARE
#    ERROR from one whose peer did not confirm in time);
#  - one target was fenced by the other's dlm_controld (the flag its
#    fence agent leaves), the other is up;
#  - from B's PREEMPT AND ABORT on, for 30 s, no write of A's is admitted
#    through the target that is up (RESERVATION CONFLICT), while B's
#    are;
#  - the link healed, the fenced target booted again: it joins the
#    lockspace with the state B's preemption made, ib_srp reconnects
#    through it, and it refuses A's writes and admits B's.
. /tests/lib/ha-srp.sh

DEV=ha1
LS=scst-$DEV
LIFE=${VM_LIFE:-1}
HA_FENCE=1

ha_cluster_up

if [ "$VM_GUEST" != ini ] && [ "$LIFE" = 2 ]; then
	ha_shared_disk
	ha_target_up $DEV /dev/vda
	log "$VM_GUEST again: $(dmesg | grep "$DEV: cluster: joined lockspace" | tail -n 1)"
	ha_wait_mark 900 done ini
	ha_finish 300
	exit 0
fi

if ha_is_target; then
	ha_shared_disk
	# t1 joins first and so masters the lockspace's resources: a PERSISTENT
	# RESERVE OUT through t2 during the cut then waits for t1
	[ "$VM_GUEST" = t2 ] && ha_wait_mark 300 tgt-name t1
	ha_target_up $DEV /dev/vda
else
	ha_ini_links_up t1 t2
fi
ha_barrier 300 targets-up t1 t2 ini

# up N: tN answers on the cluster segment (from ini, which the cut
# leaves linked to both)
up() {
	! ha_peer_gone "t$1"
}

# preempt_through N: B's PREEMPT AND ABORT of A through tN's nexus;
# fails (logging what it got) if tN does not admit it
preempt_through() {
	local sg out rc

	eval "sg=\$SG_B$1"
	out=$(timeout -k 5 90 sg_persist -n -v --out --preempt-abort \
		--param-rk=0xb --param-sark=0xa --prout-type=5 "$sg" 2>&1)
	rc=$?
	if [ "$rc" = 0 ]; then
		# admitted: A's key is gone through that node (sg_persist
		# has been seen to exit 0 on a command ib_srp aborted)
		sg_turs "$sg" > /dev/null 2>&1
		sg_turs "$sg" > /dev/null 2>&1
		[ "$(keys "$sg" | xargs)" = "0xb 0xb" ] && return 0
		log "PREEMPT AND ABORT through t$1: sg_persist exited 0, but the keys are $(keys "$sg" | xargs): $(tail -n 4 <<< "$out" | tr '\n' ' ')"
		return 1
	fi
	log "PREEMPT AND ABORT through t$1 not admitted (exit $rc): $(grep -i 'sense key\|additional sense\|timed\|error' <<< "$out" | head -n 2 | tr '\n' ' ')"
	return 1
}

# write_good SG: a WRITE through SG is admitted
write_good() {
	[ "$(io "$1" write)" = good ]
}

if [ "$VM_GUEST" = ini ]; then
	ha_two_hosts_reserved

	# --- the t1-t2 link cut ----------------------------------------------
	ha_wait_passed 300 targets-up t1 t2
	ha_hub cut t1 t2
	ha_mark cut-requested
	ha_wait_mark 120 cut-seen t1 t2
	t_cut=$SECONDS
	via=
	while :; do
		for n in 2 1; do
			up $n || continue
			if preempt_through $n; then
				via=$n
				break
			fi
		done
		[ -n "$via" ] && break
		# corosync's membership may re-form for minutes before the
		# quorate side settles and fences the other
		[ $((SECONDS - t_cut)) -lt 540 ] ||
			fail "no target admitted B's PREEMPT AND ABORT within 540 s of the cut"
		sleep 2
	done
	other=$((3 - via))
	log "B preempted A through t$via, $((SECONDS - t_cut)) s after the cut; corosync here: $(ha_view)"

	# the other target was fenced by the cluster
	wait_for 60 "t$other fenced" ha_peer_gone "t$other"
	fenced=$(ha_fetch "t$via" fenced) || fail "t$via's fence agent left no flag"
	assert_eq "$fenced" "t$other" "the target t$via's dlm_controld fenced"
	log "t$other was fenced by t$via's dlm_controld, $((SECONDS - t_cut)) s after the cut"

	# no write of A's admitted from now on, B's are
	eval "sga=\$SG_A$via sgb=\$SG_B$via"
	clear_ua "$sga"
	for ((i = 0; i < 30; i++)); do
		got=$(io "$sga" write)
		[ "$got" != good ] ||
			fail "A's write through t$via admitted after B's PREEMPT AND ABORT"
		head -c 60 <<< "$got" | tr '\n' ' ' >> /tmp/seen
		echo >> /tmp/seen
		sleep 1
	done
	log "A's writes through t$via: $(sort /tmp/seen | uniq -c | xargs)"
	wait_for 60 "B's write through t$via admitted" write_good "$sgb"
	clear_ua "$sgb"
	assert_eq "$(keys "$sgb" | xargs)" "0xb 0xb" "keys through t$via after the preemption"

	# --- the fenced target back ----------------------------------------------
	ha_hub heal t1 t2
	ha_host_boot "t$other"
	ha_wait_mark 600 srp-ready "t$other"
	ha_wait_view 120 3 yes
	# ib_srp reconnects its nexuses through it (reconnect_delay)
	eval "sga=\$SG_A$other sgb=\$SG_B$other"
	wait_for 120 "A's nexus through t$other back" sg_turs "$sga"
	wait_for 120 "B's nexus through t$other back" sg_turs "$sgb"
	clear_ua "$sga"
	clear_ua "$sgb"
	assert_eq "$(keys "$sga" | xargs)" "0xb 0xb" "keys through t$other back"
	assert_eq "$(resv "$sga")" "0xb Write Exclusive, registrants only" \
		"reservation through t$other back"
	assert_eq "$(io "$sga" write)" conflict "A's write through t$other back"
	assert_eq "$(io "$sgb" write)" good "B's write through t$other back"
	prout "$sgb" --clear --param-rk=0xb
	ha_srp_logout A1 A2 B1 B2
	ha_mark done
fi

if ha_is_target; then
	# the kernel's messages on the console as they come: what the DLM
	# and scst_cluster did is in this guest's log even if it is fenced
	echo 8 > /proc/sys/kernel/printk
	ha_wait_mark 600 cut-requested ini
	peer=t$((3 - VM_NODEID))
	wait_for 60 "the cut (no answer from $peer)" ha_peer_gone "$peer"
	ha_mark cut-seen
	# one of the two is fenced meanwhile; this life may end here
	ha_wait_mark 900 done ini
	log "$VM_GUEST sees: $(ha_view); lockspace members: $(ha_ls_members "$LS" | xargs)"
	dmesg | grep "$DEV: cluster" | tail -n 8
	grep -h 'fence' /tmp/dlm_controld.log | tail -n 5
fi
log "ha-split: done on $VM_GUEST"
ha_finish 300
