#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SCST's target, group, session, device and root attributes (issue 32,
# items 2 and 4), through scst_local:
# - comment, aen_disabled, io_grouping_type of targets and groups: SCST's
#   syntax, default and "[key]" line, bad values refused with EINVAL and
#   nothing changed; io_grouping_type decides which nexuses share a
#   per-initiator FILEIO pool (threads counted in thread_pids);
# - addr_method, black_hole, forward_*: SCST's default only, other values
#   refused by name;
# - tst: 1 by default (SCST's vdisk), in the control mode page's TST
#   field, writable 0/1;
# - the session I/O counters grow by exactly the commands and KiB sg_dd
#   sends, the target's are their sums, a write zeroes a direction;
# - measure_latency: the latency files fill with 1 and stay as they are
#   with 0, a write zeroes them;
# - scstadmin -config applies TARGET and GROUP attributes.
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=16384
scst_local_load
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=16 status=none
H=$SCST/handlers
L=$SCST/targets/scst_local
D=$SCST/devices
mgmt $H/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt $H/vdisk_fileio/mgmt "add_device disk_fio filename=/tmp/fileio.img"

# wr FILE VALUE: the write must succeed
wr() {
	log "+ echo '$2' > ${1#"$SCST"/}"
	echo "$2" > "$1" || fail "write of '$2' to $1 refused"
}
# wr_bad FILE VALUE: the write must fail with EINVAL and change nothing
wr_bad() {
	local before out
	before=$(cat "$1")
	log "+ echo '$2' > ${1#"$SCST"/}   (must fail with EINVAL)"
	# one write(2) of it all: bash's printf would write line by line
	printf '%b\n' "$2" > /tmp/wr_bad.val
	out=$(dd if=/tmp/wr_bad.val of="$1" bs=8192 2>&1) &&
		fail "write of '$2' to $1 accepted"
	grep -q 'Invalid argument' <<< "$out" ||
		fail "write of '$2' to $1: '$out', expected EINVAL"
	assert_eq "$(cat "$1")" "$before" "$1 after the refused '$2'"
}

local_target ta ini1 "disk_bio 0"
sg=$(lun_sg "$host" 0)
clear_ua "$sg"

# --- comment ---------------------------------------------------------------
assert_eq "$(cat $T/comment)" "" "comment by default"
wr $T/comment "rack 4, row 2"
assert_eq "$(cat $T/comment)" "rack 4, row 2
[key]" "comment"
wr_bad $T/comment "$(printf 'x%.0s' $(seq 257))"
wr_bad $T/comment 'two\nlines'
wr_bad $T/comment 'esc\033[2J'
wr $T/comment "$(printf 'y%.0s' $(seq 256))"
assert_eq "$(attr_value $T/comment)" "$(printf 'y%.0s' $(seq 256))" \
	"a comment of 256 bytes"
wr $T/comment ""
assert_eq "$(cat $T/comment)" "" "comment cleared"

# --- aen_disabled ----------------------------------------------------------
assert_eq "$(cat $T/aen_disabled)" 0 "aen_disabled by default"
wr $T/aen_disabled 1
assert_eq "$(cat $T/aen_disabled)" "1
[key]" "aen_disabled"
wr_bad $T/aen_disabled 2
wr_bad $T/aen_disabled yes
run sg_turs "$sg"	# the target still answers: AENs are never sent
wr $T/aen_disabled 0

# --- the attributes only SCST's default of which we implement ------------
assert_eq "$(cat $T/addr_method)" PERIPHERAL "addr_method"
wr $T/addr_method peripheral
wr_bad $T/addr_method FLAT
wr_bad $T/addr_method LUN
for a in black_hole forward_src forward_dst forwarding; do
	assert_eq "$(cat $T/$a)" 0 "$a"
	wr $T/$a 0
	wr_bad $T/$a 1
done
mgmt $T/ini_groups/mgmt "create g1"
G=$T/ini_groups/g1
assert_eq "$(cat $G/addr_method)" PERIPHERAL "group addr_method"
wr_bad $G/black_hole 1

# --- io_grouping_type ------------------------------------------------------
for f in $T/io_grouping_type $G/io_grouping_type; do
	assert_eq "$(cat $f)" auto "$f by default"
	wr $f never
	assert_eq "$(cat $f)" "never
[key]" "$f"
	wr $f THIS_GROUP_ONLY
	assert_eq "$(attr_value $f)" this_group_only "$f"
	wr $f 0x10
	assert_eq "$(attr_value $f)" 16 "$f"
	for bad in 0 -1 2147483648 autox ""; do
		wr_bad $f "$bad"
	done
	wr $f auto
	assert_eq "$(cat $f)" auto "$f back to auto"
