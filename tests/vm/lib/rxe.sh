# SPDX-License-Identifier: GPL-2.0-only
# Soft-RoCE (rdma_rxe) on a veth pair. ../shared/notes/vm-recipe.md has the
# background: with one rxe device packets loop back inside rxe; with two,
# policy routing forces them over the veth wire.

RXE_TARGET_IP=10.0.0.1
RXE_INITIATOR_IP=10.0.0.2

rxe_veth_up() {
	run modprobe -a veth rdma_rxe ib_uverbs rdma_ucm ib_umad sd_mod sg
	run ip link add veth0 type veth peer name veth1
	run ip addr add "$RXE_TARGET_IP/24" dev veth0
	run ip addr add "$RXE_INITIATOR_IP/24" dev veth1
	run ip link set veth0 up
	run ip link set veth1 up
}

# rxe_port_active DEV: port 1 of the RDMA device is ACTIVE.
rxe_port_active() {
	grep -q ACTIVE "/sys/class/infiniband/$1/ports/1/state"
}

# rxe_setup_one: one rxe device (rxe0 on veth0); initiator and target share
# it and dial $RXE_TARGET_IP.
rxe_setup_one() {
	rxe_veth_up
	run rdma link add rxe0 type rxe netdev veth0
	wait_for 10 "rxe0 port ACTIVE" rxe_port_active rxe0
	SRP_INITIATOR_DEV=rxe0
	SRP_DEST_IP=$RXE_TARGET_IP
	SRP_SRC_IP=
}

# rxe_setup_two: rxe0 on veth0 (target side, $RXE_TARGET_IP) and rxe1 on
# veth1 (initiator side, $RXE_INITIATOR_IP), with routing that sends the
# traffic between the two local addresses over the veth wire.
rxe_setup_two() {
	local mac0 mac1 i

	rxe_veth_up
	for i in all veth0 veth1; do
		echo 1 > "/proc/sys/net/ipv4/conf/$i/accept_local"
		echo 0 > "/proc/sys/net/ipv4/conf/$i/rp_filter"
	done
	run ip rule add pref 10 iif lo from "$RXE_TARGET_IP" to "$RXE_INITIATOR_IP" lookup 100
	run ip rule add pref 11 iif lo from "$RXE_INITIATOR_IP" to "$RXE_TARGET_IP" lookup 101
	run ip rule add pref 20 lookup local
	run ip rule del pref 0
	run ip route add "$RXE_INITIATOR_IP" dev veth0 src "$RXE_TARGET_IP" table 100
	run ip route add "$RXE_TARGET_IP" dev veth1 src "$RXE_INITIATOR_IP" table 101
	mac0=$(cat /sys/class/net/veth0/address)
	mac1=$(cat /sys/class/net/veth1/address)
	run ip neigh replace "$RXE_INITIATOR_IP" lladdr "$mac1" dev veth0 nud permanent
	run ip neigh replace "$RXE_TARGET_IP" lladdr "$mac0" dev veth1 nud permanent
	run rdma link add rxe0 type rxe netdev veth0
	run rdma link add rxe1 type rxe netdev veth1
	wait_for 10 "rxe0 port ACTIVE" rxe_port_active rxe0
	wait_for 10 "rxe1 port ACTIVE" rxe_port_active rxe1
	SRP_INITIATOR_DEV=rxe1
	SRP_DEST_IP=$RXE_TARGET_IP
	SRP_SRC_IP=$RXE_INITIATOR_IP
}

# rxe_port_gid DEV: GID 0 of port 1, "fe80:0000:0000:0000:xxxx:...".
rxe_port_gid() {
	cat "/sys/class/infiniband/$1/ports/1/gids/0"
}

# rxe_node_guid_hex DEV: node GUID as 16 hex digits without colons.
rxe_node_guid_hex() {
	tr -d ':' < "/sys/class/infiniband/$1/node_guid"
}
