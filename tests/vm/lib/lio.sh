# SPDX-License-Identifier: GPL-2.0-only
# LIO's in-tree SRP target (ib_srpt) configured by hand in configfs: the
# baseline our target is compared with. ../shared/notes/vm-recipe.md.

LIO=/sys/kernel/config/target

# lio_srpt_setup RDMA_DEV BLOCKDEV INITIATOR_ACL: export BLOCKDEV (iblock)
# as LUN 0 on the port of RDMA_DEV, listening for RDMA/CM on $SRP_PORT.
# INITIATOR_ACL is the name LIO gives the session: for RDMA/CM logins LIO
# uses the target's own address (cm_id->route.addr.src_addr).
lio_srpt_setup() {
	local dev=$1 bdev=$2 acl=$3 tp tpg

	run modprobe -a target_core_mod target_core_iblock ib_srpt
	# A fabric's configfs directory appears when it is first made.
	run mkdir -p "$LIO/srpt"
	run mkdir -p "$LIO/core/iblock_0/lio_disk"
	run sh -c "echo udev_path=$bdev > $LIO/core/iblock_0/lio_disk/control"
	run sh -c "echo 1 > $LIO/core/iblock_0/lio_disk/enable"
	run sh -c "echo $SRP_PORT > $LIO/srpt/discovery_auth/rdma_cm_port"

	# The port is named by its GID's interface ID, "xxxx:xxxx:xxxx:xxxx".
	tp=$(rxe_port_gid "$dev")
	tp=${tp#fe80:0000:0000:0000:}
	tpg=$LIO/srpt/$tp/$tp
	run mkdir -p "$tpg/lun/lun_0"
	run ln -s "$LIO/core/iblock_0/lio_disk" "$tpg/lun/lun_0/lio_disk"
	run mkdir -p "$tpg/acls/$acl/lun_0"
	run ln -s "$tpg/lun/lun_0" "$tpg/acls/$acl/lun_0/lun_0"
	run sh -c "echo 1 > $tpg/enable"
	LIO_TPG=$tpg
	LIO_TPORT=$LIO/srpt/$tp
	LIO_ACL=$acl
}

lio_srpt_teardown() {
	[ -n "${LIO_TPG:-}" ] || return 0
	run sh -c "echo 0 > $LIO_TPG/enable"
	run rm "$LIO_TPG/acls/$LIO_ACL/lun_0/lun_0"
	run rmdir "$LIO_TPG/acls/$LIO_ACL/lun_0" "$LIO_TPG/acls/$LIO_ACL"
	run rm "$LIO_TPG/lun/lun_0/lio_disk"
	run rmdir "$LIO_TPG/lun/lun_0" "$LIO_TPG" "$LIO_TPORT"
	run rmdir "$LIO/core/iblock_0/lio_disk" "$LIO/core/iblock_0"
	run sh -c "echo 0 > $LIO/srpt/discovery_auth/rdma_cm_port"
	run rmdir "$LIO/srpt"
	run modprobe -r ib_srpt target_core_iblock
	LIO_TPG=
}
