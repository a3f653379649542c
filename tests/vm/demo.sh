#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The demo (make demo): an SRP target configured from /etc/scst.conf with
# scstadmin, serving a BLOCKIO, a FILEIO and a NULLIO LUN to the Linux SRP
# initiator over Soft-RoCE (two rxe devices: the initiator at 10.0.0.2,
# the target at 10.0.0.1), with an initiator group that names the
# initiator's address.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

show() {
	echo
	echo "### $*"
	"$@"
}

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=262144
run dd if=/dev/zero of=/var/tmp/disk_fio.img bs=1M count=0 seek=256 status=none
rxe_setup_two
srpt_load
gid=$(rxe_port_gid rxe0)
wait_for 10 "SRP target $gid" test -d "$SRPT/$gid"

mkdir -p /etc
cat > /etc/scst.conf <<CONF
# /etc/scst.conf of the demo
HANDLER vdisk_blockio {
	DEVICE disk_bio {
		filename /dev/ram0
	}
}

HANDLER vdisk_fileio {
	DEVICE disk_fio {
		filename /var/tmp/disk_fio.img
	}
}

HANDLER vdisk_nullio {
	DEVICE disk_null {
		size_mb 4096
	}
}

TARGET_DRIVER ib_srpt {
	TARGET $gid {
		enabled 1

		GROUP hosts {
			LUN 0 disk_bio
			LUN 1 disk_fio
			LUN 2 disk_null
			INITIATOR 10.0.0.2
		}
	}
}
CONF
show cat /etc/scst.conf
show scstadmin -config /etc/scst.conf || fail "scstadmin -config failed"

id=$(srpt_login_field "$SRPT/$gid" tid_ext)
srp_login "$id" "$id" "queue_size=128,max_cmd_per_lun=128"
srp_wait_disks 3

echo
echo "### The sessions: two targets, because ib_srpt serves every RDMA port of"
echo "### the machine and this guest holds both ends (rxe0 the target's port,"
echo "### rxe1 the initiator's); two sessions of one initiator, because ib_srp"
echo "### opens one RDMA channel per CPU (ch_count) and each is a session"
echo "### (10.0.0.2, 10.0.0.2_1)."
show scstadmin -list_sessions
show lsscsi
for lun in 0 1 2; do
	show sg_inq "$(lun_disk "$SRP_HOST" "$lun")" | grep -E 'Vendor|Product|Unit serial|###' || true
done
bio=$(lun_disk "$SRP_HOST" 0)
echo
echo "### The fio figures below come from an emulated CPU (QEMU without KVM)"
echo "### that runs the initiator, Soft-RoCE and the target: they show the"
echo "### I/O path works and verifies, not how fast it is (make bench)."
echo "### fio: 4 KiB random read/write with crc32c verification on $bio (BLOCKIO), 10 s"
fio_run demo --filename="$bio" --ioengine=libaio --direct=1 --rw=randrw \
	--bs=4k --iodepth=32 --size=64M --runtime=10 --time_based \
	--verify=crc32c --verify_fatal=1
echo
echo "### fio: 4 KiB random read, NULLIO, 10 s"
fio_run demo-null --filename="$(lun_disk "$SRP_HOST" 2)" --ioengine=libaio \
	--direct=1 --rw=randread --bs=4k --iodepth=32 --runtime=10 --time_based
srp_logout
echo
echo "DEMO OK"
exit 0
