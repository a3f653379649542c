#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-guests: t1 t2 ini
#
# Failover of the HA pair (Documentation/ha.md; issue 34): t1 and t2
# export the shared disk in cluster_mode through our SRP target, with
# ALUA groups naming both nodes' ports (tg1, t1's: active/optimized; tg2,
# t2's: active/non-optimized; the same on both nodes). ini runs udevd and
# Debian's multipathd (ALUA priorities, group_by_prio, failback
# immediate, queue_if_no_path) over its two logins, registers through
# fence_scsi on the multipath device, and writes with fio --verify while
# the host kills t1's QEMU. Checks:
#  - multipath sees two paths, t1's in the higher priority group;
#  - fio --verify goes on through t2 and ends without an error; the I/O
#    gap (fio's longest write) is logged;
#  - t2 recovers the lockspace without t1 and keeps the registrations
#    and the reservation (READ KEYS / READ RESERVATION through t2);
#  - t1 boots again, rejoins the cluster and the lockspace, takes the
#    cluster's state (the keys through t1 again), ib_srp reconnects,
#    multipath fails back, and t1's path carries writes again (fio
#    --verify) while t2's lockspace has both nodes.
. /tests/lib/ha-srp.sh

DEV=ha1
LS=scst-$DEV
LIFE=${VM_LIFE:-1}

ha_cluster_up

# target_up: the device, ALUA (tg1 active, tg2 non-optimized everywhere),
# the LUN
target_up() {
	ha_shared_disk
	ha_target_up $DEV /dev/vda alua
}

if [ "$VM_GUEST" = t1 ] && [ "$LIFE" = 2 ]; then
	# --- t1 again, after its power cut --------------------------------
	target_up
	line=$(dmesg | grep "$DEV: cluster: joined lockspace" | tail -n 1)
	log "t1 again: $line"
	seq=$(sed -n 's/.* at update \([0-9]*\)$/\1/p' <<< "$line")
	[ "${seq:-0}" -gt 1 ] || fail "t1 did not take the cluster's state ($line)"
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

# --- ini: multipath over both nodes ---------------------------------------------
# mpath_dev: the multipath device (/dev/dm-N) with both paths
mpath_dev() {
	local d
	for d in /sys/block/dm-*; do
		[ -d "$d/slaves" ] && [ "$(ls "$d/slaves" | wc -l)" = 2 ] &&
			{ echo "/dev/${d##*/}"; return 0; }
	done
	return 1
}

mpath_dev_q() {
	mpath_dev > /dev/null
}

# path_state SDX: multipathd's "dm state/checker state" of a path
path_state() {
	multipathd show paths format "%d %t %T" 2>/dev/null |
		awk -v d="${1##*/}" '$1 == d { print $2 "/" $3 }'
}

# path_is SDX STATE: the path's state is STATE
path_is() {
	[ "$(path_state "$1")" = "$2" ]
}

# path_prio SDX: multipathd's priority of a path
path_prio() {
	multipathd show paths format "%d %p" 2>/dev/null |
		awk -v d="${1##*/}" '$1 == d { print $2 }'
}