done
mgmt $T/ini_groups/mgmt "del g1"

nthr=$(attr_value $D/disk_fio/threads_num)
threads() {
	wc -w < $D/disk_fio/thread_pids
}
# pools SESSIONS...: add "TGT SESS" sessions, print the threads of disk_fio,
# remove the sessions
pools() {
	local s n
	for s in "$@"; do
		mgmt $L/mgmt "add_session $s" >&2
	done
	n=$(threads)
	for s in "$@"; do
		mgmt $L/mgmt "del_session $s" >&2
	done
	echo "$n"
}
mgmt $L/mgmt "add_target tP"
mgmt $L/mgmt "add_target tQ"
mgmt $L/tP/luns/mgmt "add disk_fio 0"
mgmt $L/tQ/luns/mgmt "add disk_fio 0"
mgmt $L/tP/ini_groups/mgmt "create gp"
mgmt $L/tP/ini_groups/gp/initiators/mgmt "add a*"
mgmt $L/tP/ini_groups/gp/luns/mgmt "add disk_fio 0"
assert_eq "$(threads)" 0 "disk_fio threads without sessions"
# auto: one initiator on two targets shares a pool, two initiators do not
assert_eq "$(pools "tP same" "tQ same")" "$nthr" "auto: one initiator, two targets"
assert_eq "$(pools "tP a1" "tP a2")" "$((2 * nthr))" "auto: two initiators of a group"
# never: one pool per session
wr $L/tQ/io_grouping_type never
assert_eq "$(pools "tP same" "tQ same")" "$((2 * nthr))" "never on tQ"
# the same group number on both targets: one pool for all their initiators
wr $L/tP/io_grouping_type 5
wr $L/tQ/io_grouping_type 5
assert_eq "$(pools "tP x" "tQ y")" "$nthr" "io group 5 on tP and tQ"
wr $L/tP/io_grouping_type auto
wr $L/tQ/io_grouping_type auto
# this_group_only: the group's initiators share one pool
wr $L/tP/ini_groups/gp/io_grouping_type this_group_only
assert_eq "$(pools "tP a1" "tP a2")" "$nthr" "this_group_only: two initiators of a group"
assert_eq "$(threads)" 0 "disk_fio threads after the sessions"
mgmt $L/mgmt "del_target tP"
mgmt $L/mgmt "del_target tQ"

