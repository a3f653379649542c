#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bounded resources (issue 9): the maximum transfer size (scst.ko's
# max_transfer_kb parameter, devices/<dev>/max_transfer_kb) is reported in
# the Block Limits VPD page and enforced with INVALID FIELD IN CDB and a
# field pointer on the length; allocation-length commands answer what they
# build whatever length the initiator offers; an LBA equal to the capacity
# is out of range even with no block to transfer; a block device that is
# exported, mounted or swapped on is not opened a second time.
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=2 rd_size=65536

# --- the module parameter: refused out of range, as loaded and at run time
expect_fail modprobe scst max_transfer_kb=63
expect_fail modprobe scst max_transfer_kb=65537
expect_fail modprobe scst max_transfer_kb=8M
run modprobe scst max_transfer_kb=4096
P=/sys/module/scst/parameters/max_transfer_kb
assert_eq "$(cat $P)" 4096 "max_transfer_kb as loaded"
expect_fail sh -c "echo 70000 > $P"
assert_eq "$(cat $P)" 4096 "max_transfer_kb after a refused write"
run modprobe scst_vdisk
run modprobe scst_local add_default_tgt=0

H=$SCST/handlers
mgmt $H/vdisk_blockio/mgmt "add_device small filename=/dev/ram0"
assert_eq "$(attr_value $SCST/devices/small/max_transfer_kb)" 4096 "device default from the parameter"
assert_eq "$(sed -n 2p $SCST/devices/small/max_transfer_kb)" "[key]" "non-default max_transfer_kb is a [key]"
run sh -c "echo 8192 > $P"
mgmt $H/vdisk_nullio/mgmt "add_device big size_mb=1024; blocksize=4096"
assert_eq "$(cat $SCST/devices/big/max_transfer_kb)" 8192 "default max_transfer_kb, no [key]"

# --- exclusive open of the backing block device ------------------------------
mgmt_bad $H/vdisk_blockio/mgmt "add_device dup filename=/dev/ram0" -16
mgmt_bad $H/vdisk_fileio/mgmt "add_device dup filename=/dev/ram0" -16
dmesg | grep_q 'dup: block device /dev/ram0 is in use' || fail "no log line for the EBUSY"
run mkswap /dev/ram1
run swapon /dev/ram1
mgmt_bad $H/vdisk_blockio/mgmt "add_device swapped filename=/dev/ram1" -16
run swapoff /dev/ram1
mgmt $H/vdisk_blockio/mgmt "add_device swapped filename=/dev/ram1"
expect_fail swapon /dev/ram1
mgmt $H/vdisk_blockio/mgmt "del_device swapped"

mgmt $SCST/targets/scst_local/mgmt "add_target tgt1"
T=$SCST/targets/scst_local/tgt1
mgmt $T/luns/mgmt "add small 0"
mgmt $T/luns/mgmt "add big 1"
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 host1"
wait_for 10 "scst_local host" local_host tgt1 host1 > /dev/null
host=$(local_host tgt1 host1)
wait_lun "$host" 0
wait_lun "$host" 1
sg0=$(lun_sg "$host" 0)
sg1=$(lun_sg "$host" 1)
for sg in "$sg0" "$sg1"; do
	sg_turs "$sg" > /dev/null 2>&1 || sg_turs "$sg" > /dev/null 2>&1 || true
done

# expect_sense WHAT PATTERN... -- CMD: the command's output matches every
# pattern (sense key, additional sense, field pointer).
expect_sense() {
	local what=$1 out p
	shift
	local pats=()
	while [ "$1" != -- ]; do
		pats+=("$1")
		shift
	done
	shift
	out=$("$@" 2>&1) && fail "$what: succeeded: $out"
	for p in "${pats[@]}"; do
		grep -qi -- "$p" <<< "$out" || fail "$what: no '$p' in: $out"
	done
	log "$what: refused as it must"
}

good() {
	local what=$1 out
	shift
	out=$("$@" 2>&1) || fail "$what: $out"
	log "$what: ok"
}

# --- Block Limits VPD page (SBC-3 6.5.3) ------------------------------------
bl=$(sg_vpd --page=0xb0 "$sg1") || fail "sg_vpd 0xb0"
grep -Eqi 'maximum transfer length: 2048 blocks' <<< "$bl" || fail "B0 max transfer, 4K blocks: $bl"
# opt_trans_len's default, 524288 bytes (SCST's), in 4 KiB blocks
grep -Eqi 'optimal transfer length: 128 blocks' <<< "$bl" || fail "B0 optimal transfer: $bl"
grep -Eqi 'maximum write same length: (0x800|2048) blocks' <<< "$bl" || fail "B0 max write same: $bl"
bl=$(sg_vpd --page=0xb0 "$sg0")
grep -Eqi 'maximum transfer length: 8192 blocks' <<< "$bl" || fail "B0 max transfer, 4096 KiB: $bl"

# --- transfers over the limit: INVALID FIELD IN CDB on the length field ------
# READ(16) of 2049 blocks of 4 KiB, no data-in buffer offered
expect_sense "READ(16) over the limit" 'Illegal Request' 'Invalid field in cdb' 'byte 10' -- \
	sg_raw "$sg1" 88 00 00 00 00 00 00 00 00 00 00 00 08 01 00 00
# READ(16) of 2^24 blocks with a buffer that size would be (the bytes do not
# fit 32 bits): refused as well
expect_sense "READ(16) of 2^24 blocks" 'Illegal Request' 'Invalid field in cdb' 'byte 10' -- \
	sg_raw "$sg1" 88 00 00 00 00 00 00 00 00 00 01 00 00 00 00 00
