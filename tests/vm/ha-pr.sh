#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-guests: t1 t2 ini
#
# Persistent reservations shared by two target nodes (cluster_mode,
# Documentation/ha.md; issue 34): t1 and t2 run corosync 3 and
# dlm_controld (tests/vm/lib/ha.sh) and export the one shared disk
# (/dev/vda on both) as a vdisk_blockio device "ha1" in cluster_mode,
# through our SRP target on their data link to ini. ini logs in to both
# over Soft-RoCE, t1 being relative target port 1 and t2 port 2. ini is
# two hosts (ib_srp's initiator_ext 0xa and 0xb), each with a nexus through each
# node: A1 A2 B1 B2. Checks, from ini:
#  - one logical unit: the same LU designators through both nodes;
#  - a registration and a reservation made through one node are seen
#    (READ KEYS, READ RESERVATION) and enforced (RESERVATION CONFLICT for
#    a write, a read passing) through the other;
#  - the unit attention of a RELEASE through one node reaches the
#    registrant on the other (RESERVATIONS RELEASED);
#  - PREEMPT AND ABORT through t2 of the key registered through t1: the
#    nexus on t1 gets REGISTRATIONS PREEMPTED and its writes conflict;
#  - REGISTER AND MOVE through t1, seen and enforced through t2, and
#    PREEMPT (without abort) through t2 of the key moved, with the unit
#    attention on t1;
#  - PRgeneration is the same through both nodes after every change;
#  - fence_scsi (Debian's fence-agents, as Pacemaker runs it: -o on,
#    -o status, -o off of the other host's key) fences A through t1
#    while A's writes are in flight on t2: t2 aborts them (its log says
#    how many), A's new writes fail through both nodes, B's pass; A's
#    "on" again unfences it;
#  - the PR OUT latency with cluster_mode on (two nodes) and off, logged.
. /tests/lib/ha-srp.sh

DEV=ha1
LS=scst-$DEV

ha_cluster_up
ha_barrier 300 cluster-up

# --- the targets: the shared disk in cluster_mode, our SRP target ----------
if ha_is_target; then
	ha_shared_disk
	# t2 writes the shared disk through dm-delay (300 ms a write), so
	# that the writes of the host fenced below are still in flight on
	# t2 when the fence comes through t1
	backing=/dev/vda
	if [ "$VM_GUEST" = t2 ]; then
		run modprobe dm_delay
		run dmsetup create --noudevsync slow --table \
			"0 $(blockdev --getsz /dev/vda) delay /dev/vda 0 0 /dev/vda 0 300"
		backing=/dev/$(ls /sys/block/ | grep -m1 '^dm-')
		wait_for 10 "$backing" test -b "$backing"
	fi
	ha_target_up $DEV "$backing"
else
	ha_ini_links_up t1 t2
fi
ha_barrier 300 targets-up

# --- ini: two hosts, each with a nexus through each node --------------------
# ib_srp's initiator_ext makes host A (0xa) and host B (0xb) two SRP
# initiator ports on ini's RDMA ports: four I_T nexuses, A1 A2 B1 B2
# (host, node).

# same_generation: READ KEYS through both nodes gives one PRgeneration
same_generation() {
	local g1 g2
	g1=$(generation "$SG_A1")
	g2=$(generation "$SG_B2")
	[ -n "$g1" ] && [ "$g1" = "$g2" ] ||
		fail "PRgeneration $g1 through t1, $g2 through t2"
	log "PRgeneration $g1 through both nodes"
}

# fence HOST-KEY ACTION DEVICES...: fence_scsi as Pacemaker runs it; its
# key file (/var/run/cluster.key) is this host's, set by "on"
fence() {
	local key=$1 action=$2 devs
	shift 2
	devs=$(echo "$@" | tr ' ' ',')
	log "+ fence_scsi -o $action -k $key -d $devs"
	fence_scsi -o "$action" -k "$key" -d "$devs" 2>&1
}

