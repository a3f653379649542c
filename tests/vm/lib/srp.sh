# SPDX-License-Identifier: GPL-2.0-only
# The Linux SRP initiator (ib_srp) logging in over RDMA/CM. Requires
# rxe.sh's setup, which sets SRP_INITIATOR_DEV, SRP_DEST_IP, SRP_SRC_IP.

SRP_PORT=${SRP_PORT:-5555}

srp_initiator_sysfs() {
	echo "/sys/class/infiniband_srp/srp-$SRP_INITIATOR_DEV-1"
}

# srp_remote_ports: names of the SRP remote ports (one per logged-in target).
srp_remote_ports() {
	ls /sys/class/srp_remote_ports 2>/dev/null
}

# srp_login ID_EXT IOC_GUID [OPTIONS]: log in to the target at
# $SRP_DEST_IP:$SRP_PORT. OPTIONS are extra add_target options such as
# "queue_size=128,max_cmd_per_lun=128". Sets SRP_HOST (SCSI host number)
# and SRP_RPORT (remote port name). SRP_LOGIN_TRIES (default 1): attempts,
# 0.2 s apart, before a refused login fails the test.
srp_login() {
	local id_ext=$1 ioc_guid=$2 opts=${3:-} before after p spec

	module_loaded ib_srp || run modprobe ib_srp
	wait_for 10 "ib_srp port for $SRP_INITIATOR_DEV" test -e "$(srp_initiator_sysfs)/add_target"
	spec="id_ext=$id_ext,ioc_guid=$ioc_guid,dest=$SRP_DEST_IP:$SRP_PORT"
	[ -n "$SRP_SRC_IP" ] && spec+=",src=$SRP_SRC_IP"
	[ -n "$opts" ] && spec+=",$opts"
	before=$(srp_remote_ports)
	log "+ add_target $spec"
	# ib_srp keeps a logged-out target on its list a moment after its
	# SCSI host went, and refuses a new login to it meanwhile (EEXIST)
	local try
	for try in $(seq 1 "${SRP_LOGIN_TRIES:-1}"); do
		echo "$spec" > "$(srp_initiator_sysfs)/add_target" 2>/dev/null && break
		[ "$try" = "${SRP_LOGIN_TRIES:-1}" ] && fail "SRP login ($spec) rejected"
		sleep 0.2
	done
	after=$(srp_remote_ports)
	SRP_RPORT=
	for p in $after; do
		grep -qx "$p" <<< "$before" || SRP_RPORT=$p
	done
	[ -n "$SRP_RPORT" ] || fail "no new SRP remote port after login"
	SRP_HOST=${SRP_RPORT#port-}
	SRP_HOST=${SRP_HOST%%:*}
	log "logged in: $SRP_RPORT (SCSI host $SRP_HOST)"
}

# srp_disks: block devices (sdX) of the LUNs of SCSI host $SRP_HOST.
srp_disks() {
	local d
	for d in /sys/class/scsi_host/host"$SRP_HOST"/device/target*/*/block/*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}

srp_has_disks() {
	local n=${1:-1}
	[ "$(srp_disks | wc -l)" -ge "$n" ]
}

# srp_wait_disks [N]: wait until N (default 1) disks appear; sets SRP_DISK
# to the first one (/dev/sdX).
srp_wait_disks() {
	local n=${1:-1}
	wait_for 30 "$n SRP disk(s) on host $SRP_HOST" srp_has_disks "$n"
	SRP_DISK=/dev/$(srp_disks | head -n 1)
	wait_for 10 "$SRP_DISK node" test -b "$SRP_DISK"
	log "SRP disks: $(srp_disks | tr '\n' ' ')"
}

# srp_logout: delete the remote port of the last login and wait until its
# SCSI host is gone.
srp_logout() {
	[ -n "${SRP_RPORT:-}" ] || return 0
	run sh -c "echo 1 > /sys/class/srp_remote_ports/$SRP_RPORT/delete"
	wait_for 30 "SCSI host $SRP_HOST to go" test ! -e "/sys/class/scsi_host/host$SRP_HOST"
	SRP_RPORT=
}
