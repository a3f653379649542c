# SPDX-License-Identifier: GPL-2.0-only
# The two-guest SRP benchmark (bench-srp2; scripts/vm/multi's "tgt ini"):
# our scst_srpt and LIO's ib_srpt in the guest tgt, the ib_srp initiator
# and fio in the guest ini, one Soft-RoCE link between them. What sets it
# apart from bench-srp: the CPU a run costs is measured in the target
# guest, where nothing but the target stacks, their backing devices and
# their side of Soft-RoCE runs.
#
# How the guests talk (over the cluster segment, off the measured link):
# tgt's flag server (busybox httpd, ha_net_up) gets two CGI programs.
# cgi-bin/stat answers with tgt's "cpu" line of /proc/stat, read by the
# shell itself: ini fetches it just before and just after each fio run,
# and the difference is what the run cost tgt. A request costs tgt one
# httpd fork and one shell, of which about one falls inside each window
# (milliseconds against the seconds of a run). cgi-bin/ask?REQ hands REQ
# to tgt's test script (b2_serve), which meanwhile blocks on a FIFO:
# polling a peer's flag, as ha_wait_mark does, would itself cost tgt CPU
# during the runs it measures.
#
# Requires common.sh, scst.sh, rxe.sh, srp.sh, srpt.sh, lio.sh, fio.sh,
# bench.sh and ha.sh.

B2_FIFO=/run/bench2.fifo
# a request's answer (tgt's httpd); more than a flag's 4 s: a TCG guest
# busy with a run's completions may take a while to fork a CGI
B2_GET_SECS=15

# b2_get PATH: (ini) prints tgt's answer to http://tgt/PATH over the
# cluster segment; fails if there is none.
b2_get() {
	timeout -k 1 "$B2_GET_SECS" wget -q -O - \
		"http://$(ha_cluster_ip tgt):$HA_FLAG_PORT/$1" 2> /dev/null
}

# b2_ask REQ: (ini) hands REQ to tgt's b2_serve; ini asks only while
# b2_serve waits for it (each request's flags say when), so the CGI's
# write into the FIFO does not block.
b2_ask() {
	log "asking tgt: $1"
	b2_get "cgi-bin/ask?$1" > /dev/null || fail "tgt did not take request '$1'"
}

# b2_tgt_ticks: (ini) tgt's "busy total" jiffies, as cpu_ticks (fio.sh)
# counts them here.
b2_tgt_ticks() {
	local line

	line=$(b2_get cgi-bin/stat) || fail "no /proc/stat from tgt"
	awk '$1 == "cpu" { idle = $5 + $6; t = 0
			   for (i = 2; i <= 9; i++) t += $i
			   print t - idle, t }' <<< "$line"
}

# b2_tgt_setup: (tgt) the NICs and the flag server, twin null_blk
# devices (one module, the same parameters, as bench_local_setup: each
# target opens its own exclusively), Soft-RoCE on the link to ini, LIO's
# ib_srpt + iblock on nullb1 (RDMA/CM port 5556) and our scst_srpt +
# vdisk_blockio on nullb0 (5555), both on LUN 0; the CGI programs; then
# "srp-ready" with the node GUID (both targets' id_ext).
b2_tgt_setup() {
	local ip guid T

	ha_net_up
	run modprobe null_blk nr_devices=2 gb=4 irqmode=0
	wait_for 60 "ping ini" ping -c 1 -W 2 "$(ha_data_ip ini tgt)"
	ha_rxe_up ini
	ip=$(ha_data_ip tgt ini)
	guid=$(rxe_node_guid_hex "$HA_RXE")

	# LIO first, as bench_srp_setup; its RDMA/CM sessions are named by
	# the target's own address
	SRP_PORT=5556
	lio_srpt_setup "$HA_RXE" /dev/nullb1 "$ip"

	SRP_PORT=5555
	srpt_load
	T=$(srpt_tgt "$HA_RXE")
	wait_for 10 "target of $HA_RXE" test -d "$T"
	mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device bench filename=/dev/nullb0"
	mgmt "$T/luns/mgmt" "add bench 0"
	run sh -c "echo 1 > '$T/enabled'"

	mkdir -p "$HA_FLAGS/cgi-bin"
	run mkfifo "$B2_FIFO"
	cat > "$HA_FLAGS/cgi-bin/stat" <<-'EOF'
	#!/bin/sh
	read -r line < /proc/stat
	printf 'Content-Type: text/plain\r\n\r\n%s\n' "$line"
	EOF
	cat > "$HA_FLAGS/cgi-bin/ask" <<-EOF
	#!/bin/sh
	echo "\$QUERY_STRING" > $B2_FIFO
	printf 'Content-Type: text/plain\r\n\r\nok\n'
	EOF
	chmod +x "$HA_FLAGS/cgi-bin/stat" "$HA_FLAGS/cgi-bin/ask"
	log "tgt: LIO on nullb1 (port 5556), ours on nullb0 (port 5555), $HA_RXE $ip"
	echo "SCST-VM-READY: $VM_GUEST at $(cut -d' ' -f1 /proc/uptime) s of uptime"
	ha_mark srp-ready "$guid"
}

