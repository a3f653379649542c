#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dev_disk, the SCSI pass-through handler, on a scsi_debug disk exported
# through scst_local, with 512- and 4096-byte sectors: the initiator sees
# scsi_debug's own INQUIRY, VPD, READ CAPACITY and mode pages (compared
# byte for byte with what the local device answers), the core's REPORT
# LUNS, SPC-2 and persistent reservations, the device's MEDIUM ERROR with
# its LBA, fio --verify at QD1 and QD32, an oversize transfer refused before it
# reaches the device, LUN RESET with a READ stuck in the device answered at
# once, ALUA (TPGS, VPD 83h port designators, scsi_dh_alua attaching), a
# device hot-removed under fio, and clean unloads.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh

H=$SCST/handlers/dev_disk
T=$SCST/targets/scst_local/tgt1
SDEBUG=/sys/bus/pseudo/drivers/scsi_debug
# scsi_debug's medium error range (opts bit 1, SDEBUG_OPT_MEDIUM_ERR); it
# reports LBAs from 0x1234 up in the INFORMATION field
MERR_LBA=5000

run modprobe -a sd_mod sg
run modprobe scst
run modprobe scst_vdisk
run modprobe scst_disk
run modprobe scst_local add_default_tgt=0

# same DESCRIPTION CMD ARGS...: CMD on the local device and on the
# exported one give the same output
same() {
	local what=$1 a b
	shift
	a=$("$@" "$local_sg" 2>&1) || fail "$what on the local device: $a"
	b=$("$@" "$remote_sg" 2>&1) || fail "$what through dev_disk: $b"
	[ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b"); fail "$what differs"; }
	log "$what: identical"
}

# sdebug_load SECTOR_SIZE [PARAMS...]
sdebug_load() {
	local ss=$1
	shift
	run modprobe scsi_debug dev_size_mb=32 sector_size="$ss" max_luns=1 \
		medium_error_start=$MERR_LBA medium_error_count=8 "$@"
	wait_for 10 "the scsi_debug disk" sdebug_hctl > /dev/null
	hctl=$(sdebug_hctl)
	wait_for 10 "sg node of $hctl" ls /sys/bus/scsi/devices/"$hctl"/scsi_generic/
	local_sg=/dev/$(ls /sys/bus/scsi/devices/"$hctl"/scsi_generic/)
	log "scsi_debug: $hctl $local_sg, $ss-byte sectors"
}

# export_disk: add the scsi_debug disk to dev_disk as LUN 0 of tgt1, a
# vdisk_nullio LUN 1 next to it, one session; sets remote_sg/remote_disk
export_disk() {
	mgmt $H/mgmt "add_device $hctl"
	mgmt $SCST/handlers/vdisk_nullio/mgmt "add_device null1 size_mb=16"
	mgmt $SCST/targets/scst_local/mgmt "add_target tgt1"
	mgmt $T/luns/mgmt "add $hctl 0"
	mgmt $T/luns/mgmt "add null1 1"
	mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 ini1"
	wait_for 10 "scst_local host of tgt1/ini1" local_host tgt1 ini1 > /dev/null
	rhost=$(local_host tgt1 ini1)
	wait_lun "$rhost" 0
	remote_disk=$(lun_disk "$rhost" 0)
	remote_sg=$(lun_sg "$rhost" 0)
	clear_ua "$remote_sg"
	log "exported as $remote_disk $remote_sg"
}

unexport_disk() {
	mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 ini1"
	mgmt $SCST/targets/scst_local/mgmt "del_target tgt1"
	mgmt $SCST/handlers/vdisk_nullio/mgmt "del_device null1"
}

# vpd00_255 SG: VPD page 00h read with an allocation length of 255
vpd00_255() {
	sg_raw -r 255 -b "$1" 12 01 00 00 ff 00 | od -An -tx1
}

# identity: what the device says about itself passes unchanged
identity_checks() {
	local inq b0 maxkb hwkb bs want
	inq=$(sg_inq "$remote_sg") || fail "sg_inq"
	grep -q 'Vendor identification: Linux' <<< "$inq" || fail "vendor: $inq"
	grep -q 'Product identification: scsi_debug' <<< "$inq" || fail "product: $inq"
	same "standard INQUIRY" sg_inq -r
	same "VPD 00h" sg_vpd -r -p 0x00
	same "VPD 80h" sg_vpd -r -p 0x80
	same "VPD 83h" sg_vpd -r -p 0x83
	# an allocation length off the queue's DMA alignment (Linux reads
	# VPD pages with 255 and with what the page header says): bounced
	same "VPD 00h, allocation length 255" vpd00_255
	same "READ CAPACITY(16)" sg_readcap -l -H
	same "MODE SENSE, all pages" sg_modes -r -a
	# Block Limits: the device's, MAXIMUM TRANSFER LENGTH what we pass
	maxkb=$(attr_value $SCST/devices/"$hctl"/max_transfer_kb)
	hwkb=$(attr_value $SCST/devices/"$hctl"/max_hw_kb)
	[ "$hwkb" -lt "$maxkb" ] && maxkb=$hwkb
	bs=$(attr_value $SCST/devices/"$hctl"/blocksize)
	want=$((maxkb * 1024 / bs))
	b0=$(sg_vpd -p 0xb0 "$remote_sg") || fail "VPD B0h: $b0"
	echo "$b0"
	grep -q "Maximum transfer length: $want blocks" <<< "$b0" ||
		fail "Block Limits maximum transfer is not $want blocks"
	# MAXIMUM WRITE SAME LENGTH: scsi_debug's 0xffff cut to the core's
	# WRITE SAME limit (sg_vpd prints it in decimal or hex)
	grep -Eq "Maximum write same length: ($want|0x0*$(printf %x $want)) blocks" <<< "$b0" ||
		fail "Block Limits maximum write same length is not $want blocks"
	# REPORT LUNS is the core's: two LUNs, where scsi_debug has one
	assert_eq "$(sg_luns "$remote_sg" | grep -c '^    000')" 2 "REPORT LUNS entries"
	assert_eq "$(sg_luns "$local_sg" | grep -c '^    000')" 1 "scsi_debug's own LUNs"
}

fio_checks() {
	local min=$1
	fio_run qd1 --filename="$remote_disk" --ioengine=libaio --direct=1 \
		--rw=randwrite --bsrange="$min"-1M --iodepth=1 --size=2M \
		--verify=crc32c --do_verify=1 --verify_fatal=1
	fio_run qd32 --filename="$remote_disk" --ioengine=libaio --direct=1 \
		--rw=randwrite --bsrange="$min"-1M --iodepth=32 --size=6M \
		--offset=8M --verify=crc32c --do_verify=1 --verify_fatal=1
}

# MEDIUM ERROR with the LBA in the INFORMATION field, as the device said
medium_error_check() {
	local lba=$((MERR_LBA + 3)) bs out local_out cdb
	bs=$(attr_value $SCST/devices/"$hctl"/blocksize)
	cdb="28 00 $(printf '%02x %02x %02x %02x' $((lba >> 24)) $((lba >> 16 & 255)) \
		$((lba >> 8 & 255)) $((lba & 255))) 00 00 01 00"
	echo 2 > $SDEBUG/opts
	# shellcheck disable=SC2086
	out=$(sense_of sg_raw -v -r "$bs" "$remote_sg" $cdb)
	# shellcheck disable=SC2086
	local_out=$(sense_of sg_raw -v -r "$bs" "$local_sg" $cdb)
	echo 0 > $SDEBUG/opts
	echo "$out"
	grep -qi 'medium error' <<< "$out" || fail "no MEDIUM ERROR"
	grep -qi "info fld=0x$(printf '%x' $lba)" <<< "$out" ||
		fail "MEDIUM ERROR without LBA $lba in the information field"
	assert_eq "$(grep -A2 'Raw sense' <<< "$out")" \
		"$(grep -A2 'Raw sense' <<< "$local_out")" "sense data against the local device's"
}

# a transfer past the device's limit: refused, never sent to the device
oversize_check() {
	local maxkb bs blocks cnt0 cnt1 out orig
	# a limit sg_raw can exceed (it moves at most 1 MiB)
	orig=$(attr_value $SCST/devices/"$hctl"/max_transfer_kb)
	echo 64 > $SCST/devices/"$hctl"/max_transfer_kb
	maxkb=64
	bs=$(attr_value $SCST/devices/"$hctl"/blocksize)
	sg_vpd -p 0xb0 "$remote_sg" | grep_q "Maximum transfer length: $((65536 / bs)) blocks" ||
		fail "Block Limits does not follow max_transfer_kb"
	blocks=$((maxkb * 1024 / bs + 1))
	[ "$blocks" -le 65535 ] || fail "limit of $blocks blocks does not fit READ(10)"
	cnt0=$(cat /sys/bus/scsi/devices/"$hctl"/iorequest_cnt)
	out=$(sense_of sg_raw -v -r $((blocks * bs)) "$remote_sg" 28 00 00 00 00 00 00 \
		$(printf '%02x %02x' $((blocks >> 8)) $((blocks & 255))) 00)
	cnt1=$(cat /sys/bus/scsi/devices/"$hctl"/iorequest_cnt)
	echo "$out"
	grep -qi 'invalid field in cdb' <<< "$out" || fail "oversize READ not refused"
	assert_eq "$cnt1" "$cnt0" "commands the device saw for the refused READ"
	# one block less is within the limit and reaches the device
	blocks=$((blocks - 1))
	run sg_raw -o /dev/null -r $((blocks * bs)) "$remote_sg" 28 00 00 00 00 00 00 \
		$(printf '%02x %02x' $((blocks >> 8)) $((blocks & 255))) 00
	echo "$orig" > $SCST/devices/"$hctl"/max_transfer_kb
}

# SPC-2 RESERVE from one session: the other gets RESERVATION CONFLICT
reserve_check() {
	local h2 sg2 out
	mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 ini2"
	wait_for 10 "scst_local host of tgt1/ini2" local_host tgt1 ini2 > /dev/null
	h2=$(local_host tgt1 ini2)
	wait_lun "$h2" 0
	sg2=$(lun_sg "$h2" 0)
	clear_ua "$sg2"
	run sg_raw "$remote_sg" 16 00 00 00 00 00
	out=$(sense_of sg_raw -v "$sg2" 00 00 00 00 00 00)
	echo "$out"
	grep -qi 'reservation conflict' <<< "$out" || fail "no RESERVATION CONFLICT"
	# the device itself was not reserved
	run sg_turs "$local_sg"
	run sg_raw "$remote_sg" 17 00 00 00 00 00
	run sg_turs "$sg2"
	# persistent reservations are the core's too: a key registered
	# through dev_disk is in the core's state, not sent to the device
	run sg_persist -n --out --register --param-sark=0x1234 "$remote_sg"
	sg_persist -n --in -k "$sg2" | grep_q '^ *0x1234$' ||
		fail "the registration is not seen through the other session"
	grep -q '^registrant 0 key 0x0000000000001234 transport_id iscsi:ini1 ' \
		$SCST/devices/"$hctl"/pr_state || fail "pr_state: $(cat $SCST/devices/"$hctl"/pr_state)"
	if sg_persist -n --in -k "$local_sg" 2>/dev/null | grep_q '0x1234'; then
		fail "the registration reached the device"
	fi
	run sg_persist -n --out --reserve --param-rk=0x1234 --prout-type=1 "$remote_sg"
	dd if=/dev/zero of=/tmp/pr_blk bs=512 count=1 status=none
	out=$(sense_of sg_raw -s 512 -i /tmp/pr_blk "$sg2" 2a 00 00 00 00 00 00 00 01 00)
	grep -qi 'reservation conflict' <<< "$out" || fail "ini2's WRITE under ini1's WE: $out"
	run sg_persist -n --out --clear --param-rk=0x1234 "$remote_sg"
	mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 ini2"
}

# the device ignores a command (scsi_debug opts bit 2 with every_nth): it
# times out in the device's own timeout and ends as ABORTED COMMAND, LOGICAL
# UNIT COMMUNICATION TIME-OUT, which the initiator may retry
timeout_check() {
	local i out found=
	echo 2 > /sys/bus/scsi/devices/"$hctl"/timeout
	echo 3 > $SDEBUG/every_nth
	echo 4 > $SDEBUG/opts
	for i in 1 2 3 4 5 6; do
		out=$(sense_of sg_raw -v -t 30 "$remote_sg" 00 00 00 00 00 00)
		if grep -qi 'aborted command' <<< "$out"; then
			found=1
			break
		fi
	done
	echo 0 > $SDEBUG/opts
	echo 0 > $SDEBUG/every_nth
	echo 30 > /sys/bus/scsi/devices/"$hctl"/timeout
	echo "$out"
	[ -n "$found" ] || fail "no ABORTED COMMAND for a command the device ignored"
	grep -qi 'communication time-out\|communication timeout' <<< "$out" ||
		fail "the timeout's sense is not LOGICAL UNIT COMMUNICATION TIME-OUT"
	run sg_turs "$remote_sg"
}

# LUN RESET while the device holds commands: they are aborted in the
# device (not waited out), fio ends, no command is left in the session
lun_reset_check() {
	local pid i busy
	echo 250 > $SDEBUG/delay
	fio --name=tmf --filename="$remote_disk" --ioengine=libaio --direct=1 \
		--rw=randread --bs=4k --iodepth=16 --runtime=5 --time_based \
		--minimal > /tmp/tmf.out 2>&1 &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		busy=$(cat /sys/bus/scsi/devices/"$hctl"/device_busy)
		[ "$busy" -gt 1 ] && break
		sleep 0.1
	done
	log "commands in the device before LUN RESET: $busy"
	[ "$busy" -gt 0 ] || { cat /tmp/tmf.out; fail "no command in the device to reset"; }
	run sg_reset -d "$remote_sg"
	echo 0 > $SDEBUG/delay
	for ((i = 0; i < 600; i++)); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	kill -0 $pid 2>/dev/null && fail "fio still running 60 s after the LUN RESET"
	wait $pid || log "fio saw errors from the reset"
	wait_for 20 "the session's commands to end" \
		test "$(cat $T/sessions/ini1/active_commands)" = 0
	clear_ua "$remote_sg"
}

# LUN RESET while a READ is stuck in the device (scsi_debug holds every
# command for minutes): the reset aborts the device's request before it
# waits for the command, so it answers at once instead of after the
# request's 30 s timeout (the bound of 5 s is functional, generous for a
# TCG guest: a reset that waits for the timeout takes 30 s); the READ
# ends (TASK ABORTED), and the device works afterwards.
lun_reset_stuck_check() {
	local pid t0 t1 ms i busy
	echo 30 > /sys/bus/scsi/devices/"$hctl"/timeout
	# jiffies: 400 s at HZ=250, far beyond the timeout
	echo 100000 > $SDEBUG/delay
	sg_raw -t 300 -r 4096 "$remote_sg" 28 00 00 00 00 00 00 00 08 00 \
		> /tmp/stuck.out 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		busy=$(cat /sys/bus/scsi/devices/"$hctl"/device_busy)
		[ "$busy" -gt 0 ] && break
		sleep 0.1
	done
	[ "$busy" -gt 0 ] || { cat /tmp/stuck.out; fail "the READ did not reach the device"; }
	t0=${EPOCHREALTIME/./}
	run sg_reset -d "$remote_sg"
	t1=${EPOCHREALTIME/./}
	ms=$(((t1 - t0) / 1000))
	log "LUN RESET with a READ stuck in the device: answered in $ms ms"
	for ((i = 0; i < 100; i++)); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	kill -0 $pid 2>/dev/null && fail "the stuck READ still running 10 s after the LUN RESET"
	wait $pid && fail "the stuck READ succeeded: $(cat /tmp/stuck.out)"
	log "the stuck READ: $(tr '\n' ' ' < /tmp/stuck.out)"
	assert_eq "$(cat /sys/bus/scsi/devices/"$hctl"/device_busy)" 0 "requests left in the device"
	echo 0 > $SDEBUG/delay || fail "scsi_debug still holds commands"
	[ "$ms" -lt 5000 ] || fail "LUN RESET took $ms ms: it waited for the stuck request's timeout"
	clear_ua "$remote_sg"
	run sg_raw -o /dev/null -r 4096 "$remote_sg" 28 00 00 00 00 00 00 00 08 00
}

# vpd83_len SG: the PAGE LENGTH of VPD page 83h
vpd83_len() {
	sg_vpd -r -p 0x83 "$1" | od -An -tu1 -j2 -N2 | awk '{ print $1 * 256 + $2 }'
}

# ALUA (Documentation/alua.md) on a pass-through device, exported through
# a second target tgt2 (relative port 2, where scsi_debug says 1): in a
# device group with tgt2 in target port group 7, standard INQUIRY says
# TPGS 01b (implicit: expl_alua is 0, SCST's default) and VPD 83h carries
# tgt2's relative target port and target port group designators
# (scsi_debug's own made vendor specific), so that Linux's scsi_dh_alua attaches when it scans the LUN and follows the
# group's state; out of the group, the device's own data again.
alua_check() {
	local dg=$SCST/device_groups/dgd tg h3 sg3 rid inq vpd d n_local n_remote
	local t2=$SCST/targets/scst_local/tgt2
	mgmt $SCST/targets/scst_local/mgmt "add_target tgt2"
	mgmt $t2/luns/mgmt "add $hctl 0"
	rid=$(attr_value $t2/rel_tgt_id)
	[ "$rid" != 1 ] || fail "tgt2 has relative port 1, as scsi_debug's own"
	mgmt $SCST/device_groups/mgmt "create dgd"
	mgmt $dg/devices/mgmt "add $hctl"
	mgmt $dg/target_groups/mgmt "create tgd"
	tg=$dg/target_groups/tgd
	mgmt $tg/mgmt "add tgt2"
	echo 7 > $tg/group_id || fail "group_id refused"
	# loaded before the scan: the midlayer attaches it to a LUN whose
	# INQUIRY data has TPGS set
	run modprobe scsi_dh_alua
	mgmt $SCST/targets/scst_local/mgmt "add_session tgt2 ini3"
	wait_for 10 "scst_local host of tgt2/ini3" local_host tgt2 ini3 > /dev/null
	h3=$(local_host tgt2 ini3)
	wait_lun "$h3" 0
	sg3=$(lun_sg "$h3" 0)
	clear_ua "$sg3"
	inq=$(sg_inq "$sg3") || fail "sg_inq: $inq"
	grep -q 'TPGS=1' <<< "$inq" || fail "TPGS is not 1: $(grep TPGS <<< "$inq")"
	vpd=$(sg_vpd -p di "$sg3") || fail "sg_vpd -p di: $vpd"
	echo "$vpd"
	grep -qi "relative target port: 0x$(printf %x "$rid")\$" <<< "$vpd" ||
		fail "VPD 83h: no relative target port $rid"
	grep -qi 'target port group: 0x7$' <<< "$vpd" || fail "VPD 83h: no target port group 7"
	assert_eq "$(grep -ci 'relative target port:' <<< "$vpd")" 1 "relative target port designators"
	assert_eq "$(grep -ci 'target port group:' <<< "$vpd")" 1 "target port group designators"
	# scsi_debug's own (relative port 1, its port group) made vendor
	# specific in place, ours appended (8 bytes each)
	n_local=$(vpd83_len "$local_sg")
	n_remote=$(vpd83_len "$sg3")
	assert_eq "$n_remote" $((n_local + 16)) "VPD 83h PAGE LENGTH"
	# a short allocation length cuts the data, not the PAGE LENGTH
	assert_eq "$(sg_raw -r 8 -b "$sg3" 12 01 83 00 08 00 2>/dev/null | od -An -tu1 -j2 -N2 | awk '{ print $1 * 256 + $2 }')" \
		"$n_remote" "PAGE LENGTH at allocation length 8"
	d=/sys/class/scsi_device/$h3:0:0:0/device
	wait_for 10 "scsi_dh_alua on $h3:0:0:0" grep -qx alua $d/dh_state
	wait_for 30 "$h3:0:0:0 active/optimized" grep -qx active/optimized $d/access_state
	# a standby port is one to the initiator, not an I/O error
	echo standby > $tg/state || fail "state standby refused"
	echo 1 > $d/rescan
	wait_for 30 "$h3:0:0:0 standby" grep -qx standby $d/access_state
	echo active > $tg/state || fail "state active refused"
	echo 1 > $d/rescan
	wait_for 30 "$h3:0:0:0 active/optimized again" grep -qx active/optimized $d/access_state
	dd if="$(lun_disk "$h3" 0)" of=/dev/null bs=4k count=16 iflag=direct status=none ||
		fail "I/O through the ALUA path failed"
	mgmt $SCST/targets/scst_local/mgmt "del_session tgt2 ini3"
	mgmt $SCST/targets/scst_local/mgmt "del_target tgt2"
	mgmt $dg/devices/mgmt "del $hctl"
	mgmt $SCST/device_groups/mgmt "del dgd"
	clear_ua "$remote_sg"
	same "standard INQUIRY out of the device group" sg_inq -r
	same "VPD 83h out of the device group" sg_vpd -r -p 0x83
}

# --- 512-byte sectors ---------------------------------------------------
sdebug_load 512
# bad names and a device that is not there: refused, nothing changes
before=$(tree_snapshot)
mgmt_bad $H/mgmt "add_device 1:2:3" -22
mgmt_bad $H/mgmt "add_device 250:0:0:0" -19
mgmt_bad $H/mgmt "add_device $hctl bogus=1" -22
after=$(tree_snapshot)
[ "$before" = "$after" ] || fail "a refused add_device changed the tree"
grep -q add_device $H/mgmt || fail "mgmt usage"

export_disk
assert_eq "$(readlink $SCST/devices/"$hctl"/handler | sed 's|.*/||')" dev_disk "handler link"
assert_eq "$(attr_value $SCST/devices/"$hctl"/type | cut -d" " -f1)" 0 "device type"
ls $SCST/devices/"$hctl"/exported | grep_q . || fail "not listed as exported"
[ -e $SCST/devices/"$hctl"/threads_num ] || fail "no threads_num"
mgmt_bad $H/mgmt "add_device $hctl" -17
# the same SCSI device under another spelling of its LUN
mgmt_bad $H/mgmt "add_device ${hctl%:*}:0${hctl##*:}" -17

identity_checks
fio_checks 512
# the copy path a queue that refuses the core's pages takes
echo 1 > /sys/module/scst_disk/parameters/bounce_all
fio_run bounce --filename="$remote_disk" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=512-1M --iodepth=8 --size=4M --offset=16M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
same "standard INQUIRY, copied" sg_inq -r
echo 0 > /sys/module/scst_disk/parameters/bounce_all
medium_error_check
oversize_check
reserve_check
timeout_check
lun_reset_check
lun_reset_stuck_check
alua_check

unexport_disk
mgmt $H/mgmt "del_device $hctl"
[ -e $SCST/devices/"$hctl" ] && fail "device left after del_device"
run modprobe -r scsi_debug

# --- 4096-byte sectors, then hot removal under fio -----------------------
sdebug_load 4096
export_disk
identity_checks
fio_checks 4k
medium_error_check

fio --name=hot --filename="$remote_disk" --ioengine=libaio --direct=1 \
	--rw=randread --bs=4k --iodepth=16 --runtime=20 --time_based \
	--minimal > /tmp/hot.out 2>&1 &
fio_pid=$!
sleep 2
log "+ delete $hctl under fio"
echo 1 > /sys/bus/scsi/devices/"$hctl"/delete
# fio ends: its I/O errors out (hang detector: 60 s where it would hang)
for ((i = 0; i < 600; i++)); do
	kill -0 $fio_pid 2>/dev/null || break
	sleep 0.1
done
kill -0 $fio_pid 2>/dev/null && fail "fio still running 60 s after the device was deleted"
wait $fio_pid && log "fio ended without an error" || log "fio ended with errors, as expected"
assert_eq "$(attr_value $SCST/devices/"$hctl"/state)" removed "state after delete"
out=$(sense_of sg_raw -v "$remote_sg" 00 00 00 00 00 00)
echo "$out"
grep -qi 'not supported\|not ready' <<< "$out" || fail "TEST UNIT READY after delete: $out"
unexport_disk
mgmt $H/mgmt "del_device $hctl"
run modprobe -r scsi_debug

# --- two request tags: only what finds none waits on a device thread ---
# dev_disk takes a request tag without waiting where a command arrives
# (exec_inline_first) and hands a command that finds none free to the
# device's threads, which wait for one. The threads' wake-ups (their
# voluntary context switches) show which path the commands took.
thread_switches() {
	local p n=0
	for p in $(attr_value $SCST/devices/"$hctl"/thread_pids); do
		n=$((n + $(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/"$p"/status)))
	done
	echo "$n"
}
sdebug_load 512 host_max_queue=2
export_disk
[ -n "$(attr_value $SCST/devices/"$hctl"/thread_pids)" ] || fail "no device threads"
sw=$(thread_switches)
fio_run inline --filename="$remote_disk" --ioengine=libaio --direct=1 \
	--rw=randread --bs=4k --iodepth=1 --size=4M --number_ios=500
assert_eq "$(thread_switches)" "$sw" "device thread wake-ups at QD 1 (a tag always free)"
# each command held a jiffy in the device: 16 in flight, 2 tags
echo 1 > $SDEBUG/delay
fio_run starved --filename="$remote_disk" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=4k --iodepth=16 --size=4M --number_ios=400 \
	--verify=crc32c --do_verify=1 --verify_fatal=1
echo 0 > $SDEBUG/delay
[ "$(thread_switches)" -gt "$sw" ] || fail "no command waited for a tag on a device thread"
log "device thread wake-ups with 2 tags at QD 16: $(($(thread_switches) - sw))"
unexport_disk
mgmt $H/mgmt "del_device $hctl"
run modprobe -r scsi_debug

# --- not a disk: refused with its type ---------------------------------
sdebug_load 512 ptype=1
mgmt_bad $H/mgmt "add_device $hctl" -22
dmesg | grep_q "peripheral device type 0x1 (tape)" || fail "no log line naming the type"
run modprobe -r scsi_debug

run rmmod scst_disk
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
exit 0
