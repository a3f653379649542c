# SPDX-License-Identifier: GPL-2.0-only
# The HA pair serving one shared disk over SRP (tests of several guests):
# on t1 and t2 a vdisk_blockio device in cluster_mode behind our SRP
# target on the data link to ini, ALUA groups naming both nodes' ports;
# on ini the logins to both. A test of the pair sources this file alone:
# it brings the helpers it builds on (the PR ones too). Use after
# ha_cluster_up.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh
. /tests/lib/pr.sh
. /tests/lib/ha.sh

# ha_srpt_up DEV BACKING: (a target) Soft-RoCE on the link to ini, our
# SRP target on it with relative target port identifier VM_NODEID (the
# two nodes' differ: SPC-4 §5.9.2 names an I_T nexus by its target
# port), DEV on BACKING in cluster_mode (t10_dev_id DEV) as LUN 0. Sets
# T (the target's directory). Publishes "tgt-name" (the target's name).
ha_srpt_up() {
	local dev=$1 backing=$2

	wait_for 60 "ping ini" ping -c 1 -W 2 "$(ha_data_ip ini "$VM_GUEST")"
	ha_rxe_up ini
	srpt_load
	run modprobe scst_cluster
	T=$(srpt_tgt "$HA_RXE")
	wait_for 10 "target of $HA_RXE" test -d "$T"
	run sh -c "echo $VM_NODEID > '$T/rel_tgt_id'"
	run sh -c "echo $HA_CLUSTER_NAME > $SCST/cluster_name"
	mgmt $SCST/handlers/vdisk_blockio/mgmt \
		"add_device $dev filename=$backing;t10_dev_id=$dev;cluster_mode=1"
	dmesg | grep "$dev: cluster:" | tail -n 3
	ha_mark tgt-name "${T##*/}"
}

# ha_shared_disk: (a target) the disk both targets share, /dev/vda
ha_shared_disk() {
	run modprobe virtio_blk
	wait_for 20 "the shared disk /dev/vda" test -b /dev/vda
}

# ha_target_up DEV BACKING [alua]: (a target) ha_srpt_up, both targets
# in the device's lockspace, with "alua" the device group of both nodes'
# ports (tg1, t1's, active/optimized; tg2, t2's, active/non-optimized, on
# both nodes), and the LUN served
ha_target_up() {
	ha_srpt_up "$1" "$2"
	wait_for 120 "both targets in lockspace scst-$1" ha_ls_members_are "scst-$1" "1 2"
	if [ "${3:-}" = alua ]; then
		if [ "$VM_GUEST" = t1 ]; then
			ha_alua_up "$1" t2 active nonoptimized
		else
			ha_alua_up "$1" t1 nonoptimized active
		fi
	fi
	ha_srpt_lun "$1"
}

# ha_srpt_lun DEV: LUN 0 of the target is DEV; the target serves, and
# says so to ini ("srp-ready", with its login's id_ext)
ha_srpt_lun() {
	mgmt "$T/luns/mgmt" "add $1 0"
	run sh -c "echo 1 > '$T/enabled'"
	ha_mark srp-ready "$(srpt_login_field "$T" tid_ext)"
}

# ha_alua_up DEV PEER STATE PEER_STATE: the device group "dg" of DEV,
# with target group tgN (group N) of each node N: this node's target
# (T) in its own, PEER's in the other as a remote port (its name and
# rel_tgt_id). Their states STATE and PEER_STATE, as every node sees
# them (Documentation/ha.md: the cluster manager sets both).
ha_alua_up() {
	local dev=$1 peer=$2 state=$3 peer_state=$4 pid pname dg=$SCST/device_groups/dg

	pid=$(ha_node_id "$peer")
	ha_wait_mark 120 tgt-name "$peer"
	pname=$(ha_fetch "$peer" tgt-name) || fail "no target name from $peer"
	mgmt $SCST/device_groups/mgmt "create dg"
	mgmt $dg/devices/mgmt "add $dev"
	mgmt $dg/target_groups/mgmt "create tg$VM_NODEID"
	mgmt $dg/target_groups/mgmt "create tg$pid"
	mgmt $dg/target_groups/tg$VM_NODEID/mgmt "add ${T##*/}"
	mgmt $dg/target_groups/tg$pid/mgmt "add $pname"
	run sh -c "echo $pid > '$dg/target_groups/tg$pid/$pname/rel_tgt_id'"
	run sh -c "echo $VM_NODEID > $dg/target_groups/tg$VM_NODEID/group_id"
	run sh -c "echo $pid > $dg/target_groups/tg$pid/group_id"
	run sh -c "echo $state > $dg/target_groups/tg$VM_NODEID/state"
	run sh -c "echo $peer_state > $dg/target_groups/tg$pid/state"
}