# b2_cm_listening PORT: (tgt) an RDMA/CM ID of this guest listens on PORT
b2_cm_listening() {
	rdma resource show cm_id 2> /dev/null |
		grep -q "state LISTEN.*:$1\b"
}

# b2_serve: (tgt) carries out ini's requests until "finish":
# "perftest.TEST.PORT" runs perftest's TEST server (bench_ceiling's
# arguments) on the link, flagging "perftest-TEST" once it is started and
# "perftest-TEST-done" once it has ended; "record.SIDE" and "report.SIDE"
# (profile-srp2, which sources lib/profile.sh) sample this guest for
# P_SECS s and print the samples' "PROFILE:" lines, flagging
# "recorded-SIDE" and "reported-SIDE". Blocks on the FIFO in between, at
# no CPU cost.
b2_serve() {
	local req t port srv rc

	while :; do
		read -r req < "$B2_FIFO" || continue
		log "request: $req"
		case $req in
		finish)
			break
			;;
		perftest.*.*)
			IFS=. read -r _ t port <<< "$req"
			# ini's client may need its 20 tries to find the
			# server listening, and a slow run
			timeout $((SECS + 120)) "$t" -d "$HA_RXE" -R -F -s 4096 \
				-D "$SECS" -p "$port" > "/tmp/$t.server" 2>&1 &
			srv=$!
			# flagged once it listens: a client that connects
			# before is rejected, and perftest's client may crash
			# on a rejection (a GPF in librdmacm, seen on 6.1)
			wait_for 60 "$t listening on port $port" b2_cm_listening "$port"
			ha_mark "perftest-$t"
			wait "$srv"
			rc=$?
			cat "/tmp/$t.server"
			[ "$rc" = 0 ] || fail "$t server failed (rc=$rc)"
			ha_mark "perftest-$t-done"
			;;
		record.ours|record.lio)
			# profile-srp2 (lib/profile.sh): tgt alone sampled
			# while ini's fio runs on that side
			profile_record "${req#record.}"
			ha_mark "recorded-${req#record.}"
			;;
		report.ours|report.lio)
			profile_report "${req#report.}"
			ha_mark "reported-${req#report.}"
			;;
		*)
			fail "unknown request '$req'"
			;;
		esac
	done
}

# b2_rxe_counters: logs the non-zero hardware counters of this guest's
# rxe device: retries and sequence errors say whether the link lost
# packets, which would stall the runs for rxe's retry timeout.
b2_rxe_counters() {
	local f c=

	for f in /sys/class/infiniband/"$HA_RXE"/ports/1/hw_counters/*; do
		[ "$(cat "$f" 2> /dev/null)" = 0 ] || c+=" ${f##*/}=$(cat "$f" 2> /dev/null)"
	done
	log "$HA_RXE counters:${c:- all zero}"
}

# b2_ini_setup: (ini) the NICs, Soft-RoCE on the link to tgt, and the
# logins to both targets, as bench_srp_setup does them in one guest:
# LIO's (initiator_ext=1: both targets announce tgt's node GUID as
# id_ext, and ib_srp tells two logins to the same one apart by it) and
# ours, queue_size 128. Sets ours and lio (their sd disks).
b2_ini_setup() {
	local guid lio_host ours_host d

	ha_net_up
	echo "SCST-VM-READY: $VM_GUEST at $(cut -d' ' -f1 /proc/uptime) s of uptime"
	run modprobe -a sd_mod sg
	wait_for 60 "ping tgt" ping -c 1 -W 2 "$(ha_data_ip tgt ini)"
	ha_rxe_up tgt
	SRP_INITIATOR_DEV=$HA_RXE
	SRP_DEST_IP=$(ha_data_ip tgt ini)
	SRP_SRC_IP=$(ha_data_ip ini tgt)
	ha_wait_mark 300 srp-ready tgt
	guid=$(ha_fetch tgt srp-ready) || fail "no node GUID from tgt"

	SRP_PORT=5556
	srp_login "$guid" "$guid" "queue_size=128,max_cmd_per_lun=128,initiator_ext=1"
	lio_host=$SRP_HOST
	B2_RPORTS=("$SRP_RPORT")
	wait_lun "$lio_host" 0
	lio=$(lun_disk "$lio_host" 0)

	SRP_PORT=5555
	srp_login "$guid" "$guid" "queue_size=128,max_cmd_per_lun=128"
	ours_host=$SRP_HOST
	B2_RPORTS+=("$SRP_RPORT")
	srpt_wait_lun 0
	ours=$(srpt_lun_disk 0)

	for d in "$ours" "$lio"; do
		run ua_retry sg_turs "$d"
	done
	bench_no_scheduler "$ours" "$lio"
	grep -q 'Vendor identification: LIO-ORG' <<< "$(sg_inq "$lio")" ||
		fail "$lio is not LIO's"
	grep -q 'Vendor identification: SCST_BIO' <<< "$(sg_inq "$ours")" ||
		fail "$ours is not ours"
	log "ours: $ours (scst_srpt, host $ours_host), LIO: $lio (ib_srpt, host $lio_host), over $HA_RXE"
}

