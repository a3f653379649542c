#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SCST 3.11's vdisk knobs through scst_local, checked on the wire with
# sg3_utils: lb_per_pb_exp (READ CAPACITY(16)) and opt_trans_len (VPD
# B0h), blocksize 1024 and 2048, nullio read_zero and dummy, size and
# size_mb written on a live device (CAPACITY DATA HAS CHANGED), active=0
# (NOT READY, MEDIUM NOT PRESENT) and back, filename switched while
# inactive (the new file's data), active=0 with a command stuck in the
# backing store (EBUSY after close_timeout, closed by the next write once
# it ended), cluster_mode without t10_dev_id and dif_* refused by name.
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=16384
scst_local_load
run truncate -s 32M /tmp/k1.img
head -c 1M /dev/urandom > /tmp/k2.img
run truncate -s 16M /tmp/k2.img
head -c 1M /dev/urandom > /tmp/k3.img
run truncate -s 24M /tmp/k3.img
head -c 1M /dev/urandom > /tmp/k4.img
run truncate -s 8M /tmp/k4.img

H=$SCST/handlers
D=$SCST/devices
chk() { # FILE LINE1 [LINE2]
	assert_eq "$(sed -n 1p "$1")" "$2" "$1 value"
	assert_eq "$(sed -n 2p "$1")" "${3:-}" "$1 key line"
}
bad_attr() { # FILE VALUE: the write is refused, the value stays
	local before
	before=$(cat "$1")
	log "+ echo '$2' > ${1#"$SCST"/}   (must fail)"
	echo "$2" > "$1" 2>/dev/null && fail "$1 accepted '$2'"
	assert_eq "$(cat "$1")" "$before" "$1 after a refused write"
}
set_attr() { # FILE VALUE
	log "+ echo '$2' > ${1#"$SCST"/}"
	echo "$2" > "$1" || fail "$1 refused '$2'"
}
# ua SG TEXT: the next TEST UNIT READY reports that unit attention
ua() {
	local out
	out=$(sense_of sg_turs -v "$1")
	grep -qi "$2" <<< "$out" || fail "$1: no '$2' unit attention: $out"
	clear_ua "$1"
}
# exp DEV: READ CAPACITY(16)'s LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT
lbexp() {
	sg_readcap -l "$1" | sed -n 's/.*per physical block exponent=\([0-9]*\).*/\1/p'
}
# vpd_bl DEV FIELD: a number of VPD page B0h as sg_vpd prints it
vpd_bl() {
	sg_vpd -p bl "$1" | sed -n "s/^ *$2: \([0-9]*\).*/\1/p" | head -n 1
}

# --- refused at add_device, by name, with the reason -------------------------
before=$(tree_snapshot)
mgmt_bad $H/vdisk_blockio/mgmt "add_device e1 filename=/dev/ram0; cluster_mode=1" -22
dmesg | grep_q 'e1: cluster_mode=1: set t10_dev_id too, the same on every node' ||
	fail "cluster_mode=1 refused without its reason"
mgmt_bad $H/vdisk_fileio/mgmt "add_device e1 filename=/tmp/k1.img; dif_mode=dev_check" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 dif_type=1" -22
dmesg | grep_q 'e1: dif_type=1: T10 protection information (DIF) is not supported' ||
	fail "dif_type refused without its reason"
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 blocksize=1536" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 opt_trans_len=1000" -22
mgmt_bad $H/vdisk_fileio/mgmt "add_device e1 filename=/tmp/k1.img; blocksize=4096; opt_trans_len=6144" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 numa_node_id=1000" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 active=0" -22
mgmt_bad $H/vdisk_fileio/mgmt "add_device e1 filename=/tmp/k1.img; read_zero=1" -22
after=$(tree_snapshot)
[ "$before" = "$after" ] || fail "a refused add_device changed the tree"

