#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Memory descriptor formats of SRP_CMD (SRP r16a 5.5) against scst_srpt:
# ib_srp without memory registration sends one descriptor per S/G entry,
# so requests carry indirect descriptor lists; with cmd_sg_entries=2 and
# allow_ext_sg=1 most of the table stays in the initiator's memory and the
# target fetches it by RDMA READ. Without immediate data every write's
# data-out is fetched by RDMA READ; with it, small writes' data is used
# where it arrived (zero copy). fio --verify checks the data each time.
# Two vCPUs: the page stash's check takes CPU 1 offline and counts on
# CPU 0's stash alone being left.
# vm-smp: 2
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=131072
srpt_target_up rxe_setup_one
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt "$T/luns/mgmt" "add disk_bio 0"
run sh -c "echo 1 > '$T/enabled'"

# desc_run NAME IB_SRP_PARAMS...: log in with ib_srp loaded with the
# parameters, verify data, log out, unload ib_srp.
desc_run() {
	local name=$1 disk
	shift
	run modprobe ib_srp "$@"
	srp_login "$id" "$id" "queue_size=32"
	srpt_wait_lun 0
	disk=$(srpt_lun_disk 0)
	log "$name: sg_tablesize $(cat /sys/class/scsi_host/host$SRP_HOST/sg_tablesize)"
	fio_run "$name" --filename="$disk" --ioengine=libaio --direct=1 \
		--rw=randwrite --bsrange=512-256k --iodepth=16 --size=24M \
		--verify=crc32c --do_verify=1 --verify_fatal=1
	srp_logout
	srpt_wait_sessions "$T" 0
	run rmmod ib_srp
	# ib_srp forgets a removed target a moment after its SCSI host
	sleep 1
}

desc_run indirect-in-iu never_register=1
desc_run indirect-external never_register=1 cmd_sg_entries=2 \
	indirect_sg_entries=64 allow_ext_sg=1 use_imm_data=0
# Immediate data (SRP-2): ib_srp sends a write of up to max_imm_data
# bytes inside its SRP_CMD, and scst_srpt's channel receive buffers put
# that data at 512 bytes, so the core takes it as the command's buffer
# (srpt_offer_imm_data()): 4 KiB writes take no page for their data-out
# buffer, and the page stash's reuse count stays where it was. BLOCKIO
# reads (fio's verify pass) get zeroed pages, not stashed ones: a block
# driver may end a read without writing them. 64 KiB writes (RDMA READ
# into the core's pages) and NULLIO reads (fills_data_in: it zeroes what
# it returns) take stashed pages, and NULLIO must read back zeros however
# many pages of written data the stash holds.
stash_reused() {
	sed -n 's/^stashed [0-9]* reused \([0-9]*\)$/\1/p' $SCST/page_stash
}
mgmt $SCST/handlers/vdisk_nullio/mgmt "add_device null0 size_mb=64"
mgmt "$T/luns/mgmt" "add null0 1"
# a RAM disk that asks for 4 KiB DMA alignment and fails any bio without
# it (tests/vm/modules/scst_test_align.c), as some controllers ask; made
# inactive and then opened, so that what the device learns of the
# alignment comes from the opening (active=1), not only from the add
run insmod /lib/modules/"$(uname -r)"/updates/scst_test_align.ko
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device align0 filename=/dev/scst_align0;active=0"
run sh -c "echo 1 > $SCST/devices/align0/active"
mgmt "$T/luns/mgmt" "add align0 2"
run modprobe ib_srp use_imm_data=1 max_imm_data=8192
srp_login "$id" "$id" "queue_size=32"
srpt_wait_lun 0
srpt_wait_lun 1
srpt_wait_lun 2
disk=$(srpt_lun_disk 0)
null=$(srpt_lun_disk 1)
align=$(srpt_lun_disk 2)
dmesg | grep -q 'immediate data' || fail "the channel was not granted immediate data"
r0=$(stash_reused)
[ -n "$r0" ] || fail "page_stash: unexpected '$(cat $SCST/page_stash)'"
imm_fio=(--filename="$disk" --ioengine=libaio --direct=1 --rw=randwrite
	 --bs=4k --iodepth=16 --size=16M --verify=crc32c --verify_fatal=1)