# --- tst -------------------------------------------------------------------
# tst_of SG: the TST field of the control mode page (SPC-4 7.5.8), from
# MODE SENSE(6) without block descriptors: header 4 bytes, page byte 2
tst_of() {
	local b
	read -r -a b <<< "$(sg_modes -6 -d -p 0x0a -r "$1" 2>/dev/null | od -An -tx1 -v)"
	[ "${b[4]}" = 0a ] || fail "no control mode page: ${b[*]}"
	echo $(( (16#${b[6]} >> 5) & 7 ))
}
assert_eq "$(cat $D/disk_bio/tst)" 1 "tst by default (SCST's vdisk DEF_TST)"
assert_eq "$(tst_of "$sg")" 1 "TST in the control mode page"
wr $D/disk_bio/tst 0
assert_eq "$(cat $D/disk_bio/tst)" "0
[key]" "tst 0"
assert_eq "$(tst_of "$sg")" 0 "TST after tst 0"
wr_bad $D/disk_bio/tst 2
wr_bad $D/disk_bio/tst 7
wr_bad $D/disk_bio/tst x
wr $D/disk_bio/tst 1
assert_eq "$(tst_of "$sg")" 1 "TST after tst 1"

# --- I/O counters ------------------------------------------------------------
S=$T/sessions/ini1
ctr() {
	cat "$1/$2"
}
for d in read write bidi none unknown; do
	wr $S/${d}_cmd_count 0
done
# 64 WRITE(10) of 4 KiB, 32 READ(10) of 8 KiB, 5 TEST UNIT READY and one
# unknown opcode, each one command (sg_dd would add a READ CAPACITY)
head -c 4096 /dev/zero > /tmp/4k
lba16() {	# the low two bytes of an LBA, as CDB bytes
	printf '%02x %02x' $(($1 >> 8)) $(($1 & 255))
}
for i in $(seq 0 63); do
	sg_raw -s 4096 -i /tmp/4k "$sg" 2a 00 00 00 $(lba16 $((i * 8))) \
		00 00 08 00 > /dev/null 2>&1 || fail "WRITE(10) $i"
done
for i in $(seq 0 31); do
	sg_raw -r 8192 "$sg" 28 00 00 00 $(lba16 $((i * 16))) 00 00 10 00 \
		> /dev/null 2>&1 || fail "READ(10) $i"
done
for i in 1 2 3 4 5; do
	run sg_turs "$sg"
done
sg_raw "$sg" ff 00 00 00 00 00 > /dev/null 2>&1 && fail "opcode ffh accepted"
assert_eq "$(ctr $S write_cmd_count)" 64 "write_cmd_count"
assert_eq "$(ctr $S write_io_count_kb)" 256 "write_io_count_kb"
assert_eq "$(ctr $S read_cmd_count)" 32 "read_cmd_count"
assert_eq "$(ctr $S read_io_count_kb)" 256 "read_io_count_kb"
assert_eq "$(ctr $S none_cmd_count)" 5 "none_cmd_count"
assert_eq "$(ctr $S unknown_cmd_count)" 1 "unknown_cmd_count"
assert_eq "$(ctr $S bidi_cmd_count)" 0 "bidi_cmd_count"
assert_eq "$(ctr $S bidi_io_count_kb)" 0 "bidi_io_count_kb"
for d in read write bidi; do
	assert_eq "$(ctr $S ${d}_unaligned_cmd_count)" 0 "${d}_unaligned_cmd_count of 4 KiB I/O"
done
# SCST's 4 KiB alignment (512-byte blocks here): a READ of LBA 1 (offset),
# a READ of one block at LBA 8 (length), a WRITE of 4 KiB at LBA 3 (offset)
sg_raw -r 512 "$sg" 28 00 00 00 00 01 00 00 01 00 > /dev/null 2>&1 || fail "READ(10) of LBA 1"
sg_raw -r 512 "$sg" 28 00 00 00 00 08 00 00 01 00 > /dev/null 2>&1 || fail "READ(10) of LBA 8"
sg_raw -s 4096 -i /tmp/4k "$sg" 2a 00 00 00 00 03 00 00 08 00 > /dev/null 2>&1 ||
	fail "WRITE(10) at LBA 3"
assert_eq "$(ctr $S read_unaligned_cmd_count)" 2 "read_unaligned_cmd_count"
assert_eq "$(ctr $S write_unaligned_cmd_count)" 1 "write_unaligned_cmd_count"
assert_eq "$(ctr $S bidi_unaligned_cmd_count)" 0 "bidi_unaligned_cmd_count"
assert_eq "$(ctr $S read_cmd_count)" 34 "read_cmd_count with the unaligned ones"
assert_eq "$(ctr $S write_cmd_count)" 65 "write_cmd_count with the unaligned one"
# the target's: the sums of its one session's
for c in read_cmd_count read_io_count_kb write_cmd_count write_io_count_kb \
	 none_cmd_count unknown_cmd_count bidi_cmd_count bidi_io_count_kb \
	 read_unaligned_cmd_count write_unaligned_cmd_count bidi_unaligned_cmd_count; do
	assert_eq "$(ctr $T $c)" "$(ctr $S $c)" "target $c"
done
expect_fail sh -c "echo 0 > $T/read_cmd_count"	# read-only there, as SCST's
# a write zeroes one direction, both its files
wr $S/write_io_count_kb 0
assert_eq "$(ctr $S write_cmd_count)" 0 "write_cmd_count after the reset"
assert_eq "$(ctr $S write_io_count_kb)" 0 "write_io_count_kb after the reset"
assert_eq "$(ctr $S write_unaligned_cmd_count)" 0 "write_unaligned_cmd_count after the reset"
assert_eq "$(ctr $S read_unaligned_cmd_count)" 2 "read_unaligned_cmd_count after the write reset"
assert_eq "$(ctr $S read_cmd_count)" 34 "read_cmd_count after the write reset"

# --- measure_latency -----------------------------------------------------
assert_eq "$(cat $SCST/measure_latency)" 0 "measure_latency by default"
hdr="state count min max avg stddev"
assert_eq "$(ls $S/latency | wc -l)" 44 "latency files"
assert_eq "$(cat $S/latency/w4096)" "$hdr" "w4096 before any measure"
run sg_dd if=/dev/zero of="$sg" bs=512 bpt=8 count=64 2>/dev/null
assert_eq "$(cat $S/latency/w4096)" "$hdr" "w4096 after I/O with measure_latency 0"
wr_bad $SCST/measure_latency 2
wr $SCST/measure_latency 1
assert_eq "$(cat $SCST/measure_latency)" 1 "measure_latency"
run sg_dd if=/dev/zero of="$sg" bs=512 bpt=8 count=512 2>/dev/null
run sg_dd if="$sg" of=/dev/null bs=512 bpt=16 count=512 2>/dev/null
w=$(cat $S/latency/w4096)
log "w4096: $w"
for st in INIT EXEC XMIT; do
	grep -qE "^$st 64 [0-9]+\.[0-9] [0-9]+\.[0-9] [0-9]+\.[0-9] [0-9]+\.[0-9] us$" <<< "$w" ||
		fail "no $st line of 64 writes in w4096: $w"
done
grep -qE '^total 64 - - [0-9]+\.[0-9] [0-9]+\.[0-9] us$' <<< "$w" || fail "no total in w4096: $w"
grep -qE '^total 64 - - 0\.0 ' <<< "$w" && fail "writes of no time: $w"
grep -qE '^EXEC 32 ' $S/latency/r8192 || fail "r8192: $(cat $S/latency/r8192)"
assert_eq "$(cat $S/latency/w8192)" "$hdr" "w8192 without 8 KiB writes"
# a write to any of the files zeroes all of the session's
wr $S/latency/n512 0
assert_eq "$(cat $S/latency/w4096)" "$hdr" "w4096 after the reset"
assert_eq "$(cat $S/latency/r8192)" "$hdr" "r8192 after the reset"
run sg_dd if=/dev/zero of="$sg" bs=512 bpt=8 count=8 2>/dev/null
grep -qE '^EXEC 1 ' $S/latency/w4096 || fail "w4096 after one write: $(cat $S/latency/w4096)"
wr $SCST/measure_latency 0
w=$(cat $S/latency/w4096)
run sg_dd if=/dev/zero of="$sg" bs=512 bpt=8 count=64 2>/dev/null
assert_eq "$(cat $S/latency/w4096)" "$w" "w4096 after I/O with measure_latency 0 again"
# a session that starts while it is on is measured too (the kernel reads
# its partition table: 4 KiB reads besides ours)
wr $SCST/measure_latency 1
local_target tb ini2 "disk_bio 0"
sgb=$(lun_sg "$host" 0)
clear_ua "$sgb"
run sg_dd if="$sgb" of=/dev/null bs=512 bpt=8 count=8 2>/dev/null
grep -qE '^EXEC [1-9][0-9]* ' $L/tb/sessions/ini2/latency/r4096 ||
	fail "new session's r4096: $(cat $L/tb/sessions/ini2/latency/r4096)"
wr $SCST/measure_latency 0
mgmt $L/mgmt "del_session tb ini2"
mgmt $L/mgmt "del_target tb"

# --- scstadmin applies TARGET and GROUP attributes ---------------------------
command -v scstadmin > /dev/null || fail "scstadmin is not in the guest"
cat > /tmp/scst.conf <<'CONF'
HANDLER vdisk_nullio {
	DEVICE disk_null {
		size_mb 16
		tst 0
	}
}

TARGET_DRIVER scst_local {
	TARGET tc {
		aen_disabled 1
		comment lab-b
		io_grouping_type never
		LUN 0 disk_null

		GROUP gc {
			io_grouping_type 3
			INITIATOR c*
		}
	}
}
CONF
run scstadmin -check_config /tmp/scst.conf
mgmt $L/mgmt "add_target tc"
run scstadmin -config /tmp/scst.conf
assert_eq "$(attr_value $D/disk_null/tst)" 0 "tst from scst.conf"
assert_eq "$(attr_value $L/tc/aen_disabled)" 1 "aen_disabled from scst.conf"
assert_eq "$(attr_value $L/tc/comment)" lab-b "comment from scst.conf"
assert_eq "$(attr_value $L/tc/io_grouping_type)" never "io_grouping_type from scst.conf"
assert_eq "$(attr_value $L/tc/ini_groups/gc/io_grouping_type)" 3 \
	"group io_grouping_type from scst.conf"
run scstadmin -write_config /tmp/written.conf
for k in "aen_disabled 1" "comment lab-b" "io_grouping_type never" \
	 "io_grouping_type 3" "tst 0"; do
	grep -q "^[[:space:]]*$k\$" /tmp/written.conf ||
		fail "-write_config lost '$k': $(cat /tmp/written.conf)"
done
# a value we do not implement fails the apply by name
sed -i 's/aen_disabled 1/black_hole 1/' /tmp/scst.conf
out=$(scstadmin -config /tmp/scst.conf 2>&1) && fail "black_hole 1 applied: $out"
grep -q black_hole <<< "$out" || fail "the refusal does not name black_hole: $out"
assert_eq "$(cat $L/tc/black_hole)" 0 "black_hole after the refused apply"

mgmt $L/mgmt "del_session ta ini1"
log "PASS"