# b2_ini_logout: (ini) logs out of both targets before tgt goes: a
# disk whose target has powered off holds ini's own power-off for over
# a minute (its cache flush aborted, the host reset, the reconnect
# refused).
b2_ini_logout() {
	local p

	for p in "${B2_RPORTS[@]}"; do
		SRP_RPORT=$p
		SRP_HOST=${p#port-}
		SRP_HOST=${SRP_HOST%%:*}
		srp_logout
	done
}

# b2_fio_run NAME FIO-ARGS...: (ini) fio_run between two samples of
# tgt's CPU, bench_alternate's BENCH_RUN. Sets what fio_run sets, and
# BENCH_CPU_BUSY (% of tgt's CPUs) and BENCH_CPU_US_PER_IO (tgt's CPU µs
# per I/O), the CPU columns of the "BENCH:" lines, and BENCH_EXTRA with
# this guest's own figures (ini_cpu_us_per_io, ini_cpu_busy): the window
# is the fio command's, start-up included, as fio_run's own figures; the
# I/Os are FIO_IOPS over $SECS s (time_based).
b2_fio_run() {
	local b0 t0 b1 t1

	read -r b0 t0 < <(b2_tgt_ticks)
	[ -n "$t0" ] || fail "no CPU sample from tgt"
	fio_run "$@"
	read -r b1 t1 < <(b2_tgt_ticks)
	[ -n "$t1" ] || fail "no CPU sample from tgt"
	BENCH_CPU_BUSY=$(awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) \
		'BEGIN { printf "%.1f", t ? 100 * b / t : 0 }')
	# USER_HZ, /proc/stat's unit, is 100 on x86
	BENCH_CPU_US_PER_IO=$(awk -v b=$((b1 - b0)) -v n=$((FIO_IOPS * SECS)) \
		'BEGIN { printf "%.0f", n ? b * 1e6 / 100 / n : 0 }')
	BENCH_EXTRA="ini_cpu_us_per_io=$FIO_CPU_US_PER_IO ini_cpu_busy=$FIO_CPU_BUSY"
	log "tgt: cpu_busy=$BENCH_CPU_BUSY% cpu_us_per_io=$BENCH_CPU_US_PER_IO"
}

# b2_ceiling TEST...: (ini) bench_ceiling across the link: each perftest
# TEST with 4 KiB messages for $SECS s, the server in tgt (b2_serve), the
# client here connecting to tgt's address through RDMA/CM; the same
# "CEILING:" lines, the probe this guest's, then a "BENCH-PROBE:" line.
b2_ceiling() {
	local t port=18515 out ok try row bw rate ip
	local args

	ip=$(ha_data_ip tgt ini)
	for t in "$@"; do
		args=(-d "$HA_RXE" -R -F -s 4096 -D "$SECS" -p "$port")
		b2_ask "perftest.$t.$port"
		ha_wait_mark 60 "perftest-$t" tgt
		bench_probe
		log "+ $t ${args[*]} $ip (client; the server in tgt)"
		# the client is refused until the server listens: retry
		ok=0
		for try in $(seq 1 20); do
			out=$(timeout $((SECS + 60)) "$t" "${args[@]}" "$ip" 2>&1) &&
				{ ok=1; break; }
			sleep 0.5
		done
		if [ "$ok" = 0 ]; then
			echo "$out"
			fail "$t client failed $try times"
		fi
		row=$(awk '$1 == 4096 && NF >= 5 { r = $4 " " $5 } END { print r }' <<< "$out")
		[ -n "$row" ] || { echo "$out"; fail "$t: no result line"; }
		read -r bw rate <<< "$row"
		echo "CEILING: test=$t msg=4096" \
		     "mps=$(awk -v r="$rate" 'BEGIN { printf "%.0f", r * 1e6 }')" \
		     "mib_s=$bw probe_ms=$BENCH_PROBE_MS"
		ha_wait_mark $((SECS + 180)) "perftest-$t-done" tgt
		port=$((port + 1))
	done
	bench_probe_line
}
