#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fault injection confined to our modules, on the debug kernel (the debug
# lane of scripts/check; it fails on a kernel without fault injection):
#  - failslab on our own slab caches only (cache-filter; the caches get
#    the failslab mark at creation from slub_debug=A,... below, as 6.1
#    cannot set it in sysfs), and fail_function on our allocation
#    helpers that carry ALLOW_ERROR_INJECTION, at FI_PROB percent;
#  - fail_make_request on the disk under a dev_disk LU.
# While they fail, the test drives: fio on every vdisk kind through
# scst_local, LUN add/remove and add_device/del_device under that I/O,
# LUN and target resets, PR OUT with APTPL, SRP login/logout loops, and
# dev_disk I/O. It passes when every command got an answer (fio and
# sg3_utils return within their timeouts, the sessions' active_commands go
# back to 0), data written once the injection stopped verifies, the
# faults were really injected (the attributes' "times" count them), and
# the modules unload;
# the harness adds the kmemleak scan and the splat check.
# vm-append: slub_debug=A,scst_cmd,srpt_req,srpt_rsp
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/fio.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh

DBG=/sys/kernel/debug
FI_PROB=${FI_PROB:-5}
# functions of ours that fail_function may fail (ALLOW_ERROR_INJECTION);
# each is used when its module is loaded, i.e. listed in "injectable"
FI_FUNCS=(scst_cmd_alloc_data_buf scst_thread_add vdisk_alloc
	  disk_bounce_alloc srpt_ch_alloc srpt_alloc_rw_ctxs)
# our slab caches
FI_CACHES=(scst_cmd srpt_req srpt_rsp)

[ -d $DBG/fail_function ] && [ -d $DBG/failslab ] &&
	[ -d $DBG/fail_make_request ] ||
	fail "no fault injection in $(uname -r): run on the debug kernel (--kernel debug)"

# Each fault attribute's "times" counts down by one per failure forced
# (dmesg would count them too, but its ring drops lines under this load).
FI_TIMES=1000000
fi_counted=0

# fi_forced ATTR: failures ATTR forced since its times was set
fi_forced() {
	echo $((FI_TIMES - $(cat $DBG/$1/times)))
}

# injected: how many failures were forced so far (at the fi_off calls)
injected() {
	echo $fi_counted
}

# fi_on: start failing our allocations
fi_on() {
	local c f n=0

	echo Y > $DBG/failslab/cache-filter
	echo N > $DBG/failslab/ignore-gfp-wait
	# 6.1's failslab attribute is read-only: the caches carry the mark
	# from their creation (slub_debug=A above); a newer kernel takes it
	# in sysfs too
	for c in "${FI_CACHES[@]}"; do
		[ -e /sys/kernel/slab/$c/failslab ] || continue
		{ echo 1 > /sys/kernel/slab/$c/failslab; } 2> /dev/null
		[ "$(cat /sys/kernel/slab/$c/failslab)" = 1 ] ||
			fail "slab cache $c is not marked for failslab (slub_debug=A,$c)"
		n=$((n + 1))
	done
	echo $FI_TIMES > $DBG/failslab/times
	echo 0 > $DBG/failslab/verbose
	echo "$FI_PROB" > $DBG/failslab/probability

	echo > $DBG/fail_function/inject
	for f in "${FI_FUNCS[@]}"; do
		type=$(awk -v f="$f" '$1 == f { print $NF }' \
			$DBG/fail_function/injectable)
		[ -n "$type" ] || continue
		echo "$f" > $DBG/fail_function/inject ||
			fail "fail_function refuses $f"
		# an ERRNO function fails with -ENOMEM, a NULL one with NULL
		if [ "$type" = ERRNO ]; then
			printf '%#x\n' -12 > "$DBG/fail_function/$f/retval" ||
				fail "cannot set the return value of $f"
		fi
		n=$((n + 1))
	done
	echo $FI_TIMES > $DBG/fail_function/times
	echo 0 > $DBG/fail_function/verbose
	echo "$FI_PROB" > $DBG/fail_function/probability
	log "fault injection on: $n caches and functions at $FI_PROB%"
	[ $n -gt 0 ] || fail "nothing of ours to inject faults into"
}

