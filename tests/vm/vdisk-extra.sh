#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Deeper checks of scst_vdisk.ko through scst_local: every bad create
# parameter, the [key] lines, MODE SELECT and its unit attention, D_SENSE,
# VERIFY / COMPARE AND WRITE miscompare offsets, UNMAP + GET LBA STATUS,
# WRITE SAME of zeroes, COMPARE AND WRITE under a concurrent write load,
# fio verify on fileio (file, o_direct block device) and blockio over loop,
# resync_size, and the module unload rules.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg loop
run modprobe null_blk nr_devices=1
run modprobe brd rd_nr=1 rd_size=65536
run modprobe scst
run modprobe scst_vdisk
run modprobe scst_local add_default_tgt=0
run truncate -s 64M /tmp/f1.img
run truncate -s 64M /tmp/loop.img
run truncate -s 64M /tmp/ro.img
run losetup /dev/loop0 /tmp/loop.img

H=$SCST/handlers
# --- bad create parameters: each refused with its errno ------------------
before=$(tree_snapshot)
mgmt_bad $H/vdisk_fileio/mgmt "add_device e1 filename=rel.img" -22
mgmt_bad $H/vdisk_fileio/mgmt "add_device e1 filename=/tmp/f1.img; read_only=yes" -22
mgmt_bad $H/vdisk_fileio/mgmt "add_device e1 filename=/tmp/f1.img; t10_vend_id=TOOLONGVENDOR" -22
mgmt_bad $H/vdisk_fileio/mgmt "add_device e1 filename=/dev/null" -22
mgmt_bad $H/vdisk_fileio/mgmt "add_device e1 filename=/tmp/nope.img" -2
mgmt_bad $H/vdisk_blockio/mgmt "add_device e1 filename=/tmp/f1.img" -15
mgmt_bad $H/vdisk_blockio/mgmt "add_device e1 filename=/dev/nullb0; thin_provisioned=1" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 size=1000" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 size=1048576; size_mb=1" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 size_mb=0" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 size_mb=99999999999999999999" -22
mgmt_bad $H/vdisk_nullio/mgmt "add_device e1 filename=/tmp/f1.img" -22
mgmt_bad $H/vdisk_nullio/mgmt "del_device nonexist" -2
after=$(tree_snapshot)
[ "$before" = "$after" ] || fail "a refused add_device changed the tree"

# --- devices ------------------------------------------------------------------
mgmt $H/vdisk_fileio/mgmt "add_device fio1 filename=/tmp/f1.img; blocksize=4096; write_through=1; usn=ABC123; prod_id=myprod; t10_dev_id=mydevid"
mgmt $H/vdisk_fileio/mgmt "add_device fio2 filename=/dev/ram0; o_direct=1; nv_cache=1"
mgmt $H/vdisk_blockio/mgmt "add_device bio1 filename=/dev/loop0; rotational=0; removable=1"
mgmt $H/vdisk_nullio/mgmt "add_device null1 size=268435456; blocksize=4096; thin_provisioned=1"
mgmt $H/vdisk_fileio/mgmt "add_device ro1 filename=/tmp/ro.img; read_only=1"
mgmt_bad $H/vdisk_fileio/mgmt "del_device bio1" -2

D=$SCST/devices
chk() { # FILE LINE1 [LINE2]
	assert_eq "$(sed -n 1p "$1")" "$2" "$1 value"
	assert_eq "$(sed -n 2p "$1")" "${3:-}" "$1 key line"
}
chk $D/fio1/blocksize 4096 "[key]"
chk $D/fio1/write_through 1 "[key]"
chk $D/fio1/usn ABC123 "[key]"
chk $D/fio1/prod_id myprod "[key]"
chk $D/fio1/t10_dev_id mydevid "[key]"
chk $D/fio1/t10_vend_id SCST_FIO
chk $D/fio1/filename /tmp/f1.img "[key]"
chk $D/fio1/thin_provisioned 1
chk $D/fio1/size 67108864
chk $D/fio1/size_mb 64
chk $D/fio1/read_only 0
chk $D/fio2/o_direct 1 "[key]"
chk $D/fio2/nv_cache 1 "[key]"
chk $D/fio2/thin_provisioned 0
chk $D/bio1/rotational 0 "[key]"
chk $D/bio1/removable 1 "[key]"
chk $D/bio1/blocksize 512
chk $D/bio1/t10_vend_id SCST_BIO
chk $D/null1/size 268435456 "[key]"
chk $D/null1/size_mb 256	# size carries the [key]
chk $D/null1/thin_provisioned 1 "[key]"
chk $D/ro1/read_only 1 "[key]"
expect_fail cat $D/bio1/resync_size
[ ! -e $D/null1/filename ] || fail "nullio has a filename attribute"
[ ! -e $D/bio1/o_direct ] || fail "blockio has an o_direct attribute"