# writes_done SDX: the writes and reads the path's SCSI device completed
writes_done() {
	printf '%d\n' "$(cat "/sys/block/${1##*/}/device/iodone_cnt")"
}

# probe_start: the I/O gap as the host sees it: a 4 KiB O_DIRECT write to
# the multipath device every 0.2 s (past fio's 16 MiB), each completion's
# time in /tmp/probe.times
probe_start() {
	rm -f /tmp/probe.stop /tmp/probe.times
	(
		i=0
		until [ -e /tmp/probe.stop ]; do
			dd if=/dev/zero of="$MP" bs=4k count=1 seek=$((8192 + i % 1024)) \
				oflag=direct status=none && echo "$EPOCHREALTIME" >> /tmp/probe.times
			i=$((i + 1))
			sleep 0.2
		done
	) &
	PROBE_PID=$!
}

# probe_gap: stops the probe; prints the longest time between two of its
# completed writes, in ms
probe_gap() {
	touch /tmp/probe.stop
	wait "$PROBE_PID"
	awk 'NR > 1 && $1 - last > gap { gap = $1 - last } { last = $1 }
	     END { printf "%d\n", gap * 1000 }' /tmp/probe.times
}

# fio_verify NAME SECONDS: fio --verify on the multipath device in the
# background (pid FIO_PID), JSON to /tmp/NAME.json
fio_verify() {
	fio --name="$1" --filename="$MP" --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --size=16M --iodepth=4 \
		--verify=crc32c --verify_backlog=64 --verify_fatal=1 \
		--time_based --runtime="$2" --output-format=json \
		--output="/tmp/$1.json" > /dev/null 2>&1 &
	FIO_PID=$!
}

# fio_check NAME: fio ended well and verified; logs its write figures
fio_check() {
	wait "$FIO_PID" || { cat "/tmp/$1.json"; fail "fio $1 failed"; }
	python3 - "/tmp/$1.json" <<'PY' || fail "fio $1: bad report"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
w = j["write"]
if j["error"] or w["io_bytes"] == 0:
    sys.exit(1)
print("fio %s: %d writes, %d verified bytes, error %d, write completion latency max %.0f ms, p50 %.1f ms, p99 %.0f ms, submission latency max %.0f ms" % (
    j["jobname"], w["total_ios"], j["read"]["io_bytes"], j["error"],
    w["clat_ns"]["max"] / 1e6, w["clat_ns"]["percentile"]["50.000000"] / 1e6,
    w["clat_ns"]["percentile"]["99.000000"] / 1e6, w["slat_ns"]["max"] / 1e6))
PY
}

if [ "$VM_GUEST" = ini ]; then
	mkdir -p /run/udev /etc/udev/rules.d
	[ -e /var/run ] || ln -s /run /var/run
	run /lib/systemd/systemd-udevd --daemon --resolve-names=never
	cat > /etc/multipath.conf <<'CONF'
defaults {
	user_friendly_names no
	find_multipaths no
	polling_interval 2
	path_grouping_policy group_by_prio
	failback immediate
	no_path_retry queue
	fast_io_fail_tmo 5
	dev_loss_tmo 600
}
blacklist {
	devnode "^vd"
}
CONF
	run modprobe -a dm_multipath dm_service_time scsi_dh_alua
	multipathd -d -v3 > /tmp/multipathd.log 2>&1 &
	ha_srp_login t1
	ha_srp_login t2
	run udevadm settle -t 30
	if ! poll 60 mpath_dev_q; then
		tail -n 60 /tmp/multipathd.log
		multipath -v3 2>&1 | tail -n 40
		fail "no multipath device of both paths within 60 s"
	fi
	MP=$(mpath_dev)
	multipath -ll
	log "paths: t1 $SD_t1 prio $(path_prio "$SD_t1"), t2 $SD_t2 prio $(path_prio "$SD_t2")"
	[ "$(path_prio "$SD_t1")" -gt "$(path_prio "$SD_t2")" ] ||
		fail "t1's active/optimized path is not preferred"
	for p in "$RPORT_t1" "$RPORT_t2"; do
		log "$p: reconnect_delay $(cat /sys/class/srp_remote_ports/$p/reconnect_delay) fast_io_fail_tmo $(cat /sys/class/srp_remote_ports/$p/fast_io_fail_tmo) dev_loss_tmo $(cat /sys/class/srp_remote_ports/$p/dev_loss_tmo)"
	done

	# the host's registration on every path, and the reservation
	log "+ fence_scsi -o on -k 1 -d $MP"
	fence_scsi -o on -k 1 -d "$MP" || fail "fence_scsi -o on"
	assert_eq "$(keys "$SG_t2" | xargs)" "0x1 0x1" "keys through t2"
	assert_eq "$(resv "$SG_t2")" "0x1 Write Exclusive, registrants only" "reservation"

	# --- t1's power cut under fio --verify -------------------------------
	before=$(writes_done "$SD_t1")
	probe_start
	fio_verify failover 90
	sleep 10
	[ "$(writes_done "$SD_t1")" -gt "$before" ] || fail "no writes through t1 before the cut"
	ha_host_kill t1
	ha_mark t1-killed
	fio_check failover
	gap=$(probe_gap)
	log "I/O gap seen by the host (the longest time between two completed probe writes): $gap ms"
	multipath -ll
	log "after the cut: t1's path $(path_state "$SD_t1"), t2's $(path_state "$SD_t2")"
	clear_ua "$SG_t2"
	assert_eq "$(keys "$SG_t2" | xargs)" "0x1 0x1" "keys through t2 after t1's death"
	assert_eq "$(resv "$SG_t2")" "0x1 Write Exclusive, registrants only" \
		"reservation through t2 after t1's death"
	ha_wait_mark 300 t1-gone-seen t2

	# --- t1 comes back and takes its share again ----------------------
	ha_host_boot t1
	ha_wait_mark 600 srp-ready t1
	wait_for 180 "t1's path active again" path_is "$SD_t1" active/ready
	multipath -ll
	before=$(writes_done "$SD_t1")
	fio_verify failback 20
	fio_check failback
	after=$(writes_done "$SD_t1")
	log "t1's path completed $((after - before)) commands in the 20 s after it came back"
	[ $((after - before)) -gt 100 ] || fail "t1's path took no share after it came back"
	clear_ua "$SG_t1"
	assert_eq "$(keys "$SG_t1" | xargs)" "0x1 0x1" "keys through t1 after it came back"
	prout "$SG_t1" --clear --param-rk=0x1
	pkill -x multipathd
	run multipath -F
	ha_srp_logout t1 t2
	ha_mark done
fi

if [ "$VM_GUEST" = t2 ]; then
	ha_wait_mark 300 t1-killed ini
	ha_wait_view 120 2 yes
	log "t2 sees: $(ha_view)"
	wait_for 120 "lockspace $LS without t1" ha_ls_members_are "$LS" 2
	dmesg | grep "$DEV: cluster" | tail -n 5
	dmesg | grep -q "$DEV: cluster: node 1 failed" || fail "no log line of node 1's failure"
	ha_mark t1-gone-seen
	ha_wait_mark 900 srp-ready t1
	wait_for 120 "lockspace $LS with t1 again" ha_ls_members_are "$LS" "1 2"
	ha_wait_mark 900 done ini
fi
if [ "$VM_GUEST" = t1 ]; then
	# life 1 ends by the power cut
	ha_wait_mark 900 done ini
	fail "t1 was not killed"
fi
log "ha-failover: done on $VM_GUEST"
ha_finish 300
