#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A migrated SCST device keeps its identity: INQUIRY vendor, product and
# revision, VPD 80h and the logical unit's designators of VPD 83h are, byte
# for byte, what SCST 3.11's rules give for the same configuration (the
# expected bytes below are written from those rules, not read from us):
#   t10_dev_id  "<setup_id << 32 | CRC32C(name + NUL), hex>-<name>", 25
#               characters at most; usn that number in hex
#   T10 vendor ID designator: vendor (SCST_BIO for blockio, SCST_FIO
#               otherwise) + the default t10_dev_id
#   EUI-64 designator: the first 8 bytes of t10_dev_id, unless eui64_id or
#               naa_id is set; NAA only from naa_id
# and so the kernel's WWID (and udev's, which also prefers EUI-64 to T10).
# Then every identity attribute written on a live device shows in INQUIRY
# or VPD at once, with INQUIRY DATA HAS CHANGED on the nexus, and bad
# values are refused without changing anything.
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=16384
run modprobe scst
run modprobe scst_vdisk
run modprobe scst_local add_default_tgt=0
run truncate -s 16M /tmp/d2.img
assert_eq "$(sed -n 1p $SCST/setup_id)" 0x0 "setup_id"

H=$SCST/handlers
D=$SCST/devices
mgmt $H/vdisk_blockio/mgmt "add_device disk01 filename=/dev/ram0"
mgmt $H/vdisk_fileio/mgmt "add_device disk02 filename=/tmp/d2.img"
mgmt $H/vdisk_nullio/mgmt "add_device disk03 size_mb=16"
mgmt $H/vdisk_nullio/mgmt "add_device disk04 size_mb=16; t10_dev_id=abc; naa_id=0x5001405000000abc"
local_target idt idhost "disk01 0" "disk02 1" "disk03 2" "disk04 3"
for l in 0 1 2 3; do
	clear_ua "$(lun_sg $host $l)"
done

# hx STRING: its bytes as lowercase hex, space-separated
hx() {
	printf '%s' "$1" | od -An -tx1 -v | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}
# raw CMD...: an sg3_utils command's raw output as hex
raw() {
	"$@" 2> /dev/null | od -An -tx1 -v | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}