mgmt $SCST/targets/scst_local/mgmt "add_target tgt1"
T=$SCST/targets/scst_local/tgt1
mgmt $T/luns/mgmt "add fio1 0"
mgmt $T/luns/mgmt "add fio2 1"
mgmt $T/luns/mgmt "add bio1 2"
mgmt $T/luns/mgmt "add null1 3"
mgmt $T/luns/mgmt "add ro1 4"
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 host1"
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 host2"
wait_for 10 "host1" local_host tgt1 host1
wait_for 10 "host2" local_host tgt1 host2
h1=$(local_host tgt1 host1)
h2=$(local_host tgt1 host2)
wait_lun "$h1" 0 >/dev/null; fio1=$(lun_disk "$h1" 0); wait_lun "$h1" 1 >/dev/null; fio2=$(lun_disk "$h1" 1); wait_lun "$h1" 2 >/dev/null; bio1=$(lun_disk "$h1" 2)
wait_lun "$h1" 3 >/dev/null; null1=$(lun_disk "$h1" 3); wait_lun "$h1" 4 >/dev/null; ro1=$(lun_disk "$h1" 4)
wait_lun "$h2" 0 >/dev/null; fio1b=$(lun_disk "$h2" 0)
sg_fio1=$(lun_sg "$h1" 0); sg_fio1b=$(lun_sg "$h2" 0); sg_ro1=$(lun_sg "$h1" 4)
log "fio1 $fio1 fio2 $fio2 bio1 $bio1 null1 $null1 ro1 $ro1 (host2: $fio1b)"

# --- identities ---------------------------------------------------------------
sg_inq "$fio1" | grep_q 'Product identification: myprod' || fail "prod_id"
sg_vpd -p 0x80 "$fio1" | grep_q 'Unit serial number: ABC123' || fail "usn"
sg_vpd -p 0x83 "$fio1" | grep_q 'vendor specific: d27097b6-fio1' || fail "T10 designator: SCST's default t10_dev_id"
sg_inq "$bio1" | grep_q 'RMB=1' || fail "removable"
sg_vpd -p 0xb1 "$bio1" | grep_q -i 'non-rotating' || fail "rotational=0"
sg_vpd -p 0xb2 "$bio1" | grep_q 'LBPRZ): 0' || fail "blockio LBPRZ"
sg_vpd -p 0xb0 "$null1" | grep_q 'Maximum unmap block descriptor count: 256' || fail "B0 unmap"
sg_readcap -l "$fio1" | grep_q 'Logical block length=4096' || fail "4096 blocks"
sg_readcap -l "$bio1" | grep_q 'lbpme=1' || fail "blockio LBPME"
sg_readcap -l "$fio2" | grep_q 'lbpme=0' || fail "fio2 LBPME"