# --- devices ------------------------------------------------------------------
mgmt $H/vdisk_nullio/mgmt "add_device nz size_mb=16; read_zero=1; numa_node_id=0; cluster_mode=0"
mgmt $H/vdisk_nullio/mgmt "add_device nd size_mb=1; dummy=1"
mgmt $H/vdisk_fileio/mgmt "add_device f1 filename=/tmp/k1.img; blocksize=2048; opt_trans_len=1048576"
mgmt $H/vdisk_fileio/mgmt "add_device f2 filename=/tmp/k2.img; active=0"
mgmt $H/vdisk_blockio/mgmt "add_device b1 filename=/dev/ram0; bind_alua_state=0"
mgmt $H/vdisk_nullio/mgmt "add_device nk size_mb=4; blocksize=1024; lb_per_pb_exp=0"

chk $D/nz/read_zero 1 "[key]"
chk $D/nz/numa_node_id 0 "[key]"
chk $D/nz/cluster_mode 0
chk $D/nz/lb_per_pb_exp 1
chk $D/nz/opt_trans_len 524288
chk $D/nd/dummy 1 "[key]"
chk $D/f1/opt_trans_len 1048576 "[key]"
chk $D/f1/blocksize 2048 "[key]"
chk $D/f1/active 1
chk $D/f1/numa_node_id -1
chk $D/f2/active 0 "[key]"
chk $D/f2/size 0
chk $D/b1/bind_alua_state 0 "[key]"
chk $D/nk/lb_per_pb_exp 0 "[key]"
chk $D/nk/blocksize 1024 "[key]"
[ ! -e $D/f1/bind_alua_state ] || fail "fileio has bind_alua_state"
[ ! -e $D/nz/active ] || fail "nullio has active"
[ ! -e $D/f1/read_zero ] || fail "fileio has read_zero"

local_target tk s1 "nz 0" "f1 2" "b1 4" "nk 5"
mgmt $T/luns/mgmt "add nd 1"
mgmt $T/luns/mgmt "add f2 3"
# the host scans again: nd (dummy) must stay without a disk, f2 gets one
echo "- - -" > /sys/class/scsi_host/host$host/scan
wait_lun "$host" 3
nz=$(lun_disk "$host" 0); f1=$(lun_disk "$host" 2); b1=$(lun_disk "$host" 4)
nk=$(lun_disk "$host" 5)
sg_nz=$(lun_sg "$host" 0); sg_f1=$(lun_sg "$host" 2); sg_f2=$(lun_sg "$host" 3)
sg_nk=$(lun_sg "$host" 5)
log "nz $nz f1 $f1 b1 $b1 nk $nk; f2 $sg_f2"
for s in "$sg_nz" "$sg_f1" "$sg_f2" "$(lun_sg "$host" 4)" "$sg_nk"; do
	clear_ua "$s"
done

# --- dummy: PERIPHERAL QUALIFIER 1, no disk for the LUN -----------------------
sg_luns "$sg_nz" | grep_q '0001000000000000' || fail "REPORT LUNS does not list LUN 1"
[ ! -e /sys/bus/scsi/devices/$host:0:0:1 ] || fail "the host added the dummy LUN 1"

# --- lb_per_pb_exp: READ CAPACITY(16) byte 13, as SCST derives it ------------
assert_eq "$(lbexp "$nz")" 3 "nullio 512: a 4096-byte physical block"
assert_eq "$(lbexp "$f1")" 1 "fileio 2048: a 4096-byte physical block"
pbs=$(cat /sys/block/ram0/queue/physical_block_size)
e=0; while [ $((512 << (e + 1))) -le "$pbs" ]; do e=$((e + 1)); done
assert_eq "$(lbexp "$b1")" "$e" "blockio: ram0's physical block of $pbs"
assert_eq "$(lbexp "$nk")" 0 "lb_per_pb_exp=0"
sg_readcap -l "$nk" | grep_q 'Logical block length=1024' || fail "blocksize 1024"
assert_eq "$(vpd_bl "$nz" 'Optimal transfer length granularity')" 8 "B0 granularity nz"
assert_eq "$(vpd_bl "$nk" 'Optimal transfer length granularity')" 1 "B0 granularity nk"
set_attr $D/nz/lb_per_pb_exp 0
chk $D/nz/lb_per_pb_exp 0 "[key]"
ua "$sg_nz" 'capacity data has changed'
assert_eq "$(lbexp "$nz")" 0 "lb_per_pb_exp written 0"
bad_attr $D/nz/lb_per_pb_exp 2
bad_attr $D/nz/lb_per_pb_exp ""
set_attr $D/nz/lb_per_pb_exp 1
chk $D/nz/lb_per_pb_exp 1
ua "$sg_nz" 'capacity data has changed'
assert_eq "$(lbexp "$nz")" 3 "lb_per_pb_exp written 1"

