# SPDX-License-Identifier: GPL-2.0-only
# Helpers for our SRP target, scst_srpt (target driver "ib_srpt"). Requires
# scst.sh, rxe.sh and srp.sh.

SRPT=$SCST/targets/ib_srpt

# srpt_load [MODULE-PARAMS...]: load the core, vdisk and scst_srpt with an
# RDMA/CM listener on $SRP_PORT.
srpt_load() {
	run modprobe scst
	run modprobe scst_vdisk
	run modprobe scst_srpt rdma_cm_port="$SRP_PORT" "$@"
}

# srpt_target_up RXE-SETUP [MODULE-PARAMS...]: Soft-RoCE by RXE-SETUP
# (rxe_setup_one or rxe_setup_two) and scst_srpt loaded with its target on
# rxe0 port 1. Sets T (that target's directory) and id (its tid_ext).
srpt_target_up() {
	"$1"
	shift
	srpt_load "$@"
	T=$(srpt_tgt rxe0)
	wait_for 10 "target of rxe0" test -d "$T"
	id=$(srpt_login_field "$T" tid_ext)
}

# srpt_tgt DEV: the target directory of port 1 of an RDMA device.
srpt_tgt() {
	echo "$SRPT/$(rxe_port_gid "$1")"
}

# srpt_login_field TGT KEY: one key=value field of a target's login_info.
srpt_login_field() {
	tr ',' '\n' < "$1/login_info" | sed -n "s/^$2=//p"
}

# srpt_sessions TGT: the session names of a target, one a line.
srpt_sessions() {
	local s
	for s in "$1"/sessions/*; do
		[ -d "$s" ] && echo "${s##*/}"
	done
}

srpt_nr_sessions() {
	srpt_sessions "$1" | wc -l
}

# srpt_has_sessions TGT N: the target has N sessions.
srpt_has_sessions() {
	[ "$(srpt_nr_sessions "$1")" -eq "$2" ]
}

# srpt_wait_sessions TGT N: wait until the target has N sessions.
srpt_wait_sessions() {
	wait_for 60 "$2 session(s) on ${1##*/}" srpt_has_sessions "$1" "$2"
}

# srpt_login_fails ID_EXT IOC_GUID: an SRP login must be refused (quickly).
srpt_login_fails() {
	local spec="id_ext=$1,ioc_guid=$2,dest=$SRP_DEST_IP:$SRP_PORT"

	[ -n "$SRP_SRC_IP" ] && spec+=",src=$SRP_SRC_IP"
	module_loaded ib_srp || run modprobe ib_srp
	wait_for 10 "ib_srp port for $SRP_INITIATOR_DEV" test -e "$(srp_initiator_sysfs)/add_target"
	log "+ add_target $spec (must fail)"
	if echo "$spec" > "$(srp_initiator_sysfs)/add_target" 2>/dev/null; then
		fail "SRP login ($spec) accepted but should have been refused"
	fi
}

# srpt_hcil_disk LUN: /dev/sdX of a LUN of the SRP SCSI host $SRP_HOST.
srpt_lun_disk() {
	lun_disk "$SRP_HOST" "$1"
}

srpt_lun_ready() {
	local d
	d=$(srpt_lun_disk "$1") && [ -b "$d" ]
}

# srpt_wait_lun LUN: wait for a LUN's disk node on $SRP_HOST.
srpt_wait_lun() {
	wait_for 30 "LUN $1 of SRP host $SRP_HOST" srpt_lun_ready "$1"
}

# srpt_clear_ua_all_channels SG: consume the unit attentions of a LUN on
# every channel: ib_srp maps each CPU to a channel of its own (blk-mq), so
# TEST UNIT READY from each CPU until it succeeds.
srpt_clear_ua_all_channels() {
	local cpu i
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		for i in 1 2 3 4 5; do
			taskset -c "$cpu" sg_turs "$1" > /dev/null 2>&1 && break
		done
	done
}

# ua_retry CMD...: run an sg3_utils command, again while it fails with a
# UNIT ATTENTION: each RDMA channel is an I_T nexus of its own, with its
# own POWER ON OCCURRED, and the command may go through any of them.
ua_retry() {
	local out i
	for i in 1 2 3 4 5 6; do
		out=$("$@" 2>&1) && { echo "$out"; return 0; }
		grep -qi 'unit attention' <<< "$out" || break
	done
	echo "$out"
	return 1
}