# --- caching mode page, MODE SELECT, UA to the other nexus ---------------
# wce DEV: WCE (SBC-3 6.4.5: byte 2 bit 2) of the current caching mode
# page, by MODE SENSE(10) with DBD (SPC-4 6.14): the 8-byte header, any
# block descriptors it still declares, then the page; "?" if the command
# fails twice (the first may meet a unit attention) or the page is not
# there.
wce() {
	sg_raw -r 64 -o /tmp/wce.bin "$1" 5a 08 08 00 00 00 00 00 40 00 >/dev/null 2>&1 ||
	sg_raw -r 64 -o /tmp/wce.bin "$1" 5a 08 08 00 00 00 00 00 40 00 >/dev/null 2>&1 ||
	{ echo "?"; return; }
	od -An -tu1 -v /tmp/wce.bin | awk '
		{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END {
			pg = 8 + b[6] * 256 + b[7]
			if (n < pg + 3 || b[pg] % 64 != 8)
				print "?"
			else
				print int(b[pg + 2] / 4) % 2
		}'
}
# WCE reads !(write_through || nv_cache) (Documentation/vdisk.md)
assert_eq "$(wce "$sg_fio1")" 0 "WCE of fio1 (write_through=1)"
assert_eq "$(wce "$fio2")" 0 "WCE of fio2 (nv_cache=1)"
assert_eq "$(wce "$bio1")" 1 "WCE of bio1 (write back)"
sg_modes -p 8 "$fio2" >/dev/null || fail "mode sense fio2"
run sg_wr_mode -p 8 -c 8,12,4 -m 0,0,4 "$sg_fio1"
chk $D/fio1/write_through 0
out=$(sense_of sg_turs -v "$sg_fio1b")
grep -qi 'mode parameters changed' <<< "$out" || fail "no MODE PARAMETERS CHANGED on the other nexus: $out"
out=$(sense_of sg_turs -v "$sg_fio1")
grep -qi 'mode parameters changed' <<< "$out" && fail "MODE PARAMETERS CHANGED on the nexus that changed them"
assert_eq "$(wce "$sg_fio1")" 1 "WCE of fio1 after MODE SELECT set it"
assert_eq "$(wce "$sg_fio1b")" 1 "WCE of fio1 through the other nexus"
run sg_wr_mode -p 8 -c 8,12,0 -m 0,0,4 "$sg_fio1"
chk $D/fio1/write_through 1 "[key]"
assert_eq "$(wce "$sg_fio1")" 0 "WCE of fio1 after MODE SELECT cleared it"
# D_SENSE: descriptor format sense data
run sg_wr_mode -p a -c a,a,4 -m 0,0,4 "$sg_fio1"
out=$(sense_of sg_raw -v -r 4096 "$sg_fio1" 88 00 00 00 00 00 01 00 00 00 00 00 00 01 00 00)
grep -qi 'descriptor format' <<< "$out" || fail "D_SENSE=1 but not descriptor sense: $out"
run sg_wr_mode -p a -c a,a,0 -m 0,0,4 "$sg_fio1"
out=$(sense_of sg_raw -v -r 4096 "$sg_fio1" 88 00 00 00 00 00 01 00 00 00 00 00 00 01 00 00)
grep -qi 'fixed format' <<< "$out" || fail "D_SENSE=0 but not fixed sense: $out"
out=$(sense_of sg_wr_mode -p a -c a,a,0,0,80 -m 0,0,0,0,80 "$sg_fio1")
grep -qi 'illegal request' <<< "$out" || fail "changing an unchangeable bit: $out"
sense_of sg_turs "$sg_fio1b" > /dev/null

# --- data, VERIFY, GET LBA STATUS, UNMAP --------------------------------------
head -c 4096 /dev/urandom > /tmp/d4k
run dd if=/tmp/d4k of="$fio1" bs=4096 seek=10 count=1 oflag=direct status=none
run sg_verify --lba=10 --count=1 --ndo=4096 --in=/tmp/d4k "$fio1"
run sg_verify --lba=0 --count=16 "$fio1"
cp /tmp/d4k /tmp/d4kx
printf '\xff' | dd of=/tmp/d4kx bs=1 seek=100 conv=notrunc status=none
cmp -s /tmp/d4k /tmp/d4kx && printf '\x00' | dd of=/tmp/d4kx bs=1 seek=100 conv=notrunc status=none
out=$(sense_of sg_verify -v --lba=10 --count=1 --ndo=4096 --in=/tmp/d4kx "$fio1")
echo "$out"
grep -qi 'miscompare' <<< "$out" || fail "VERIFY BYTCHK=1 did not miscompare"
grep -q 'Info fld=0x64' <<< "$out" || fail "VERIFY miscompare offset not 100"
out=$(sg_get_lba_status --lba=10 "$fio1")
echo "$out"
grep -q 'LBA: 0x000000000000000a  blocks:          1  mapped' <<< "$out" || fail "LBA 10 not mapped"
sg_get_lba_status --lba=0 "$fio1" | grep_q 'blocks:         10  deallocated' || fail "LBA 0-9 not deallocated"
run sg_unmap --force --lba=10 --num=1 "$fio1"
sg_get_lba_status --lba=10 "$fio1" | grep_q 'deallocated' || fail "LBA 10 not deallocated after UNMAP"
dd if="$fio1" bs=4096 skip=10 count=1 iflag=direct status=none | cmp -s - <(head -c 4096 /dev/zero) ||
	fail "unmapped block does not read zeros"
out=$(sense_of sg_unmap -v --force --lba=16383 --num=2 "$fio1")
grep -qi 'out of range' <<< "$out" || fail "UNMAP past the end: $out"
out=$(sense_of sg_unmap -v --force --lba=0 --num=8 "$fio2")
grep -qi 'invalid command operation code' <<< "$out" || fail "UNMAP on a non-thin device: $out"

# --- WRITE SAME ---------------------------------------------------------------
head -c 4096 /dev/urandom > /tmp/w4k
run sg_write_same --lba=100 --num=300 --in=/tmp/w4k "$fio1"
for i in 0 150 299; do
	dd if="$fio1" bs=4096 skip=$((100 + i)) count=1 iflag=direct status=none | cmp -s - /tmp/w4k ||
		fail "fileio WRITE SAME block $i"
done
run sg_write_same --lba=100 --num=300 --in=/dev/zero "$fio1"
dd if="$fio1" bs=4096 skip=200 count=1 iflag=direct status=none | cmp -s - <(head -c 4096 /dev/zero) ||
	fail "fileio WRITE SAME zeros"
head -c 512 /dev/urandom > /tmp/w512
run dd if=/dev/urandom of="$bio1" bs=512 seek=1000 count=64 oflag=direct status=none
run sg_write_same --unmap --lba=1000 --num=64 --in=/dev/zero "$bio1"
dd if="$bio1" bs=512 skip=1000 count=64 iflag=direct status=none | cmp -s - <(head -c 32768 /dev/zero) ||
	fail "blockio WRITE SAME UNMAP zeros"
run dd if=/dev/urandom of="$bio1" bs=512 seek=1000 count=64 oflag=direct status=none
run sg_write_same --lba=1000 --num=64 --in=/dev/zero "$bio1"
dd if="$bio1" bs=512 skip=1000 count=64 iflag=direct status=none | cmp -s - <(head -c 32768 /dev/zero) ||
	fail "blockio WRITE SAME zeros"
run sg_write_same --16 --lba=2000 --num=2000 --in=/tmp/w512 "$bio1"
dd if="$bio1" bs=512 skip=3999 count=1 iflag=direct status=none | cmp -s - /tmp/w512 ||
	fail "blockio WRITE SAME(16) last block"
run sg_write_same --lba=0 --num=100 --in=/tmp/w4k "$null1"
run sg_write_same --16 --unmap --lba=0 --num=100 --in=/dev/zero "$null1"
out=$(sense_of sg_write_same -v --unmap --lba=0 --num=8 --in=/dev/zero "$fio2")
grep -qi 'invalid field in cdb' <<< "$out" || fail "WRITE SAME UNMAP on a non-thin device: $out"
out=$(sense_of sg_write_same -v --16 --lba=0 --num=20000 --in=/dev/zero "$null1")
grep -qi 'invalid field in cdb' <<< "$out" || fail "WRITE SAME over the limit: $out"
run sg_unmap --force --lba=0 --num=4096 "$bio1"
run sg_unmap --force --lba=0 --num=16 "$null1"

# --- COMPARE AND WRITE on fileio (4096-byte blocks) and nullio -------------------
head -c 4096 /dev/urandom > /tmp/n4k
run dd if=/tmp/d4k of="$fio1" bs=4096 seek=20 count=1 oflag=direct status=none
cat /tmp/d4k /tmp/n4k > /tmp/caw4k
run sg_compare_and_write --xferlen=8192 --in=/tmp/caw4k --lba=20 --num=1 "$fio1"
dd if="$fio1" bs=4096 skip=20 count=1 iflag=direct status=none | cmp -s - /tmp/n4k || fail "fileio CAW write"
cat /tmp/d4kx /tmp/n4k > /tmp/caw4kx
out=$(sense_of sg_compare_and_write -v --xferlen=8192 --in=/tmp/caw4kx --lba=20 --num=1 "$fio1")
grep -q 'Info fld=0x0 ' <<< "$out" || fail "CAW miscompare offset 0: $out"
cat /tmp/n4k /tmp/n4k > /tmp/caw4ky
printf '\x5a' | dd of=/tmp/caw4ky bs=1 seek=777 conv=notrunc status=none
cmp -s /tmp/caw4ky <(cat /tmp/n4k /tmp/n4k) && printf '\xa5' | dd of=/tmp/caw4ky bs=1 seek=777 conv=notrunc status=none
out=$(sense_of sg_compare_and_write -v --xferlen=8192 --in=/tmp/caw4ky --lba=20 --num=1 "$fio1")
grep -q 'Info fld=0x309' <<< "$out" || fail "CAW miscompare offset 777: $out"
cat <(head -c 4096 /dev/zero) /tmp/n4k > /tmp/cawz
run sg_compare_and_write --xferlen=8192 --in=/tmp/cawz --lba=5 --num=1 "$null1"
out=$(sense_of sg_compare_and_write -v --xferlen=8192 --in=/tmp/caw4k --lba=5 --num=1 "$null1")
grep -qi 'miscompare' <<< "$out" || fail "nullio CAW against non-zero"

# CAW while writes run on the same device: no hang, no error
fio_run caw-load --filename="$bio1" --ioengine=libaio --direct=1 --rw=randwrite \
	--bs=4k --iodepth=16 --size=8M --offset=16M --runtime=5 --time_based &
fiopid=$!
head -c 512 /dev/urandom > /tmp/a512; head -c 512 /dev/urandom > /tmp/b512
run dd if=/tmp/a512 of="$bio1" bs=512 seek=300 count=1 oflag=direct status=none
cat /tmp/a512 /tmp/b512 > /tmp/cab; cat /tmp/b512 /tmp/a512 > /tmp/cba
for i in $(seq 1 40); do
	sg_compare_and_write --in=/tmp/cab --lba=300 --num=1 "$bio1" || fail "CAW $i (a->b)"
	sg_compare_and_write --in=/tmp/cba --lba=300 --num=1 "$bio1" || fail "CAW $i (b->a)"
done
wait $fiopid || fail "fio during CAW"

# --- SYNCHRONIZE CACHE, read-only device -------------------------------------
for d in "$fio1" "$fio2" "$bio1" "$null1" "$sg_ro1"; do
	run sg_sync "$d"
done
sg_modes -p 8 "$ro1" | grep_q 'WP=1' || fail "read-only device without WP"
out=$(sense_of sg_raw -v -s 512 -i /tmp/w512 "$sg_ro1" 2a 00 00 00 00 00 00 00 01 00)
grep -qi 'data protect' <<< "$out" || fail "write to read_only=1 device: $out"

# --- data integrity through each back end ------------------------------------------
for disk in "$fio1" "$fio2" "$bio1"; do
	fio_run "verify-${disk##*/}" --filename="$disk" --ioengine=libaio --direct=1 \
		--rw=randwrite --bsrange=4k-128k --iodepth=16 --numjobs=2 --size=8M \
		--offset_increment=16M --verify=crc32c --do_verify=1 --verify_fatal=1
done

# --- resync_size --------------------------------------------------------------------
run truncate -s 96M /tmp/f1.img
mgmt_bad_attr() { echo "$2" > "$1" 2>/dev/null && fail "$1 accepted '$2'"; true; }
mgmt_bad_attr $D/fio1/resync_size 2
run sh -c "echo 1 > $D/fio1/resync_size"
chk $D/fio1/size 100663296
out=$(sense_of sg_turs -v "$sg_fio1")
grep -qi 'capacity data has changed' <<< "$out" || fail "no CAPACITY DATA HAS CHANGED: $out"
sg_readcap -l "$sg_fio1" | grep_q 'Number of logical blocks=24576' || fail "new capacity"
run sh -c "echo 1 > $D/bio1/resync_size"

# --- teardown -------------------------------------------------------------------------
expect_fail rmmod scst_vdisk
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 host1"
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 host2"
mgmt $H/vdisk_fileio/mgmt "del_device fio2"
[ ! -e $T/luns/1 ] || fail "LUN 1 left after del_device"
run rmmod scst_local
run rmmod scst_vdisk
[ ! -e $D/fio1 ] || fail "fio1 left after rmmod"
run rmmod scst
run losetup -d /dev/loop0
log "vdisk-extra passed"
exit 0