# --- opt_trans_len: OPTIMAL TRANSFER LENGTH of VPD B0h ------------------------
max=$(vpd_bl "$nz" 'Maximum transfer length')
want=$((524288 / 512)); [ "$max" -lt "$want" ] && want=$max
assert_eq "$(vpd_bl "$nz" 'Optimal transfer length')" "$want" "default opt_trans_len (max $max)"
max=$(vpd_bl "$f1" 'Maximum transfer length')
want=$((1048576 / 2048)); [ "$max" -lt "$want" ] && want=$max
assert_eq "$(vpd_bl "$f1" 'Optimal transfer length')" "$want" "opt_trans_len=1048576 of 2048-byte blocks"
set_attr $D/nz/opt_trans_len 65536
chk $D/nz/opt_trans_len 65536 "[key]"
ua "$sg_nz" 'inquiry data has changed'
assert_eq "$(vpd_bl "$nz" 'Optimal transfer length')" 128 "opt_trans_len written"
bad_attr $D/nz/opt_trans_len 1000
bad_attr $D/f1/opt_trans_len 1024
bad_attr $D/nz/opt_trans_len 4294967296
bad_attr $D/nz/opt_trans_len abc

# --- read_zero: reads of a nullio device are zeros ---------------------------
run dd if=/dev/urandom of="$nz" bs=4096 count=16 oflag=direct status=none
dd if="$nz" bs=4096 count=16 iflag=direct status=none | cmp -s - <(head -c 65536 /dev/zero) ||
	fail "nullio read_zero=1 read back non-zero data"
set_attr $D/nz/read_zero 0
chk $D/nz/read_zero 0
dd if="$nz" bs=4096 count=16 iflag=direct status=none | cmp -s - <(head -c 65536 /dev/zero) ||
	fail "nullio read_zero=0 returned stale data"
bad_attr $D/nz/read_zero 2

# --- size and size_mb on a live device ---------------------------------------
set_attr $D/nz/size_mb 32
chk $D/nz/size 33554432 "[key]"
ua "$sg_nz" 'capacity data has changed'
sg_readcap -l "$sg_nz" | grep_q 'Number of logical blocks=65536' || fail "nullio resized to 32 MiB"
set_attr $D/nz/size 8388608
ua "$sg_nz" 'capacity data has changed'
sg_readcap -l "$sg_nz" | grep_q 'Number of logical blocks=16384' || fail "nullio resized to 8 MiB"
bad_attr $D/nz/size 1000
bad_attr $D/nz/size 0
bad_attr $D/nz/size_mb 9999999999999999
set_attr $D/f1/size 16777216
ua "$sg_f1" 'capacity data has changed'
sg_readcap -l "$sg_f1" | grep_q 'Number of logical blocks=8192' || fail "fileio resized to 16 MiB"
bad_attr $D/f1/size 67108864	# more than the file has
bad_attr $D/f1/size 16777728	# not whole 2048-byte blocks
run sh -c "echo 1 > $D/f1/resync_size"
chk $D/f1/size 33554432
ua "$sg_f1" 'capacity data has changed'

