# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the tests of several guests (scripts/vm/multi): who this
# guest is, its networks, flags the guests exchange, requests to the host
# (network faults, a guest's death), corosync 3 and dlm_controld. Source
# common.sh first.
#
# scripts/vm/multi puts on the kernel command line (and so in the
# environment): VM_GUEST (t1, t2, ini), VM_NODEID (1, 2, 3), VM_NODES
# ("t1:1,t2:2,ini:3") and VM_LINKS ("78:t1-ini,79:t2-ini": the data links,
# by subnet). The cluster NIC (MAC 52:54:00:77:00:<id>) becomes "clu" with
# 192.168.77.<id>; a data link's NIC (MAC 52:54:00:<subnet>:00:<id>)
# becomes "d<subnet>" with 192.168.<subnet>.<id>.

HA_CLUSTER_NET=77
HA_CLUSTER_NAME=scsttest
HA_FLAG_PORT=8077
HA_FLAGS=/run/ha-flags
# corosync's totem token: TCG guests on a busy two-CPU host stall for
# seconds; the default 1 s (+650 ms a node beyond two) gives false token
# losses there
HA_TOKEN=${HA_TOKEN:-5000}
# dlm_controld's pid, while it runs here (ha_dlm_up)
HA_DLM_PID=

# ha_node_id NAME: the node id of a guest.
ha_node_id() {
	local e

	for e in ${VM_NODES//,/ }; do
		[ "${e%%:*}" = "$1" ] && { echo "${e#*:}"; return 0; }
	done
	return 1
}

# ha_guests: the names of all guests, one a line.
ha_guests() {
	local e

	for e in ${VM_NODES//,/ }; do
		echo "${e%%:*}"
	done
}

# ha_peers: the other guests.
ha_peers() {
	ha_guests | grep -vx "$VM_GUEST"
}

# ha_is_target: this guest is a target node (t1, t2...), not the initiator.
ha_is_target() {
	[[ $VM_GUEST == t[0-9]* ]]
}

# ha_cluster_ip NAME: a guest's address on the cluster segment.
ha_cluster_ip() {
	echo "192.168.$HA_CLUSTER_NET.$(ha_node_id "$1")"
}

# ha_link_subnet A B: the subnet of the data link between A and B; fails
# if there is none.
ha_link_subnet() {
	local e ends

	for e in ${VM_LINKS//,/ }; do
		ends=${e#*:}
		if [ "$ends" = "$1-$2" ] || [ "$ends" = "$2-$1" ]; then
			echo "${e%%:*}"
			return 0
		fi
	done
	return 1
}

# ha_data_nic PEER: this guest's NIC on the data link to PEER.
ha_data_nic() {
	echo "d$(ha_link_subnet "$VM_GUEST" "$1")"
}

# ha_data_ip NAME PEER: NAME's address on the data link between NAME and
# PEER.
ha_data_ip() {
	echo "192.168.$(ha_link_subnet "$1" "$2").$(ha_node_id "$1")"
}

# ha_nics_expected: how many NICs this guest has: the cluster one and one
# per data link it is an end of.
ha_nics_expected() {
	local e n=1 ends

	for e in ${VM_LINKS//,/ }; do
		ends=${e#*:}
		case "-$ends-" in *"-$VM_GUEST-"*) n=$((n + 1)) ;; esac
	done
	echo "$n"
}

ha_nic_count() {
	[ "$(ls -d /sys/class/net/eth* 2>/dev/null | wc -l)" -ge "$1" ]
}

# ha_net_up: names and addresses the NICs by their MACs, and serves this
# guest's flags (ha_mark) over HTTP on every address.
ha_net_up() {
	local want dev mac sub name

	run modprobe -a virtio_pci virtio_net
	want=$(ha_nics_expected)
	wait_for 30 "$want NICs" ha_nic_count "$want"
	for dev in /sys/class/net/eth*; do
		dev=${dev##*/}
		mac=$(cat "/sys/class/net/$dev/address")
		case $mac in
		52:54:00:??:00:*) sub=${mac:9:2} ;;
		*) fail "NIC $dev has a MAC multi does not give: $mac" ;;
		esac
		if [ "$sub" = "$HA_CLUSTER_NET" ]; then
			name=clu
		else
			name=d$sub
		fi
		run ip link set "$dev" name "$name"
		run ip addr add "192.168.$sub.$VM_NODEID/24" dev "$name"
		run ip link set "$name" up
	done
	ip -br addr
	mkdir -p "$HA_FLAGS"
	run httpd -p "$HA_FLAG_PORT" -h "$HA_FLAGS"
}

# ha_mark NAME [VALUE]: publishes the flag NAME (with VALUE) to the other
# guests.
ha_mark() {
	echo "${2:-}" > "$HA_FLAGS/$1.tmp"
	mv "$HA_FLAGS/$1.tmp" "$HA_FLAGS/$1"
}

# ha_fetch PEER NAME: prints PEER's flag NAME; fails if PEER has not set
# it or cannot be reached. Over the cluster segment, else over a data link
# to PEER (the cluster segment may be cut on purpose).
ha_fetch() {
	local ip

	for ip in "$(ha_cluster_ip "$1")" \
		  "$(ha_link_subnet "$VM_GUEST" "$1" > /dev/null &&
		     ha_data_ip "$1" "$VM_GUEST")"; do
		[ -n "$ip" ] || continue
		# busybox's wget has no timeout of its own
		timeout -k 1 4 wget -q -O - "http://$ip:$HA_FLAG_PORT/$2" 2> /dev/null &&
			return 0
	done
	return 1
}

ha_fetch_q() {
	ha_fetch "$@" > /dev/null
}

# ha_wait_mark SECONDS NAME PEER...: waits until every PEER has set NAME.
# (Not wait_for: a try at a peer out of reach takes seconds, and the
# limit is in seconds of the clock.)
ha_wait_mark() {
	local end=$((SECONDS + $1)) name=$2 p
	shift 2

	for p in "$@"; do
		until ha_fetch_q "$p" "$name"; do
			[ "$SECONDS" -lt "$end" ] ||
				fail "timed out waiting for $p at '$name'"
			sleep 0.5
		done
	done
}

# ha_barrier SECONDS NAME [PEER...]: sets NAME and waits until the PEERs
# (default: all the others) have too.
ha_barrier() {
	local secs=$1 name=$2
	shift 2

	[ $# -gt 0 ] || set -- $(ha_peers)
	log "barrier '$name' with $*"
	ha_mark "$name"
	ha_wait_mark "$secs" "$name" "$@"
	ha_mark "$name.passed"
}

# ha_wait_passed SECONDS NAME PEER...: waits until every PEER has passed
# the barrier NAME. The guest that breaks the network next must: a peer
# may still be reading the flag of a guest the fault cuts it off from.
ha_wait_passed() {
	local secs=$1 name=$2
	shift 2

	ha_wait_mark "$secs" "$name.passed" "$@"
}

# ha_peer_gone PEER: PEER answers no ping on the cluster segment.
ha_peer_gone() {
	! ping -c 1 -W 2 "$(ha_cluster_ip "$1")" > /dev/null 2>&1
}

# ha_finish SECONDS: the last barrier of a test: keeps this guest (and
# its vote) up until every peer is done too. A barrier cannot end it: the
# first guest to see all flags would power off before the others have
# read its own, so a peer that no longer answers at all counts as done.
ha_finish() {
	local end=$((SECONDS + $1)) p

	log "finishing: waiting for $(ha_peers | xargs)"
	ha_mark finished
	for p in $(ha_peers); do
		until ha_fetch_q "$p" finished || ha_peer_gone "$p"; do
			[ "$SECONDS" -lt "$end" ] ||
				fail "timed out waiting for $p to finish"
			sleep 0.5
		done
	done
}

# ha_hub COMMAND: asks the host to change the cluster segment (cut A B,
# heal A B, isolate A, rejoin A, heal-all: scripts/vm/udp-hub). The host
# reads the request from the console within a second; the caller waits
# for its effect.
ha_hub() {
	log "asking the hub: $*"
	echo "SCST-VM-HUB: $*"
}

# ha_host_kill GUEST: asks the host to kill GUEST's QEMU (a power cut).
ha_host_kill() {
	log "asking the host to kill $1"
	echo "SCST-VM-HOST: kill $1"
}

# ha_host_boot GUEST: asks the host to boot a guest it killed again (its
# test then runs with VM_LIFE=2)
ha_host_boot() {
	log "asking the host to boot $1 again"
	echo "SCST-VM-HOST: boot $1"
}

# --- corosync 3 -------------------------------------------------------------

# ha_corosync_conf: /etc/corosync/corosync.conf for all guests as voters:
# knet (unicast UDP 5405), no crypto (the segment is private, and TCG is
# slow enough), the long token above, and no realtime priority: a node
# cut off from its peers kept its one vCPU so busy at SCHED_RR that the
# test on it stalled for minutes.
ha_corosync_conf() {
	local g

	mkdir -p /etc/corosync
	{
		cat <<-EOF
		totem {
		    version: 2
		    cluster_name: $HA_CLUSTER_NAME
		    transport: knet
		    crypto_cipher: none
		    crypto_hash: none
		    token: $HA_TOKEN
		}
		quorum {
		    provider: corosync_votequorum
		}
		system {
		    sched_rr: no
		    priority: 0
		}
		logging {
		    to_stderr: yes
		    to_syslog: no
		    to_logfile: no
		    timestamp: on
		}
		nodelist {
		EOF
		for g in $(ha_guests); do
			cat <<-EOF
			    node {
			        name: $g
			        nodeid: $(ha_node_id "$g")
			        ring0_addr: $(ha_cluster_ip "$g")
			    }
			EOF
		done
		echo "}"
	} > /etc/corosync/corosync.conf
}

# ha_view: one line on corosync's view from here: "nodes=N quorate=yes|no
# members=ID ID...", or "no answer" when corosync does not answer within
# 10 s (killed 2 s later if it ignores SIGTERM): while it forms a
# membership it answers no client (seen on a node
# cut off from one peer but not the other: it tries to join for ever).
ha_view() {
	local out rc

	out=$(timeout -k 2 10 corosync-quorumtool -s 2> /dev/null)
	rc=$?
	if [ "$rc" -ge 124 ] || [ -z "$out" ]; then
		echo "no answer (corosync-quorumtool exit $rc)"
		return 0
	fi
	echo "$out" | awk '
		/^Nodes:/ { n = $2 }
		/^Quorate:/ { q = tolower($2) }
		/^ *Nodeid/ { m = 1; next }
		m && $1 ~ /^[0-9]+$/ { ids = ids " " $1 }
		END { printf "nodes=%s quorate=%s members=%s\n", n, q, substr(ids, 2) }'
}

# ha_view_is NODES QUORATE: corosync sees NODES nodes, quorate yes or no.
ha_view_is() {
	local v

	v=$(ha_view)
	[[ $v == "nodes=$1 quorate=$2 "* ]]
}

# ha_wait_view SECONDS NODES QUORATE: waits until ha_view_is NODES
# QUORATE (by the clock: a try may take 10 s).
ha_wait_view() {
	local end=$((SECONDS + $1))

	until ha_view_is "$2" "$3"; do
		[ "$SECONDS" -lt "$end" ] ||
			fail "timed out after $1 s waiting for corosync: nodes=$2 quorate=$3 (now: $(ha_view))"
		sleep 1
	done
}

ha_quorate() {
	timeout -k 2 10 corosync-quorumtool -s > /dev/null 2>&1
}

# ha_corosync_up: starts corosync (foreground process, log in
# /tmp/corosync.log) and waits until it runs.
ha_corosync_up() {
	mkdir -p /var/lib/corosync /var/log/corosync /etc/corosync
	[ -e /var/run ] || ln -s /run /var/run
	ha_corosync_conf
	log "starting corosync"
	corosync -f > /tmp/corosync.log 2>&1 &
	HA_COROSYNC_PID=$!
	wait_for 60 "corosync to answer" corosync-cfgtool -s
}

# ha_corosync_revive: when this node's corosync is gone (killed through
# corosync's cfg by a peer's dlm_controld, "Killed by node N:
# dlm_controld", which takes this dlm_controld with it), starts it again,
# as an operator would restart the node's cluster stack; its DLM stays
# down (HA_DLM_PID empty). Returns 0 if it had to.
ha_corosync_revive() {
	[ -n "$HA_DLM_PID" ] && ! kill -0 "$HA_DLM_PID" 2> /dev/null && HA_DLM_PID=
	kill -0 "$HA_COROSYNC_PID" 2> /dev/null && return 1
	log "corosync is gone: $(grep -E 'Killed by|exiting' /tmp/corosync.log | tail -n 2 | tr '\n' ' ')"
	mv /tmp/corosync.log /tmp/corosync.log.1
	ha_corosync_up
	return 0
}

# --- dlm_controld -----------------------------------------------------------

# ha_fence_agent_up: /run/ha-fence-vm, dlm_controld's fence agent in
# the guests (HA_FENCE=1): the host's power switch. dlm_controld writes
# the agent's arguments on its standard input, one key=value a line,
# node=ID among them; the agent asks the host on the console to kill
# that guest (scripts/vm/multi carries out "SCST-VM-HOST: kill NAME"
# within a second, polling every 0.5 s), publishes the flag "fenced"
# (NAME) and reports success 5 s later: a switch that does not answer.
# Its own output goes nowhere (dlm_controld's /dev/null), hence
# /dev/console.
ha_fence_agent_up() {
	cat > /run/ha-fence-vm <<-'EOF'
	#!/bin/sh
	id=
	while read -r line; do
	    case $line in node=*) id=${line#node=} ;; esac
	done
	nodes=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^VM_NODES=//p')
	name=$(echo "$nodes" | tr ',' '\n' | awk -F: -v id="$id" '$2 == id { print $1 }')
	[ -n "$name" ] || exit 1
	# twice: a kernel message may break the first line on the console
	# (the host ignores a kill of a guest already dead)
	echo "SCST-VM-HOST: kill $name" > /dev/console
	sleep 1
	echo "SCST-VM-HOST: kill $name" > /dev/console
	echo "[fence agent] asked the host to kill $name (node $id)" > /dev/console
	echo "$name" > /run/ha-flags/fenced.tmp && mv /run/ha-flags/fenced.tmp /run/ha-flags/fenced
	sleep 5
	exit 0
	EOF
	chmod 755 /run/ha-fence-vm
}

# ha_dlm_up: the kernel DLM and dlm_controld over TCP (protocol "detect"
# may pick SCTP). Without fencing (no stonith in the guests: our target
# must fail closed by itself), or with HA_FENCE=1 fencing every failed
# node through the host (ha_fence_agent_up), as a cluster of real
# machines with a power switch would.
ha_dlm_up() {
	local d

	mkdir -p /etc/dlm /var/log/dlm_controld /run/dlm_controld
	if [ "${HA_FENCE:-0}" = 1 ]; then
		ha_fence_agent_up
		cat > /etc/dlm/dlm.conf <<-EOF
		protocol=tcp
		enable_fencing=1
		enable_startup_fencing=0
		fence_all /run/ha-fence-vm
		EOF
	else
		cat > /etc/dlm/dlm.conf <<-EOF
		protocol=tcp
		enable_fencing=0
		enable_startup_fencing=0
		EOF
	fi
	run modprobe dlm
	grep -q ' /sys/kernel/config ' /proc/mounts ||
		run mount -t configfs configfs /sys/kernel/config
	# dlm_controld and libdlm open /dev/misc/dlm-control, -monitor,
	# dlm_plock and, for each lockspace a process joins, dlm_<name>;
	# devtmpfs makes them all in /dev (udev would make the links in
	# /dev/misc): /dev/misc is /dev
	[ -e /dev/misc ] || run ln -s /dev /dev/misc
	for d in dlm-control dlm-monitor dlm_plock; do
		[ -c "/dev/misc/$d" ] || fail "no /dev/misc/$d"
	done
	log "starting dlm_controld"
	dlm_controld --foreground > /tmp/dlm_controld.log 2>&1 &
	HA_DLM_PID=$!
	wait_for 60 "dlm_controld, quorate" ha_dlm_quorate
}

# ha_dlm_quorate: dlm_controld answers and has corosync's quorum.
ha_dlm_quorate() {
	dlm_tool status 2> /dev/null | grep_q '^cluster nodeid [1-9][0-9]* quorate 1 '
}

# ha_dlm_kill: kills dlm_controld (SIGKILL: with a lockspace it ignores
# SIGTERM); the kernel keeps the lockspace, abandoned.
ha_dlm_kill() {
	log "killing dlm_controld"
	kill -KILL "$HA_DLM_PID"
	wait "$HA_DLM_PID" 2> /dev/null
	HA_DLM_PID=
}

# ha_ls_members LOCKSPACE: the node ids dlm_controld has in LOCKSPACE.
ha_ls_members() {
	dlm_tool ls 2> /dev/null | awk -v ls="$1" '
		$1 == "name" { cur = $2 }
		$1 == "members" && cur == ls { $1 = ""; print substr($0, 2) }'
}

# ha_ls_members_are LOCKSPACE IDS: LOCKSPACE's members are IDS ("1 2").
ha_ls_members_are() {
	[ "$(ha_ls_members "$1" | xargs)" = "$2" ]
}

# ha_cpu_top [N]: the N (5) processes that used the most CPU since boot,
# and the time the CPU spent in softirq: what a stalled guest was busy
# with.
ha_cpu_top() {
	local f

	for f in /proc/[0-9]*/stat; do
		cat "$f" 2> /dev/null
	done | awk '{ for (i = 2; i <= NF && $i !~ /\)$/; i++); t = $(i + 12) + $(i + 13)
		      print t, $1, $2 }' | sort -rn | head -n "${1:-5}" |
		awk '{ printf "%s %s %.1f s; ", $3, $2, $1 / 100 }'
	awk '/^cpu / { printf "softirq %.1f s, irq %.1f s\n", $8 / 100, $7 / 100 }' /proc/stat
}

# ha_logs: corosync's and dlm_controld's logs, for a failed test.
ha_logs() {
	local f

	for f in /tmp/corosync.log /tmp/dlm_controld.log; do
		[ -s "$f" ] || continue
		echo "---- $f (last 60 lines) ----"
		tail -n 60 "$f"
	done
	echo "---- corosync view: $(ha_view)"
	command -v dlm_tool > /dev/null && dlm_tool ls 2>&1
}

ha_on_exit() {
	local rc=$?

	[ "$rc" = 0 ] || ha_logs
	return "$rc"
}

# ha_cluster_up: networks, corosync on every guest, dlm_controld on the
# targets; returns when this guest's corosync is quorate with all guests
# (every guest calls it). Prints SCST-VM-READY, which scripts/vm/multi
# times.
ha_cluster_up() {
	local n

	trap ha_on_exit EXIT
	ha_net_up
	ha_corosync_up
	n=$(ha_guests | wc -l)
	ha_wait_view 300 "$n" yes
	log "corosync: $(ha_view)"
	if ha_is_target; then
		ha_dlm_up
		log "dlm: $(dlm_tool status 2>&1 | head -n 3 | tr '\n' ' ')"
	fi
	echo "SCST-VM-READY: $VM_GUEST at $(cut -d' ' -f1 /proc/uptime) s of uptime"
}

# --- Soft-RoCE on a data link -------------------------------------------------

# ha_rxe_up PEER: an rxe device on the data link to PEER, named
# rxe<subnet> (set in HA_RXE); waits for its port to be ACTIVE. Needs
# rxe.sh.
ha_rxe_up() {
	local nic

	nic=$(ha_data_nic "$1")
	HA_RXE=rxe${nic#d}
	run modprobe -a rdma_rxe ib_uverbs rdma_ucm
	run rdma link add "$HA_RXE" type rxe netdev "$nic"
	wait_for 20 "$HA_RXE port ACTIVE" rxe_port_active "$HA_RXE"
}

ha_gid_index_q() {
	ha_gid_index "$@" > /dev/null
}

# ha_gid_index DEV IP: the index of the RoCE v2 GID of IPv4 address IP on
# port 1 of DEV (::ffff:a.b.c.d).
ha_gid_index() {
	local want f

	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${2//./ })
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		if [ "$(cat "$f" 2> /dev/null)" = "$want" ]; then
			echo "${f##*/}"
			return 0
		fi
	done
	return 1
}
