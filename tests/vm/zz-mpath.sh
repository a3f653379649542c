#!/bin/bash
. /tests/lib/common.sh
. /tests/lib/scst.sh
run modprobe -a sd_mod sg dm_multipath
mkdir -p /run/udev /etc/udev/rules.d
[ -e /var/run ] || ln -s /run /var/run
/lib/systemd/systemd-udevd --daemon --resolve-names=never
udevadm trigger --action=add
udevadm settle -t 20
run modprobe scst
run modprobe scst_vdisk
run modprobe scst_local add_default_tgt=0
mgmt $SCST/handlers/vdisk_nullio/mgmt "add_device d0 size_mb=64"
local_target t0 iniA "d0 0"
mgmt $SCST/targets/scst_local/mgmt "add_session t0 iniB"
udevadm settle -t 20
lsscsi
udevadm info /dev/sda | head -30
cat > /etc/multipath.conf <<'C'
defaults {
	user_friendly_names no
	find_multipaths no
	polling_interval 2
}
blacklist {
	devnode "^vd"
}
C
multipathd -d -v3 > /tmp/mpd.log 2>&1 &
sleep 8
udevadm settle -t 20
multipath -v3 2>&1 | tail -60
multipath -ll 2>&1
multipathd show paths 2>&1
ls -la /dev/mapper /dev/dm-* 2>&1
tail -20 /tmp/mpd.log
exit 0