# ha_ini_links_up NODE...: (ini) the disk drivers, and Soft-RoCE on the
# data link to each NODE
ha_ini_links_up() {
	local t
	run modprobe -a sd_mod sg
	for t in "$@"; do
		wait_for 60 "ping $t" ping -c 1 -W 2 "$(ha_data_ip "$t" ini)"
		ha_rxe_up "$t"
	done
}

# ha_srp_login NODE [INITIATOR_EXT [NAME]]: (ini) logs in to NODE's
# target (initiator_ext: ib_srp's, which makes another SRP initiator
# port); sets SG_NAME, SD_NAME and RPORT_NAME (NAME: NODE by default),
# with the LUN's unit attentions cleared
ha_srp_login() {
	local node=$1 ext=${2:-} name=${3:-$1} id

	ha_wait_mark 300 srp-ready "$node"
	id=$(ha_fetch "$node" srp-ready) || fail "no login data from $node"
	SRP_INITIATOR_DEV=rxe$(ha_link_subnet ini "$node")
	SRP_DEST_IP=$(ha_data_ip "$node" ini)
	SRP_SRC_IP=$(ha_data_ip ini "$node")
	srp_login "$id" "$id" "${ext:+initiator_ext=$ext}"
	srpt_wait_lun 0
	eval "SG_$name=$(lun_sg "$SRP_HOST" 0)"
	eval "SD_$name=$(srpt_lun_disk 0)"
	eval "RPORT_$name=$SRP_RPORT"
	clear_ua "$(lun_sg "$SRP_HOST" 0)"
}

# ha_srp_login_two_hosts: (ini) hosts A and B (initiator_ext 0xa and
# 0xb, two SRP initiator ports of each RDMA port) each log in through
# both nodes: the nexuses A1 A2 B1 B2 (host, node), as ha_srp_login sets
ha_srp_login_two_hosts() {
	local h ext
	for h in A B; do
		ext=$(echo $h | tr AB ab)
		ha_srp_login t1 "$ext" ${h}1
		ha_srp_login t2 "$ext" ${h}2
	done
}

# ha_two_hosts_reserved: (ini) ha_srp_login_two_hosts; A and B register
# (0xa, 0xb) through both nodes, A reserves Write Exclusive - Registrants
# Only through t1; the reservation is seen through t2 and every
# registrant's write is admitted
ha_two_hosts_reserved() {
	local n sg

	ha_srp_login_two_hosts
	for n in A1 A2; do eval "prout \$SG_$n --register --param-sark=0xa"; done
	for n in B1 B2; do eval "prout \$SG_$n --register --param-sark=0xb"; done
	prout "$SG_A1" --reserve --param-rk=0xa --prout-type=5
	assert_eq "$(resv "$SG_B2")" "0xa Write Exclusive, registrants only" "reservation through t2"
	for n in A1 A2 B1 B2; do
		eval "sg=\$SG_$n"
		assert_eq "$(io "$sg" write)" good "a registrant's write through $n"
	done
}

# ha_srp_logout NAME...: (ini) logs out of the logins named so
ha_srp_logout() {
	local name
	for name in "$@"; do
		eval "SRP_RPORT=\$RPORT_$name"
		SRP_HOST=${SRP_RPORT#port-}
		SRP_HOST=${SRP_HOST%%:*}
		srp_logout
	done
}