# --- active=0: NOT READY, MEDIUM NOT PRESENT; filename switched; active=1 -----
# never opened: no capacity yet, so the core's range check answers first
out=$(sense_of sg_raw -v -r 512 "$sg_f2" 28 00 00 00 00 00 00 00 01 00)
grep -qi 'out of range' <<< "$out" || fail "READ of a never opened device: $out"
out=$(sense_of sg_readcap -v "$sg_f2")
grep -qi 'medium not present' <<< "$out" || fail "READ CAPACITY of an inactive device: $out"
sg_inq "$sg_f2" | grep_q 'Vendor identification: SCST_FIO' || fail "INQUIRY of an inactive device"
echo 1 > $D/f2/resync_size 2>/dev/null && fail "resync_size of an inactive device"
bad_attr $D/f2/size 1048576
bad_attr $D/f2/filename relative.img
set_attr $D/f2/filename /tmp/k3.img
chk $D/f2/filename /tmp/k3.img "[key]"
set_attr $D/f2/active 1
chk $D/f2/active 1
chk $D/f2/size 25165824
ua "$sg_f2" 'capacity data has changed'
sg_readcap -l "$sg_f2" | grep_q 'Number of logical blocks=49152' || fail "capacity of /tmp/k3.img"
run sg_raw -r 4096 -o /tmp/k.out "$sg_f2" 28 00 00 00 00 10 00 00 08 00
cmp -s /tmp/k.out <(dd if=/tmp/k3.img bs=512 skip=16 count=8 status=none) ||
	fail "active=1 does not read the new file's data"
bad_attr $D/f2/filename /tmp/k4.img	# only while inactive
# deactivate under reads: the write waits for them, then they fail
(while sg_raw -r 65536 "$sg_f2" 28 00 00 00 00 00 00 00 80 00 >/dev/null 2>&1; do :; done) &
reader=$!
sleep 1
set_attr $D/f2/active 0
wait $reader
chk $D/f2/active 0 "[key]"
out=$(sense_of sg_raw -v -r 512 "$sg_f2" 28 00 00 00 00 00 00 00 01 00)
grep -qi 'medium not present' <<< "$out" || fail "READ after active=0: $out"
set_attr $D/f2/filename /tmp/k4.img
set_attr $D/f2/active 1
ua "$sg_f2" 'capacity data has changed'
run sg_raw -r 4096 -o /tmp/k.out "$sg_f2" 28 00 00 00 00 00 00 00 08 00
cmp -s /tmp/k.out <(head -c 4096 /tmp/k4.img) || fail "the switched file's data"
bad_attr $D/f2/active 2
mgmt_bad $H/vdisk_fileio/mgmt "add_device e2 filename=/tmp/k1.img; active=0; dif_filename=/tmp/x" -22

# --- cluster_mode and the rest ----------------------------------------------
bad_attr $D/f1/cluster_mode 1
dmesg | grep_q 'f1: cluster_mode: set t10_dev_id first, the same on every node' ||
	fail "cluster_mode=1 written without its reason"
set_attr $D/f1/cluster_mode 0
set_attr $D/b1/bind_alua_state 1
chk $D/b1/bind_alua_state 1
bad_attr $D/b1/bind_alua_state x

# --- active=0 with a command stuck in the backing store -----------------------
# a blockio device on scsi_debug whose reads take 8 s: active=0 waits
# close_timeout (2 s here) and returns EBUSY; the device is inactive
# meanwhile, its store open; once the read ended, active=0 again closes
# it, and active=1 serves again
HZ=${KERNEL_HZ:-250}
sdebug_load dev_size_mb=8
sdisk=$(sdebug_disk)
mgmt $H/vdisk_blockio/mgmt "add_device bs filename=$sdisk"
mgmt $T/luns/mgmt "add bs 9"
echo "- - -" > /sys/class/scsi_host/host$host/scan
wait_lun "$host" 9
sg_bs=$(lun_sg "$host" 9)
clear_ua "$sg_bs"
echo 2 > /sys/module/scst_vdisk/parameters/close_timeout
echo $((8 * HZ)) > /sys/bus/pseudo/drivers/scsi_debug/delay
sg_raw -r 4096 "$sg_bs" 28 00 00 00 00 00 00 00 08 00 > /dev/null 2>&1 &
stuck=$!
sleep 1
t0=$(date +%s)
log "+ echo 0 > devices/bs/active   (must fail: a read in the store)"
echo 0 > $D/bs/active 2> /tmp/k.err && fail "active=0 returned with a read in the backing store"
grep -qi 'busy' /tmp/k.err || fail "active=0 with a read in the store: $(cat /tmp/k.err)"
[ $(($(date +%s) - t0)) -le 6 ] || fail "active=0 waited past close_timeout"
dmesg | grep_q "bs: active=0: commands still in $sdisk after 2 s" ||
	fail "no log line for the stuck close"