fi_off() {
	local c

	echo 0 > $DBG/failslab/probability
	echo 0 > $DBG/fail_function/probability
	echo > $DBG/fail_function/inject
	fi_counted=$((fi_counted + $(fi_forced failslab) +
		      $(fi_forced fail_function)))
	log "fault injection off ($(injected) failures forced so far)"
}

# sessions_idle: every session of every target has no command left
sessions_idle() {
	local f
	for f in $SCST/targets/*/*/sessions/*/active_commands; do
		[ -e "$f" ] || continue
		[ "$(cat "$f")" = 0 ] || return 1
	done
}

all_idle() {
	wait_for 120 "every command to end" sessions_idle
}

run modprobe -a sd_mod sg
run modprobe brd rd_nr=2 rd_size=65536
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=64 status=none
scst_local_load
run modprobe scst_disk
H=$SCST/handlers

# --- scst_local: I/O, LUN and device changes, resets, PR with APTPL -----
mgmt $H/vdisk_blockio/mgmt "add_device fi_bio filename=/dev/ram0"
mgmt $H/vdisk_fileio/mgmt "add_device fi_fio filename=/tmp/fileio.img"
mgmt $H/vdisk_nullio/mgmt "add_device fi_null size_mb=64"
local_target fitgt fihost "fi_bio 0" "fi_fio 1" "fi_null 2"
bio=$(lun_disk "$host" 0)
fio=$(lun_disk "$host" 1)
null=$(lun_disk "$host" 2)
sg_bio=$(lun_sg "$host" 0)
for l in 0 1 2; do
	clear_ua "$(lun_sg "$host" $l)"
done

before=$(injected)
fi_on
for d in "$bio" "$fio" "$null"; do
	timeout -k 5 240 fio --name=fi --filename="$d" --direct=1 \
		--ioengine=libaio --rw=randrw --bsrange=4k-64k --iodepth=8 \
		--time_based --runtime=25 --continue_on_error=all \
		--output=/dev/null > /dev/null 2>&1 &
done
for i in $(seq 1 6); do
	# LUN add/remove and device add/del under I/O; a refused command
	# (an injected allocation failure) is a fine answer
	echo "add_device fi_x$i size_mb=8" > $H/vdisk_nullio/mgmt 2>/dev/null &&
		{ echo "add fi_x$i 5" > "$T/luns/mgmt" 2>/dev/null
		  sleep 1
		  echo "del 5" > "$T/luns/mgmt" 2>/dev/null
		  echo "del_device fi_x$i" > $H/vdisk_nullio/mgmt ||
			fail "del_device fi_x$i refused"; }
	answered 120 sg_reset -d "$sg_bio"
	answered 60 sg_persist -n --out --register --param-sark=0x$i --param-aptpl "$sg_bio"
	answered 60 sg_persist -n --out --register --param-rk=0x$i --param-sark=0 "$sg_bio"
	answered 60 sg_persist -n --in -k "$sg_bio"
done
answered 120 sg_reset -t "$sg_bio"
wait	# fio: timeout above fails it past 240 s, which the check below sees
fi_off
all_idle
local_n=$(($(injected) - before))
log "scst_local phase: $local_n failures injected"
[ "$local_n" -gt 0 ] || fail "no fault was injected in the scst_local phase"
# nothing half-made is left: the extra devices are gone, the LUNs remain
for i in $(seq 1 6); do
	[ ! -e $SCST/devices/fi_x$i ] || fail "device fi_x$i left behind"
done
[ ! -e "$T/luns/5" ] || fail "LUN 5 left behind"
# and the LUNs work: data written now verifies
for l in 0 1 2; do
	clear_ua "$(lun_sg "$host" $l)" 2> /dev/null || true
done
for d in "$bio" "$fio"; do
	run fio --name=after --filename="$d" --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --iodepth=8 --size=8m --verify=crc32c \
		--output=/dev/null
done

# --- dev_disk over a failing disk (fail_make_request) --------------------
sdebug_load dev_size_mb=32 max_luns=1
sd=$(sdebug_disk)
hctl=$(sdebug_hctl)
mgmt $H/dev_disk/mgmt "add_device $hctl"
mgmt "$T/luns/mgmt" "add $hctl 3"
# a LUN added to a live session: the initiator scans for it (Linux only
# logs REPORTED LUNS DATA HAS CHANGED; udev would rescan)
echo '- - -' > "/sys/class/scsi_host/host$host/scan"
wait_lun "$host" 3
ddisk=$(lun_disk "$host" 3)
clear_ua "$(lun_sg "$host" 3)"
before=$(injected)
echo 1 > "/sys/block/${sd#/dev/}/make-it-fail"
echo $FI_TIMES > $DBG/fail_make_request/times
echo 0 > $DBG/fail_make_request/verbose
echo 10 > $DBG/fail_make_request/probability
fi_on
answered 240 fio --name=fi-disk --filename="$ddisk" --direct=1 \
	--ioengine=libaio --rw=randrw --bsrange=4k-64k --iodepth=8 \
	--time_based --runtime=20 --continue_on_error=all --output=/dev/null
answered 120 sg_reset -d "$(lun_sg "$host" 3)"
fi_off
echo 0 > $DBG/fail_make_request/probability
echo 0 > "/sys/block/${sd#/dev/}/make-it-fail"
all_idle
disk_n=$(($(injected) - before + $(fi_forced fail_make_request)))
log "dev_disk phase: $disk_n failures injected"
[ "$disk_n" -gt 0 ] || fail "no fault was injected in the dev_disk phase"
clear_ua "$(lun_sg "$host" 3)" 2> /dev/null || true
run fio --name=after-disk --filename="$ddisk" --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=8 --size=4m --verify=crc32c \
	--output=/dev/null

mgmt "$T/luns/mgmt" "del 3"
mgmt $H/dev_disk/mgmt "del_device $hctl"
mgmt $SCST/targets/scst_local/mgmt "del_target fitgt"

# --- SRP: login/logout loops while the target's allocations fail --------
# A login allocates a few hundred requests and responses, so with faults
# on it always fails (the error path); odd rounds log in with faults on,
# even rounds log in cleanly and then run I/O and log out with faults on
# (commands and their buffers failing on a live channel). The LUN keeps
# what is written (brd), so the last check verifies data.
srpt_target_up rxe_setup_one
mgmt "$T/luns/mgmt" "add fi_bio 0"
run sh -c "echo 1 > '$T/enabled'"
module_loaded ib_srp || run modprobe ib_srp
wait_for 10 "ib_srp port" test -e "$(srp_initiator_sysfs)/add_target"
spec="id_ext=$id,ioc_guid=$id,dest=$SRP_DEST_IP:$SRP_PORT"
before=$(injected)
logins=0
for i in $(seq 1 8); do
	[ $((i % 2)) = 1 ] && fi_on
	if timeout 60 sh -c "echo '$spec' > '$(srp_initiator_sysfs)/add_target'" \
		2> /dev/null; then
		logins=$((logins + 1))
		[ $((i % 2)) = 0 ] && fi_on
		sleep 2
		for p in $(srp_remote_ports); do
			h=${p#port-}
			h=${h%%:*}
			for d in /sys/class/scsi_host/host"$h"/device/target*/*/block/*; do
				[ -e "$d" ] || continue
				answered 120 fio --name=fi-srp --filename=/dev/${d##*/} \
					--direct=1 --ioengine=libaio --rw=randrw \
					--bs=4k --iodepth=16 --time_based --runtime=5 \
					--continue_on_error=all --output=/dev/null
			done
			echo 1 > /sys/class/srp_remote_ports/"$p"/delete
		done
	fi
	wait_for 60 "SRP sessions to close" srpt_has_sessions "$T" 0
	fi_off
done
srp_n=$(($(injected) - before))
log "SRP phase: $logins of 8 logins accepted, $srp_n failures injected"
[ "$srp_n" -gt 0 ] || fail "no fault was injected in the SRP phase"
[ "$logins" -ge 4 ] || fail "only $logins of the 4 clean logins were accepted"
# without faults, a login works and data verifies
SRP_LOGIN_TRIES=25 srp_login "$id" "$id"
srp_wait_disks 1
run fio --name=after-srp --filename="$SRP_DISK" --direct=1 \
	--ioengine=libaio --rw=randwrite --bs=4k --iodepth=8 --size=8m \
	--verify=crc32c --output=/dev/null
srp_logout
all_idle

# --- the modules unload ------------------------------------------------
for m in scst_srpt scst_local scst_disk scst_vdisk scst; do
	run modprobe -r $m
done
log "fault injection: every command answered, modules unloaded"
exit 0