# status_is KEY STATUS DEVICES...: fence_scsi -o status says STATUS
status_is() {
	local key=$1 want=$2 out
	shift 2
	out=$(fence "$key" status "$@") || true
	grep -qi "status: $want" <<< "$out" ||
		{ echo "$out"; fail "fence_scsi status of key $key on $*: not $want"; }
}

if [ "$VM_GUEST" = ini ]; then
	ha_srp_login_two_hosts
	log "A: $SD_A1 via t1, $SD_A2 via t2; B: $SD_B1 via t1, $SD_B2 via t2"
	# one logical unit to the host: the same LU designators (SPC-4
	# §7.8.6; the target port ones differ) through both nodes
	assert_eq "$(sg_vpd -p di_lu "$SG_A1")" "$(sg_vpd -p di_lu "$SG_A2")" \
		"LU designators through t1 and t2"

	# a registration through t1, seen through t2; and the other way
	prout "$SG_A1" --register --param-sark=0xa
	assert_eq "$(keys "$SG_B2" | xargs)" "0xa" "keys through t2 after REGISTER through t1"
	prout "$SG_B2" --register --param-sark=0xb
	assert_eq "$(keys "$SG_A1" | xargs)" "0xa 0xb" "keys through t1 after REGISTER through t2"
	same_generation

	# a reservation through t1, seen and enforced through t2
	prout "$SG_A1" --reserve --param-rk=0xa --prout-type=1
	assert_eq "$(resv "$SG_B2")" "0xa Write Exclusive" "reservation through t2"
	assert_eq "$(io "$SG_B2" write)" conflict "B2's write under A1's Write Exclusive"
	assert_eq "$(io "$SG_B2" read)" good "B2's read under A1's Write Exclusive"
	assert_eq "$(io "$SG_A2" write)" conflict "A2's write (not registered) under A1's Write Exclusive"
	assert_eq "$(io "$SG_A1" write)" good "the holder's write through t1"
	same_generation

	# RELEASE of a Write Exclusive - Registrants Only reservation through
	# t1: the registrant through t2 gets RESERVATIONS RELEASED (SPC-4
	# §5.9.11.2)
	prout "$SG_A1" --release --param-rk=0xa --prout-type=1
	prout "$SG_A1" --reserve --param-rk=0xa --prout-type=5
	assert_eq "$(resv "$SG_B2")" "0xa Write Exclusive, registrants only" \
		"WE-RO reservation through t2"
	assert_eq "$(io "$SG_B2" write)" good "a registrant's write under WE-RO through t2"
	prout "$SG_A1" --release --param-rk=0xa --prout-type=5
	ua_is "$SG_B2" "reservations released"
	assert_eq "$(resv "$SG_B2")" none "reservation through t2 after RELEASE"

	# PREEMPT AND ABORT through t2 of the key registered through t1
	prout "$SG_A1" --reserve --param-rk=0xa --prout-type=1
	prout "$SG_B2" --preempt-abort --param-rk=0xb --param-sark=0xa --prout-type=1
	ua_is "$SG_A1" "registrations preempted"
	assert_eq "$(keys "$SG_A1" | xargs)" "0xb" "keys through t1 after PREEMPT AND ABORT"
	assert_eq "$(resv "$SG_A1")" "0xb Write Exclusive" "reservation through t1"
	assert_eq "$(io "$SG_A1" write)" conflict "the preempted nexus's write through t1"
	assert_eq "$(io "$SG_B2" write)" good "the new holder's write through t2"
	same_generation
	prout "$SG_B2" --clear --param-rk=0xb
	assert_eq "$(keys "$SG_A1" | xargs)" "" "keys through t1 after CLEAR"
	for sg in "$SG_A1" "$SG_A2" "$SG_B1" "$SG_B2"; do clear_ua "$sg"; done

	# REGISTER AND MOVE through t1 to B's nexus through t1 (its SRP
	# TransportID as t1's pr_state names it), seen and enforced through
	# t2; then PREEMPT (without abort) through t2 of the key moved there,
	# with the unit attention on t1. (A move to a port of the other node
	# is refused: ha.md, "Not there yet".)
	prout "$SG_B1" --register --param-sark=0xb
	ha_mark want-tid
	ha_wait_mark 120 tid-b1 t1
	tid=$(ha_fetch t1 tid-b1)
	[ ${#tid} = 32 ] || fail "no SRP TransportID of B1 from t1 ('$tid')"
	prout "$SG_B1" --register --param-rk=0xb --param-sark=0
	prout "$SG_A1" --register --param-sark=0xa
	prout "$SG_A1" --reserve --param-rk=0xa --prout-type=1
	# the TransportID as its 24 bytes (SPC-4 §7.6.4.5: protocol 4h, the
	# initiator port identifier at byte 8): sg_persist's "srp," form is
	# refused by Debian's sg3_utils 1.46 ("badly formed")
	tid_hex="04,0,0,0,0,0,0,0,$(sed 's/../&,/g; s/,$//' <<< "$tid")"
	prout "$SG_A1" --register-move --param-rk=0xa --param-sark=0xc --prout-type=1 \
		--relative-target-port=1 --transport-id="$tid_hex"
	assert_eq "$(keys "$SG_B2" | xargs)" "0xa 0xc" "keys through t2 after REGISTER AND MOVE"
	assert_eq "$(resv "$SG_B2")" "0xc Write Exclusive" "reservation through t2 after REGISTER AND MOVE"
	assert_eq "$(io "$SG_B1" write)" good "the moved-to holder's write"
	assert_eq "$(io "$SG_B2" write)" conflict "B's unregistered nexus's write through t2"
	assert_eq "$(io "$SG_A1" write)" conflict "the old holder's write through t1"
	same_generation
	prout "$SG_A2" --register --param-sark=0xd
	prout "$SG_A2" --preempt --param-rk=0xd --param-sark=0xc --prout-type=1
	ua_is "$SG_B1" "registrations preempted"
	assert_eq "$(keys "$SG_B1" | xargs)" "0xa 0xd" "keys through t1 after PREEMPT through t2"
	assert_eq "$(resv "$SG_B1")" "0xd Write Exclusive" "reservation through t1 after PREEMPT"
	assert_eq "$(io "$SG_B1" write)" conflict "the preempted nexus's write through t1"
	assert_eq "$(io "$SG_A2" write)" good "the new holder's write through t2"
	same_generation
	prout "$SG_A2" --clear --param-rk=0xd
	for sg in "$SG_A1" "$SG_A2" "$SG_B1" "$SG_B2"; do clear_ua "$sg"; done
	ha_mark pr-done
fi
if [ "$VM_GUEST" = t1 ]; then
	ha_wait_mark 600 want-tid ini
	tid=$(sed -n 's/^registrant [0-9]* key 0x000000000000000b transport_id srp:\([0-9a-f]\{32\}\) rel_tgt_id 1 .*/\1/p' \
		$SCST/devices/$DEV/pr_state)
	[ -n "$tid" ] || { cat $SCST/devices/$DEV/pr_state; fail "pr_state: no registrant 0xb on port 1"; }
	ha_mark tid-b1 "$tid"
fi
ha_wait_mark 600 pr-done ini

# --- fence_scsi across the nodes --------------------------------------------
# Each host runs "on" with its key on its devices (a nexus through each
# node), B first: B registers through t1 and reserves (Write Exclusive -
# Registrants Only); fence_scsi skips registering B2, as it skips every
# device whose reservation its key already holds. A registers through
# both. B fences A through t1 alone while A writes through t2: A's
# writes in flight on t2 are aborted there (t2's log says how many), A's
# new writes fail through both nodes; B's go on; A, unfenced ("on"
# again), writes again.
if [ "$VM_GUEST" = ini ]; then
	fence 2 on "$SD_B1" "$SD_B2" || fail "fence_scsi -o on for B"
	fence 1 on "$SD_A1" "$SD_A2" || fail "fence_scsi -o on for A"
	assert_eq "$(keys "$SG_B2" | xargs)" "0x2 0x1 0x1" "keys after both hosts' on"
	assert_eq "$(resv "$SG_A2")" "0x2 Write Exclusive, registrants only" \
		"fence_scsi's reservation, through t2"
	status_is 1 on "$SD_A1" "$SD_A2"
	status_is 2 on "$SD_B1"
	log "A writes through t2 with 8 commands in flight"
	fio --name=inflight --filename="$SD_A2" --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=8 --size=32M --time_based \
		--runtime=120 --output=/tmp/fio.out > /dev/null 2>&1 &
	fio_pid=$!
	wait_for 120 "$SD_A2 writes in flight" writes_in_flight "$SD_A2"
	sleep 1
	# fence_scsi keeps its host's key in one file, which A's "on" wrote
	# last: one guest plays both hosts, so B's key goes back first
	echo 2 > /var/run/cluster.key
	fence 1 off "$SD_B1" || fail "fence_scsi -o off of A's key through t1"
	if wait "$fio_pid"; then
		cat /tmp/fio.out
		fail "A's fio kept writing successfully after being fenced"
	fi
	grep -q 'err=' /tmp/fio.out || { cat /tmp/fio.out; fail "fio reported no error"; }
	ha_mark fenced
	status_is 1 off "$SD_A1" "$SD_A2"
	status_is 2 on "$SD_B1"
	for sg in "$SG_A1" "$SG_A2"; do
		clear_ua "$sg"
		assert_eq "$(io "$sg" write)" conflict "fenced A's write through $sg"
	done
	assert_eq "$(io "$SG_B1" write)" good "B's write through t1"
	# A comes back: "on" again registers its key on both nexuses
	fence 1 on "$SD_A1" "$SD_A2" || fail "fence_scsi -o on for A again"
	for sg in "$SG_A1" "$SG_A2"; do
		assert_eq "$(io "$sg" write)" good "unfenced A's write through $sg"
	done
	ha_mark fence-done
fi
if [ "$VM_GUEST" = t2 ]; then
	ha_wait_mark 600 fenced ini
	line=$(dmesg | grep "$DEV: cluster: PREEMPT AND ABORT of node 1 aborted" | tail -n 1)
	[ -n "$line" ] || fail "t2: A's commands were not aborted here"
	log "t2: $line"
fi
ha_wait_mark 600 fence-done ini

# --- PR OUT latency with and without cluster_mode ---------------------------

if [ "$VM_GUEST" = ini ]; then
	prout "$SG_A1" --clear --param-rk=0x1
	for sg in "$SG_A1" "$SG_A2" "$SG_B1" "$SG_B2"; do clear_ua "$sg"; done
	read -r all net <<< "$(pr_latency "$SG_A1" 40)"
	log "PR OUT latency, cluster_mode 1 (two nodes): $all us per sg_persist, $net us more than a TEST UNIT READY's"
	ha_mark lat-cluster "$all $net"
fi
if ha_is_target; then
	ha_wait_mark 600 lat-cluster ini
	run sh -c "echo 0 > $SCST/devices/$DEV/cluster_mode"
	ha_mark cluster-off
else
	ha_wait_mark 120 cluster-off t1 t2
	clear_ua "$SG_A1"
	read -r all net <<< "$(pr_latency "$SG_A1" 40)"
	log "PR OUT latency, cluster_mode 0: $all us per sg_persist, $net us more than a TEST UNIT READY's"
	log "PR OUT latency: cluster_mode 1 $(ha_fetch ini lat-cluster), cluster_mode 0 $all $net (us per command, us over TEST UNIT READY)"
	ha_srp_logout A1 A2 B1 B2
	ha_mark pr-done-all
fi
ha_wait_mark 600 pr-done-all ini

if ha_is_target; then
	dmesg | grep "$DEV: cluster:" | tail -n 20
	dlm_tool ls
fi
ha_barrier 300 checked
log "ha-pr: done on $VM_GUEST"
ha_finish 300
