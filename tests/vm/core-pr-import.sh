#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SCST's own APTPL files imported at a device's first start
# (scst_core/scst_pr_scst_file.c, Documentation/migrating-from-scst.md):
#  (a) before any module is loaded, an SCST 3.x binary file for pr0 (two
#      iSCSI registrants of format 01b as iscsi-scst writes them, the
#      holder of a WRITE EXCLUSIVE - REGISTRANTS ONLY reservation first,
#      and an SRP one) is written byte for byte into /var/lib/scst/pr;
#      the device comes up with them: keys and reservation seen with
#      sg_persist from the initiators, one log line, SCST's bytes kept as
#      pr0.scst, our text file in its place; the state is live (RELEASE
#      from the holder, our file follows);
#  (b) an unfinished SCST write (signature 0) with a good pr0.1: imported
#      from pr0.1 as SCST would, pr0.1 kept as pr0.1.scst and removed;
#  (c) a truncated SCST file: not imported, one log line with offset and
#      reason, the device fails closed (NOT READY) and the file is left as
#      it is until pr_file_reset.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/pr.sh

INI_A=iqn.2026-01.test:nodea
INI_B=iqn.2026-01.test:nodeb
PRDIR=/var/lib/scst/pr
DEV=pr0

# SCST's layout (little-endian host): le64, le16 and be64 as \x escapes
le() {
	local v=$1 n=$2 i
	for ((i = 0; i < n; i++)); do
		printf '\\x%02x' $(((v >> (8 * i)) & 0xff))
	done
}
be64() {
	local v=$1 i
	for ((i = 7; i >= 0; i--)); do
		printf '\\x%02x' $(((v >> (8 * i)) & 0xff))
	done
}
# header SIGN APTPL SET TYPE
header() {
	le "$1" 8
	le 1 8
	le "$2" 1
	le "$3" 1
	le "$4" 1
	le 0 1
}
# rec_iscsi HOLDER TEXT KEY REL: format 01b, padded to 4 as iscsi-scst does
rec_iscsi() {
	local s=$2 len addl i
	len=${#s}
	addl=$(((len + 1 + 3) & ~3))
	le "$1" 1
	printf '\\x45\\x00'
	le $((addl >> 8)) 1
	le $((addl & 0xff)) 1
	printf '%s' "$s"
	for ((i = len; i < addl; i++)); do
		printf '\\x00'
	done
	be64 "$3"
	le "$4" 2
}
# rec_srp HOLDER HEX32 KEY REL
rec_srp() {
	local i
	le "$1" 1
	printf '\\x04'
	for ((i = 0; i < 7; i++)); do
		printf '\\x00'
	done
	for ((i = 0; i < 32; i += 2)); do
		printf '\\x%s' "${2:i:2}"
	done
	be64 "$3"
	le "$4" 2
}
SIGN=0xBBEEEEAAEEBBDD77
SRP_ID=fe800000000000000002c903000e8acd
# scst_file SIGN: the state of (a) as SCST writes it
scst_file() {
	printf "$(header "$1" 1 1 5)$(rec_iscsi 1 "$INI_A,i,0x23d000000" 10 1)$(rec_iscsi 0 "$INI_B,i,0x23d000001" 11 1)$(rec_srp 0 $SRP_ID 12 1)"
}

run mkdir -p $PRDIR
run rm -f $PRDIR/$DEV*
scst_file $SIGN > /tmp/scst.bin
# 20 + (1+44+10) * 2 + (1+24+10)
assert_eq "$(stat -c %s /tmp/scst.bin)" 165 "size of the SCST file built"
cp /tmp/scst.bin $PRDIR/$DEV
od -A d -t x1 $PRDIR/$DEV

run modprobe -a sd_mod sg
sdebug_load dev_size_mb=16
backing=$(sdebug_disk)
log "backing disk $backing"

before=$(dmesg | wc -l)
scst_local_load
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device $DEV filename=$backing"
local_target tgt1 "$INI_A" "$DEV 0"
T=$SCST/targets/scst_local/tgt1
assert_eq "$(attr_value "$T/rel_tgt_id")" 1 "relative target port of the first target (the file says 1)"
pr_two_nexuses tgt1 "$INI_B"
P=$SCST/devices/$DEV/pr_state

# --- (a) imported --------------------------------------------------------
msgs=$(dmesg | tail -n +"$((before + 1))" | grep "$DEV: ")
echo "$msgs"
grep -q "scst: $DEV: imported 3 registrations and a WE_RO reservation (type 5) held by registration 0 from SCST's $PRDIR/$DEV\$" <<< "$msgs" ||
	fail "no import log line"
assert_eq "$(grep -c "$PRDIR/$DEV" <<< "$msgs")" 1 "log lines about the file"
cmp /tmp/scst.bin $PRDIR/$DEV.scst || fail "SCST's file not kept byte for byte as $DEV.scst"
want="scst-ng-pr 1
generation 0
aptpl 1
registrant 0x000000000000000a iscsi:$INI_A 1 0
registrant 0x000000000000000b iscsi:$INI_B 1 0
registrant 0x000000000000000c srp:$SRP_ID 1 0
reservation 5 0
end"
assert_eq "$(cat $PRDIR/$DEV)" "$want" "our APTPL file after the import"
[ ! -e $PRDIR/$DEV.tmp ] || fail "$DEV.tmp left behind"
assert_eq "$(keys "$sgB" | tr '\n' ' ')" "0xa 0xb 0xc " "keys seen from B"
assert_eq "$(keys "$sgA" | tr '\n' ' ')" "0xa 0xb 0xc " "keys seen from A"
assert_eq "$(resv "$sgB")" "0xa Write Exclusive, registrants only" "reservation seen from B"
assert_eq "$(generation "$sgA")" 0x0 "PRgeneration after the import"
grep -q '^aptpl 1$' $P || { cat $P; fail "pr_state: APTPL not set"; }
assert_eq "$(io "$sgB" write)" good "registrant B's WRITE (registrants only)"
# the state is live: the holder releases, our file follows
prout "$sgA" --release --param-rk=0xa --prout-type=5
ua_is "$sgB" "reservations released"
assert_eq "$(resv "$sgB")" none "reservation after RELEASE"
grep -q '^reservation' $PRDIR/$DEV && fail "our file still has the reservation"
grep -q '^registrant 0x000000000000000b ' $PRDIR/$DEV || fail "our file lost a registrant"
cmp /tmp/scst.bin $PRDIR/$DEV.scst || fail "$DEV.scst changed"

# --- (b) unfinished main file, good backup ---------------------------------
mgmt $T/luns/mgmt "del 0"
mgmt $SCST/handlers/vdisk_blockio/mgmt "del_device $DEV"
run rm -f $PRDIR/$DEV $PRDIR/$DEV.scst
scst_file 0 > $PRDIR/$DEV
cp /tmp/scst.bin $PRDIR/$DEV.1
before=$(dmesg | wc -l)
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device $DEV filename=$backing"
msgs=$(dmesg | tail -n +"$((before + 1))" | grep "$DEV: ")
echo "$msgs"
grep -q "$DEV: imported 3 registrations and a WE_RO reservation (type 5) held by registration 0 from SCST's $PRDIR/$DEV.1\$" <<< "$msgs" ||
	fail "no import log line for the backup"
assert_eq "$(cat $PRDIR/$DEV)" "$want" "our APTPL file after importing the backup"
[ ! -e $PRDIR/$DEV.1 ] || fail "SCST's $DEV.1 left beside our file"
cmp /tmp/scst.bin $PRDIR/$DEV.1.scst || fail "SCST's backup not kept as $DEV.1.scst"
scst_file 0 > /tmp/unfinished.bin
cmp /tmp/unfinished.bin $PRDIR/$DEV.scst || fail "SCST's unfinished main file not kept as $DEV.scst"
mgmt $T/luns/mgmt "add $DEV 0"
wait_lun "$hostB" 0
sgB=$(lun_sg "$hostB" 0)
clear_ua "$sgB"
assert_eq "$(keys "$sgB" | tr '\n' ' ')" "0xa 0xb 0xc " "keys after importing the backup"
assert_eq "$(resv "$sgB")" "0xa Write Exclusive, registrants only" "reservation after importing the backup"

# --- (c) a truncated file: fail closed, files untouched ----------------------
mgmt $T/luns/mgmt "del 0"
mgmt $SCST/handlers/vdisk_blockio/mgmt "del_device $DEV"
run rm -f $PRDIR/$DEV*
head -c 150 /tmp/scst.bin > $PRDIR/$DEV
cp $PRDIR/$DEV /tmp/bad.bin
before=$(dmesg | wc -l)
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device $DEV filename=$backing"
msgs=$(dmesg | tail -n +"$((before + 1))" | grep "$DEV: ")
echo "$msgs"
grep -q "$DEV: cannot import SCST's $PRDIR/$DEV: offset 130 (record 2): record runs past the end of the file.*: persistent reservation state unknown, commands refused until pr_file_reset\$" <<< "$msgs" ||
	fail "no log line with the offset and reason"
grep -q "^state unknown: cannot import SCST's $PRDIR/$DEV: offset 130 (record 2): " $P ||
	{ cat $P; fail "pr_state does not say the state is unknown"; }
cmp /tmp/bad.bin $PRDIR/$DEV || fail "the refused file changed"
[ ! -e $PRDIR/$DEV.scst ] || fail "$DEV.scst written for a refused file"
mgmt $T/luns/mgmt "add $DEV 0"
wait_lun "$hostB" 0
sgB=$(lun_sg "$hostB" 0)
out=$(sense_of sg_turs -v "$sgB")
out="$out $(sense_of sg_turs -v "$sgB")"
grep -qi 'manual intervention required' <<< "$out" || { echo "$out"; fail "TEST UNIT READY: not NOT READY"; }
run sh -c "echo 1 > $SCST/devices/$DEV/pr_file_reset"
cmp /tmp/bad.bin $PRDIR/$DEV.bad || fail "the refused file not moved to $DEV.bad"
grep -q '^registrants 0$' $P || { cat $P; fail "state not empty after pr_file_reset"; }
clear_ua "$sgB"
assert_eq "$(keys "$sgB")" "" "keys after pr_file_reset"

mgmt $T/luns/mgmt "del 0"
mgmt $SCST/handlers/vdisk_blockio/mgmt "del_device $DEV"
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
run rm -f $PRDIR/$DEV*
log "core-pr-import: all checks passed"