# lu_desigs SG: the designators of VPD 83h that are not a target port's
# (association logical unit or target device), in page order
lu_desigs() {
	local b i=4 n out=() len assoc
	read -r -a b <<< "$(raw sg_vpd -p 0x83 -r "$1")"
	[ "${b[1]}" = 83 ] || fail "$1: no VPD page 83h"
	n=$(( 4 + 16#${b[2]} * 256 + 16#${b[3]} ))
	[ ${#b[@]} = $n ] || fail "$1: VPD 83h of ${#b[@]} bytes, length says $n"
	while [ $i -lt $n ]; do
		len=$((16#${b[i + 3]}))
		assoc=$(( (16#${b[i + 1]} >> 4) & 3 ))
		[ $assoc = 1 ] || out+=("${b[@]:i:len + 4}")
		i=$((i + 4 + len))
	done
	echo "${out[*]}"
}
# inq_id SG: INQUIRY bytes 8-35, vendor, product, revision
inq_id() {
	local b
	read -r -a b <<< "$(raw sg_inq -r -l 36 "$1")"
	echo "${b[*]:8:28}"
}
# t10 VENDOR VS / eui BYTES8 / naa HEX: the expected designators
t10() { local v; v=$(printf '%-8s%s' "$1" "$2"); echo "02 01 00 $(printf %02x ${#v}) $(hx "$v")"; }
eui() { echo "01 02 00 08 $(hx "$1")"; }
wwid_of() { cat "/sys/block/$(lun_disk $host "$1" | sed 's|/dev/||')/device/wwid"; }

# --- SCST 3.11's identity of each device ------------------------------------
# CRC32C(name + NUL): disk01 27cddc71, disk02 132a74e8, disk03 0088ec9f,
# disk04 7ae525da
check_default() { # LUN NAME CRC VENDOR
	local sg t10id
	sg=$(lun_sg $host "$1")
	t10id="$3-$2"
	assert_eq "$(inq_id "$sg")" "$(hx "$(printf '%-8s%-16s%-4s' "$4" "$2" 3110)")" "$2 INQUIRY vendor/product/revision"
	assert_eq "$(raw sg_vpd -p 0x80 -r "$sg")" "00 80 00 $(printf %02x ${#3}) $(hx "$3")" "$2 VPD 80h"
	assert_eq "$(lu_desigs "$sg")" "$(t10 "$4" "$t10id") $(eui "${t10id:0:8}")" "$2 VPD 83h LU designators"
	assert_eq "$(wwid_of "$1")" "eui.$(hx "${t10id:0:8}" | tr -d ' ')" "$2 WWID"
	assert_eq "$(sed -n 1p $D/$2/t10_dev_id)" "$t10id" "$2 t10_dev_id"
	assert_eq "$(sed -n 2p $D/$2/t10_dev_id)" "" "$2 t10_dev_id is no key"
}
check_default 0 disk01 27cddc71 SCST_BIO
check_default 1 disk02 132a74e8 SCST_FIO
check_default 2 disk03 88ec9f SCST_FIO
summary() { log "IDENTITY: $*"; }
summary "disk01 WWID $(wwid_of 0) (SCST's rule: eui.3237636464633731)"

# given at add_device: t10_dev_id shorter than 8 (zeros after it in the
# EUI-64, but naa_id is set, so no EUI-64 at all); the T10 designator keeps
# the default t10_dev_id, as in SCST
sg4=$(lun_sg $host 3)
assert_eq "$(lu_desigs "$sg4")" "$(t10 SCST_FIO 7ae525da-disk04) 01 03 00 08 50 01 40 50 00 00 0a bc" "disk04 designators"
assert_eq "$(wwid_of 3)" "naa.5001405000000abc" "disk04 WWID"
assert_eq "$(cat $D/disk04/naa_id)" "$(printf '0x5001405000000abc\n[key]')" "disk04 naa_id"
mgmt_write() { echo "$2" > "$1" || fail "write '$2' to $1 refused"; }
mgmt_write $D/disk04/naa_id ""
assert_eq "$(lu_desigs "$sg4")" "$(t10 SCST_FIO 7ae525da-disk04) 01 02 00 08 61 62 63 00 00 00 00 00" "disk04 after naa_id cleared"

# --- each attribute written on the live disk01 ------------------------------
sg=$(lun_sg $host 0)
ua_seen() { # the next command reports INQUIRY DATA HAS CHANGED
	local out
	out=$(sg_raw "$sg" 00 00 00 00 00 00 2>&1) && fail "$1: no unit attention"
	grep -qi 'inquiry data has changed' <<< "$out" || fail "$1: $out"
	clear_ua "$sg"
}
mgmt_write $D/disk01/t10_vend_id ACME
ua_seen t10_vend_id
mgmt_write $D/disk01/prod_id migrated
mgmt_write $D/disk01/prod_rev_lvl 0042
assert_eq "$(inq_id "$sg")" "$(hx "$(printf '%-8s%-16s%-4s' ACME migrated 0042)")" "written INQUIRY identity"
mgmt_write $D/disk01/usn SN0042
assert_eq "$(raw sg_vpd -p 0x80 -r "$sg")" "00 80 00 06 $(hx SN0042)" "written usn"
mgmt_write $D/disk01/t10_dev_id ABCD1234
assert_eq "$(lu_desigs "$sg")" "$(t10 ACME 27cddc71-disk01) $(eui ABCD1234)" "written t10_dev_id"
mgmt_write $D/disk01/vend_specific_id my-vs-id
mgmt_write $D/disk01/scsi_device_name iqn.2026-12.org.example:disk01
name=iqn.2026-12.org.example:disk01
assert_eq "$(lu_desigs "$sg")" "03 28 00 20 $(hx $name) 00 00 $(t10 ACME my-vs-id) $(eui ABCD1234)" "written vend_specific_id, scsi_device_name"
mgmt_write $D/disk01/eui64_id 0x0011223344556677
mgmt_write $D/disk01/naa_id 60014050000000020000000027cddc71
assert_eq "$(lu_desigs "$sg")" "03 28 00 20 $(hx $name) 00 00 $(t10 ACME my-vs-id) 01 02 00 08 00 11 22 33 44 55 66 77 01 03 00 10 60 01 40 50 00 00 00 02 00 00 00 00 27 cd dc 71" "written eui64_id, naa_id"
ua_seen "the last write"
# the host reads the new identity on a rescan: NAA wins, the WWID of our
# earlier releases (Documentation/migrating-from-scst.md)
echo 1 > "/sys/class/scsi_device/$host:0:0:0/device/rescan"
assert_eq "$(wwid_of 0)" "naa.60014050000000020000000027cddc71" "WWID after the NAA designator"
for a in t10_vend_id prod_id prod_rev_lvl usn t10_dev_id vend_specific_id scsi_device_name eui64_id naa_id; do
	assert_eq "$(sed -n 2p $D/disk01/$a)" "[key]" "$a written is a key"
done
assert_eq "$(sed -n 1p $D/disk01/eui64_id)" 0x0011223344556677 "eui64_id shown"

# --- bad values: refused, nothing changes, no unit attention -----------------
before=$(cat $D/disk01/naa_id $D/disk01/prod_id $D/disk01/t10_vend_id $D/disk01/eui64_id $D/disk01/usn)
for bad in "naa_id 0x6001405" "naa_id 5001405000000abcde" "naa_id 70014050000000020000000027cddc71" \
	   "eui64_id 00112233445566" "eui64_id 001122334455667x" "prod_id 0123456789abcdefX" \
	   "t10_vend_id ACME$(printf '\001')" "usn 012345678901234567890" "prod_rev_lvl 12345"; do
	read -r a v <<< "$bad"
	if echo "$v" > $D/disk01/$a 2> /dev/null; then
		fail "$a='$v' accepted"
	fi
done
assert_eq "$(cat $D/disk01/naa_id $D/disk01/prod_id $D/disk01/t10_vend_id $D/disk01/eui64_id $D/disk01/usn)" "$before" "refused writes changed nothing"
sg_raw "$sg" 00 00 00 00 00 00 > /dev/null 2>&1 || fail "a refused write raised a unit attention"
dmesg | grep -q 'disk01: naa_id=0x6001405: not 16 or 32 hex digits' || fail "no log line naming the bad naa_id"

# a NUL inside a write cuts the value there (and reads nothing past it)
printf 'SN\0tail\n' > $D/disk01/usn || fail "a write with a NUL refused"
assert_eq "$(sed -n 1p $D/disk01/usn)" SN "usn written with a NUL"
clear_ua "$sg"

# clearing eui64_id and naa_id brings back SCST's EUI-64 from t10_dev_id
mgmt_write $D/disk01/eui64_id ""
mgmt_write $D/disk01/naa_id ""
assert_eq "$(lu_desigs "$sg")" "03 28 00 20 $(hx $name) 00 00 $(t10 ACME my-vs-id) $(eui ABCD1234)" "cleared eui64_id, naa_id"
assert_eq "$(cat $D/disk01/naa_id)" "" "naa_id cleared is no key"
clear_ua "$sg"

mgmt $SCST/targets/scst_local/mgmt "del_target idt"
mgmt $H/vdisk_blockio/mgmt "del_device disk01"
mgmt $H/vdisk_fileio/mgmt "del_device disk02"
mgmt $H/vdisk_nullio/mgmt "del_device disk03"
mgmt $H/vdisk_nullio/mgmt "del_device disk04"
run modprobe -r scst_local scst_vdisk scst
log "PASS"