fio_run imm-4k "${imm_fio[@]}" --do_verify=0
r1=$(stash_reused)
assert_eq "$r1" "$r0" "data-out pages reused by 4 KiB immediate-data writes"
fio_run imm-4k "${imm_fio[@]}" --verify_only
r2=$(stash_reused)
assert_eq "$r2" "$r1" "data-in pages reused by BLOCKIO reads"
fio_run imm-64k --filename="$disk" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=64k --iodepth=8 --size=16M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
r3=$(stash_reused)
[ "$r3" -gt "$r2" ] || fail "64 KiB writes reused no data-out page ($r2 -> $r3)"
run dd if="$null" of=/tmp/null.img bs=4k count=4096 iflag=direct status=none
r4=$(stash_reused)
[ "$r4" -gt "$r3" ] || fail "NULLIO reads reused no data-in page ($r3 -> $r4)"
log "page_stash: $(cat $SCST/page_stash)"
run cmp -n $((16 << 20)) /tmp/null.img /dev/zero
rm -f /tmp/null.img

# The stash gives its pages back (scst_page_stash.c): to its shrinker,
# which drop_caches runs as memory pressure would, and when a CPU goes
# offline (nothing would take from that CPU's stash any more). With 8
# pages per CPU, I/O submitted from both CPUs leaves more than 8 stashed
# (pages are stashed on the CPU that ends the command); taking CPU 1
# offline must leave at most CPU 0's 8.
stashed() {
	sed -n 's/^stashed \([0-9]*\) reused [0-9]*$/\1/p' $SCST/page_stash
}
s=$(stashed)
[ "$s" -gt 0 ] || fail "page_stash: nothing stashed after the writes"
run sh -c 'echo 2 > /proc/sys/vm/drop_caches'
assert_eq "$(stashed)" 0 "pages left stashed after drop_caches ($s before)"
run sh -c 'echo 8 > /sys/module/scst/parameters/stash_pages'
both=0
for try in 1 2 3 4 5; do
	for cpu in 0 1; do
		taskset -c $cpu dd if=/dev/zero of="$disk" bs=64k count=64 \
			oflag=direct status=none &
		taskset -c $cpu dd if="$null" of=/dev/null bs=64k count=64 \
			iflag=direct status=none &
	done
	wait
	s=$(stashed)
	[ "$s" -gt 8 ] && { both=1; break; }
done
[ $both = 1 ] || fail "page_stash: I/O from both CPUs stashed only $s pages"
run sh -c 'echo 0 > /sys/devices/system/cpu/cpu1/online'
s1=$(stashed)
run sh -c 'echo 1 > /sys/devices/system/cpu/cpu1/online'
log "page_stash: $s stashed before CPU 1 went offline, $s1 after"
[ "$s1" -le 8 ] || fail "CPU 1's stash was not emptied when it went offline ($s -> $s1)"
run sh -c 'echo 256 > /sys/module/scst/parameters/stash_pages'

# Immediate data sits at 512 bytes in its receive buffer: on the device
# that needs 4 KiB (vdisk_blockio takes the queue's DMA alignment as the
# device's dma_align_mask) the core must not use it as the buffer but
# give the command its own pages, which scst_srpt copies the data into
# (data-out pages: the stash hands them out, its reuse count grows).
r5=$(stash_reused)
fio_run imm-align --filename="$align" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=4k --iodepth=16 --size=8M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
assert_eq "$(cat /sys/module/scst_test_align/parameters/misaligned)" 0 \
	"bios refused by the 4 KiB-aligned device"
r6=$(stash_reused)
[ "$r6" -gt "$r5" ] || fail "immediate-data writes to align0 took no core page ($r5 -> $r6)"
srp_logout
srpt_wait_sessions "$T" 0
run rmmod ib_srp
n=$(dmesg | grep -c 'descriptor table') || true
[ "$n" -eq 0 ] || { dmesg | grep 'descriptor table' | head; fail "descriptor table errors"; }

run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scst
run rmmod scst_test_align
log "srpt-desc passed"
exit 0