# WRITE(10) of 2049 blocks, VERIFY(16) without data, WRITE SAME(16)
expect_sense "WRITE(10) over the limit" 'Illegal Request' 'Invalid field in cdb' 'byte 7' -- \
	sg_raw "$sg1" 2a 00 00 00 00 00 00 08 01 00
expect_sense "VERIFY(16) over the limit" 'Illegal Request' 'Invalid field in cdb' 'byte 10' -- \
	sg_raw "$sg1" 8f 00 00 00 00 00 00 00 00 00 00 00 08 01 00 00
expect_sense "WRITE SAME(16) over the limit" 'Illegal Request' 'Invalid field in cdb' 'byte 10' -- \
	sg_raw -s 4096 -i /dev/zero "$sg1" 93 00 00 00 00 00 00 00 00 00 00 00 08 01 00 00
good "WRITE SAME(16) at the limit" \
	sg_raw -s 4096 -i /dev/zero "$sg1" 93 00 00 00 00 00 00 00 00 00 00 00 08 00 00 00

# the limit follows the attribute at run time
for bad in abc 0 63 65537 ""; do
	expect_fail sh -c "echo '$bad' > $SCST/devices/big/max_transfer_kb"
done
assert_eq "$(cat $SCST/devices/big/max_transfer_kb)" 8192 "max_transfer_kb after refused writes"
run sh -c "echo 64 > $SCST/devices/big/max_transfer_kb"
sg_vpd --page=0xb0 "$sg1" | grep -Eqi 'maximum transfer length: 16 blocks' || fail "B0 after max_transfer_kb=64"
good "READ(10) of 16 blocks with max_transfer_kb=64" \
	sg_raw -r 65536 "$sg1" 28 00 00 00 00 00 00 00 10 00
expect_sense "READ(10) of 17 blocks with max_transfer_kb=64" 'Illegal Request' 'Invalid field in cdb' 'byte 7' -- \
	sg_raw -r 69632 "$sg1" 28 00 00 00 00 00 00 00 11 00
run sh -c "echo 8192 > $SCST/devices/big/max_transfer_kb"
[ "$(wc -l < $SCST/devices/big/max_transfer_kb)" = 1 ] || fail "default max_transfer_kb shows [key]"

# --- allocation lengths: what is built, whatever is offered ------------------
avail_before=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)
for i in $(seq 1 50); do
	sg_raw -r 65535 "$sg0" 12 00 00 ff ff 00 > /dev/null 2>&1 || fail "INQUIRY with allocation length 65535"
	sg_raw -r 65536 "$sg0" a0 00 00 00 00 00 ff ff ff ff 00 00 > /dev/null 2>&1 ||
		fail "REPORT LUNS with allocation length 4 GiB"
	sg_raw -r 65536 "$sg0" a3 0c 00 00 00 00 ff ff ff ff 00 00 > /dev/null 2>&1 ||
		fail "REPORT SUPPORTED OPERATION CODES with allocation length 4 GiB"
done
avail_after=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)
log "MemAvailable: ${avail_before} kB before, ${avail_after} kB after"
[ $((avail_before - avail_after)) -lt 16384 ] || fail "allocation-length commands cost $((avail_before - avail_after)) kB"
out=$(sg_raw -r 65536 "$sg0" a0 00 00 00 00 00 ff ff ff ff 00 00 2>&1)
grep -q 'Received 24 bytes' <<< "$out" || fail "REPORT LUNS data (2 LUNs): $out"
out=$(sg_raw -v -r 65535 "$sg0" 12 00 00 ff ff 00 2>&1)
grep -q 'Received 74 bytes' <<< "$out" || fail "INQUIRY returned: $out"

# --- LBA == capacity, zero blocks: out of range (SBC-3 4.5) ------------------
# small: 64 MiB of 512-byte blocks, 131072 blocks
good "READ(10) of 0 blocks at the last LBA" sg_raw "$sg0" 28 00 00 01 ff ff 00 00 00 00
expect_sense "READ(10) of 0 blocks at LBA == capacity" 'Illegal Request' 'Logical block address out of range' -- \
	sg_raw "$sg0" 28 00 00 02 00 00 00 00 00 00
expect_sense "WRITE(10) of 0 blocks at LBA == capacity" 'Illegal Request' 'Logical block address out of range' -- \
	sg_raw "$sg0" 2a 00 00 02 00 00 00 00 00 00
expect_sense "SYNCHRONIZE CACHE(10) at LBA == capacity" 'Illegal Request' 'Logical block address out of range' -- \
	sg_raw "$sg0" 35 00 00 02 00 00 00 00 00 00

# --- ordinary I/O still works, through the page-chained buffers ---------------
run dd if=/dev/urandom of=/tmp/pattern bs=1M count=8 status=none
disk0=$(lun_disk "$host" 0)
run dd if=/tmp/pattern of="$disk0" bs=4M oflag=direct status=none
cmp <(dd if="$disk0" bs=4M count=2 iflag=direct status=none) /tmp/pattern || fail "data read back differs"

mgmt $SCST/targets/scst_local/mgmt "del_target tgt1"
mgmt $H/vdisk_blockio/mgmt "del_device small"
mgmt $H/vdisk_nullio/mgmt "del_device big"
run rmmod scst_local scst_vdisk scst
log "core-limits passed"
