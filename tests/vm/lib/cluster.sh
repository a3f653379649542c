# SPDX-License-Identifier: GPL-2.0-only
# Guest-side bring-up of a cluster node for cluster_mode: corosync 3
# (knet) and dlm_controld from Debian's packages, on one address of the
# guest (Documentation/ha.md). Requires common.sh; the test's .tools file
# lists corosync, corosync-quorumtool, dlm_controld and dlm_tool, and its
# .modules file dlm.

CLUSTER_NAME=${CLUSTER_NAME:-scsttest}

# cluster_conf "ID ADDR"...: /etc/corosync/corosync.conf for these
# nodes. A token of 5 s: guests under TCG stall for longer than the
# default's second. Crypto off: the link is this host's loopback.
cluster_conf() {
	local n
	mkdir -p /etc/corosync /var/lib/corosync /var/log/corosync
	{
		printf 'totem {\n\tversion: 2\n\tcluster_name: %s\n' "$CLUSTER_NAME"
		printf '\ttransport: knet\n\tcrypto_cipher: none\n\tcrypto_hash: none\n'
		printf '\ttoken: 5000\n}\nnodelist {\n'
		for n in "$@"; do
			set -- $n
			printf '\tnode {\n\t\tname: n%s\n\t\tnodeid: %s\n\t\tring0_addr: %s\n\t}\n' \
				"$1" "$1" "$2"
		done
		printf '}\nquorum {\n\tprovider: corosync_votequorum\n}\n'
		printf 'logging {\n\tto_stderr: yes\n\tto_syslog: no\n\ttimestamp: on\n}\n'
	} > /etc/corosync/corosync.conf
}

# cluster_wait SECONDS WHAT CMD...: as wait_for, with the daemons' logs
# when it times out
cluster_wait() {
	local secs=$1 what=$2
	shift 2
	poll "$secs" "$@" && return 0
	cluster_logs
	fail "timed out after ${secs}s waiting for $what"
}

# cluster_start: corosync, then dlm_controld once the node is quorate.
# Fencing off: there is no fence daemon in the guests (ha.md says what
# that means and what a production cluster runs instead).
cluster_start() {
	# the daemons' lock and pid files are under /var/run
	[ -e /var/run ] || ln -s /run /var/run
	log "+ corosync -f"
	corosync -f > /tmp/corosync.log 2>&1 &
	cluster_wait 60 "corosync quorate" sh -c \
		'corosync-quorumtool -s 2>/dev/null | grep -q "Quorate: *Yes"'
	run modprobe dlm
	# dlm_controld opens /dev/misc/dlm-*, which udev would link
	mkdir -p /dev/misc /etc/dlm /run/dlm_controld /var/log/dlm_controld
	for d in dlm-control dlm-monitor dlm_plock; do
		[ -e /dev/$d ] && ln -sf /dev/$d /dev/misc/$d
	done
	printf 'protocol=tcp\nenable_fencing=0\nenable_startup_fencing=0\n' \
		> /etc/dlm/dlm.conf
	log "+ dlm_controld --foreground"
	dlm_controld --foreground > /tmp/dlm_controld.log 2>&1 &
	cluster_wait 60 "dlm_controld" sh -c 'dlm_tool status > /dev/null 2>&1'
	log "cluster: $(corosync-quorumtool -s | grep -E 'Quorate|Nodes:' | tr -s ' \n' ' ')"
}

# cluster_stop: dlm_controld and corosync, in that order
cluster_stop() {
	pkill -x dlm_controld
	wait_for 30 "dlm_controld gone" sh -c '! pgrep -x dlm_controld > /dev/null'
	pkill -x corosync
	wait_for 30 "corosync gone" sh -c '! pgrep -x corosync > /dev/null'
}

# cluster_logs: what the daemons said, for a failing test's log
cluster_logs() {
	sed 's/^/corosync: /' /tmp/corosync.log 2>/dev/null | tail -n 40
	sed 's/^/dlm_controld: /' /tmp/dlm_controld.log 2>/dev/null | tail -n 40
}

# lockspaces: the DLM lockspaces this node is in, one a line
lockspaces() {
	dlm_tool ls 2>/dev/null | sed -n 's/^name *//p'
}