chk $D/bs/active 0 "[key]"
out=$(sense_of sg_raw -v -r 512 "$sg_bs" 28 00 00 00 00 00 00 00 01 00)
grep -qi 'medium not present' <<< "$out" || fail "READ while the close is pending: $out"
bad_attr $D/bs/filename /dev/ram0	# the old store is not closed yet
echo 0 > /sys/bus/pseudo/drivers/scsi_debug/delay
wait $stuck || fail "the stuck read failed"
set_attr $D/bs/active 0
dmesg | grep_q "bs: inactive: $sdisk closed" || fail "the pending close did not happen"
set_attr $D/bs/active 1
clear_ua "$sg_bs"
run sg_raw -r 4096 "$sg_bs" 28 00 00 00 00 00 00 00 08 00
echo 30 > /sys/module/scst_vdisk/parameters/close_timeout
mgmt $T/luns/mgmt "del 9"
mgmt $H/vdisk_blockio/mgmt "del_device bs"

# --- scstadmin applies a DEVICE block's knobs ---------------------------------
# add_device parameters where the handler lists them, attribute writes
# after creation for the others
command -v scstadmin > /dev/null || fail "scstadmin is not in the guest"
cat > /tmp/knobs.conf <<'EOF'
HANDLER vdisk_nullio {
	DEVICE sa1 {
		size_mb 8
		blocksize 2048
		read_zero 1
		dummy 0
		lb_per_pb_exp 0
		opt_trans_len 262144
		numa_node_id 0
		cluster_mode 0
	}
}
HANDLER vdisk_fileio {
	DEVICE sa2 {
		filename /tmp/k1.img
		active 0
		opt_trans_len 1048576
	}
}
EOF
run scstadmin -check_config /tmp/knobs.conf
run scstadmin -config /tmp/knobs.conf
chk $D/sa1/size 8388608 "[key]"
chk $D/sa1/blocksize 2048 "[key]"
chk $D/sa1/read_zero 1 "[key]"
chk $D/sa1/lb_per_pb_exp 0 "[key]"
chk $D/sa1/opt_trans_len 262144 "[key]"
chk $D/sa1/numa_node_id 0 "[key]"
chk $D/sa2/active 0 "[key]"
chk $D/sa2/opt_trans_len 1048576 "[key]"
# written back, the file applies again
run scstadmin -write_config /tmp/knobs2.conf
grep_q -x $'\t\tlb_per_pb_exp 0' /tmp/knobs2.conf || fail "-write_config lost lb_per_pb_exp"
out=$(scstadmin -config /tmp/knobs2.conf 2>&1) || fail "second apply failed: $out"
# a file with what cannot be honoured is refused (by scstadmin, with the
# line), nothing created
printf 'HANDLER vdisk_nullio {\n\tDEVICE sa3 {\n\t\tdif_mode dev_check\n\t}\n}\n' > /tmp/bad.conf
out=$(scstadmin -config /tmp/bad.conf 2>&1) && fail "dif_mode dev_check applied: $out"
log "$out"
grep -q "bad.conf:3: DEVICE sa3 of vdisk_nullio: 'dif_mode dev_check' cannot be honoured" <<< "$out" ||
	fail "scstadmin did not name the line: $out"
[ ! -e $D/sa3 ] || fail "sa3 created with dif_mode dev_check"
mgmt $H/vdisk_nullio/mgmt "del_device sa1"
mgmt $H/vdisk_fileio/mgmt "del_device sa2"

# --- teardown -----------------------------------------------------------------
mgmt $SCST/targets/scst_local/mgmt "del_session tk s1"
for d in nz nd nk; do mgmt $H/vdisk_nullio/mgmt "del_device $d"; done
mgmt $H/vdisk_fileio/mgmt "del_device f1"
mgmt $H/vdisk_fileio/mgmt "del_device f2"
mgmt $H/vdisk_blockio/mgmt "del_device b1"
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
run rmmod scsi_debug
log "vdisk-knobs passed"
exit 0
