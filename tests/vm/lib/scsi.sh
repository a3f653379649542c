# SPDX-License-Identifier: GPL-2.0-only
# The sg3_utils checks of the SCSI commands the core and vdisk implement,
# shared by the transports' tests (scst_local in core-local, SRP in
# srpt-login). Requires common.sh and scst.sh.

# scsi_checks BIO FIO NULL RO_SG: BIO a vdisk_blockio LUN on a 256 MiB brd
# disk, FIO a thin-provisioned vdisk_fileio LUN, NULL a 1 GiB vdisk_nullio
# LUN, RO_SG the sg node of a read-only LUN. Unit attentions must have
# been consumed on every nexus these commands may take.
scsi_checks() {
	local bio=$1 fio=$2 null=$3 ro_sg=$4 inq page cap luns out i

	# --- INQUIRY and VPD ----------------------------------------------------
	inq=$(sg_inq "$bio") || fail "sg_inq $bio"
	grep -q 'Vendor identification: SCST_BIO' <<< "$inq" || fail "blockio vendor: $inq"
	grep -q 'Product identification: disk_bio' <<< "$inq" || fail "blockio product: $inq"
	sg_inq "$fio" | grep_q 'Vendor identification: SCST_FIO' || fail "fileio vendor"
	sg_inq "$null" | grep_q 'Vendor identification: SCST_FIO' || fail "nullio vendor"
	for page in 0x00 0x80 0x83 0x86 0xb0 0xb1; do
		run sg_vpd --page=$page "$bio"
	done
	run sg_vpd --page=0xb2 "$fio"
	sg_vpd --page=0x83 "$bio" | grep_q 'Relative target port' || fail "VPD 0x83 lacks the relative target port"
	sg_vpd --page=0x83 "$bio" | grep_q -i 'EUI-64\|NAA' || fail "VPD 0x83 lacks NAA/EUI-64"

	# --- capacity, LUNs, mode pages ------------------------------------------
	cap=$(sg_readcap -l "$bio") || fail "sg_readcap"
	grep -q 'Number of logical blocks=524288' <<< "$cap" || fail "blockio capacity: $cap"
	sg_readcap -R -l "$null" | grep_q 'Number of logical blocks=2097152' || fail "nullio capacity"
	luns=$(sg_luns "$bio") || fail "sg_luns"
	echo "$luns"
	assert_eq "$(grep -c '^    000[0-2]' <<< "$luns")" 3 "REPORT LUNS entries"
	run sg_modes -a "$bio"
	sg_modes -p 0x08 "$bio" | grep_q 'Caching' || fail "no caching mode page"
	sg_modes -p 0x0a "$bio" | grep_q 'Control' || fail "no control mode page"

	# --- SBC commands ---------------------------------------------------------
	run sg_sync "$bio"
	run sg_turs "$bio"
	run sg_opcodes "$bio"
	run sg_get_lba_status --lba=0 "$fio"
	dd if=/dev/urandom of=/tmp/blk bs=512 count=1 status=none
	run sg_write_same --lba=100 --num=16 --in=/tmp/blk "$bio"
	dd if="$bio" of=/tmp/ws bs=512 skip=100 count=16 iflag=direct status=none
	for i in $(seq 0 15); do
		cmp -s /tmp/blk <(dd if=/tmp/ws bs=512 skip="$i" count=1 status=none) ||
			fail "WRITE SAME block $i differs"
	done
	run sg_unmap --force --lba=0 --num=2048 "$fio"
	run sg_write_same --unmap --lba=2048 --num=64 --in=/dev/zero "$fio"

	# COMPARE AND WRITE: match, then miscompare with the offset in the sense
	dd if=/dev/urandom of=/tmp/old bs=512 count=1 status=none
	dd if=/dev/urandom of=/tmp/new bs=512 count=1 status=none
	run dd if=/tmp/old of="$bio" bs=512 seek=200 count=1 oflag=direct status=none
	cat /tmp/old /tmp/new > /tmp/caw
	run sg_compare_and_write --in=/tmp/caw --lba=200 --num=1 "$bio"
	cmp -s /tmp/new <(dd if="$bio" bs=512 skip=200 count=1 iflag=direct status=none) ||
		fail "COMPARE AND WRITE did not write"
	out=$(sense_of sg_compare_and_write -v --in=/tmp/caw --lba=200 --num=1 "$bio")
	echo "$out"
	grep -qi 'miscompare' <<< "$out" || fail "no MISCOMPARE for a mismatching COMPARE AND WRITE"

	# reads past the end: LBA OUT OF RANGE
	# READ(10) of LBA 524288, one past the last
	out=$(sense_of sg_raw -r 512 "$bio" 28 00 00 08 00 00 00 00 01 00)
	echo "$out"
	grep -qi 'out of range' <<< "$out" || fail "no LBA OUT OF RANGE past the end"
	# unsupported opcode: INVALID COMMAND OPERATION CODE
	out=$(sense_of sg_raw -v "$bio" 0xc7 00 00 00 00 00)
	grep -qi 'invalid command operation code' <<< "$out" || fail "no INVALID OPCODE: $out"
	# write to the read-only LUN: DATA PROTECT
	# WRITE(10) of one block
	out=$(sense_of sg_raw -s 512 -i /tmp/blk "$ro_sg" 2a 00 00 00 00 00 00 00 01 00)
	grep -qi 'data protect\|write protected' <<< "$out" || fail "no DATA PROTECT: $out"
}
