#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The packaged service's script (/usr/lib/scst-ng/scst-service, what
# scst.service runs; the guest has no systemd), with the package's
# /etc/default/scst-ng and module list (pkg-service.files):
#  - a /etc/scst.conf that does not parse makes start fail with scstadmin's
#    message, and loads nothing; one that parses but names a handler that
#    is not loaded makes start fail after the check against the tree, with
#    nothing applied and the modules unloaded again;
#  - start loads the modules with the options of /etc/default/scst-ng and
#    applies the file: the Linux SRP initiator sees its LUNs;
#  - reload of a changed file makes only the difference (a new device and
#    LUN), leaves the LUN the file dropped (not made without -force) and the
#    session; with SCST_RELOAD_FORCE=yes it removes that LUN, and only it;
#  - stop with the initiator logged in ends the session and unloads every
#    module;
#  - start applies a file SCST 3.11 wrote (every device, target, group and
#    root attribute SCST writes that we honour; each reads back), and
#    refuses one with a DIF attribute by name and line, applying nothing.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh

S=/usr/lib/scst-ng/scst-service
[ -x $S ] || fail "no $S in the guest (pkg-service.files)"
command -v scstadmin > /dev/null || fail "no scstadmin in the guest (make usr)"

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=65536
rxe_setup_one
gid=$(rxe_port_gid rxe0)
T=$SRPT/$gid
cat >> /etc/default/scst-ng <<EOF
SCST_MODULES="scst scst_vdisk scst_srpt"
SCST_OPTS_scst_srpt="rdma_cm_port=$SRP_PORT"
SCST_STOP_TIMEOUT=10
EOF

no_scst_module() {
	local m
	for m in "${OUR_MODULES[@]}"; do
		module_loaded "$m" && { echo "$m is loaded"; return 1; }
	done
	return 0
}

# --- a broken file: nothing loaded or applied ---------------------------------
printf 'HANDLER vdisk_nullio {\n\tDEVICE d0 {\n\t\tsize_mb 16\n\t}\n' > /etc/scst.conf
log "+ scst-service start (file does not parse: must fail)"
out=$($S start 2>&1) && fail "start succeeded with a broken /etc/scst.conf: $out"
echo "$out"
grep -q 'unexpected end of file' <<< "$out" || fail "start did not show scstadmin's error"
grep -q 'not starting: nothing loaded or applied' <<< "$out" || fail "start did not say that nothing was applied"
no_scst_module || fail "start with a broken file loaded modules"

# parses, but names a handler SCST_MODULES does not load (dev_disk):
# scstadmin -config would skip it, -check_config warns (exit 7)
cat > /etc/scst.conf <<'EOF'
HANDLER vdisk_nullio {
	DEVICE d0 {
		size_mb 16
	}
}

HANDLER dev_disk {
	DEVICE 0:0:0:0
}
EOF
log "+ scst-service start (handler not loaded: must fail after the modules load)"
out=$($S start 2>&1) && fail "start succeeded with a handler that is not loaded: $out"
echo "$out"
grep -q "handler 'dev_disk' is not loaded" <<< "$out" || fail "start did not show scstadmin's warning"
grep -q 'against the loaded modules; not starting: nothing applied' <<< "$out" ||
	fail "start did not say that nothing was applied"
grep -q '^-> ' <<< "$out" && fail "start applied part of the file"
no_scst_module || fail "a refused start left modules loaded"

# --- start --------------------------------------------------------------------
conf() {
	cat <<EOF
HANDLER vdisk_blockio {
	DEVICE disk_bio {
		filename /dev/ram0
	}
}

HANDLER vdisk_nullio {
	DEVICE disk_null {
		size_mb 64
	}
$1
}

TARGET_DRIVER ib_srpt {
	TARGET $gid {
		enabled 1

		GROUP net {
			LUN 0 disk_bio
$2
			INITIATOR 10.0.0.*
		}
	}
}
EOF
}
conf "" "			LUN 1 disk_null" > /etc/scst.conf
run $S start
module_loaded scst_srpt || fail "start did not load scst_srpt"
assert_eq "$(cat /sys/module/scst_srpt/parameters/rdma_cm_port)" "$SRP_PORT" \
	"scst_srpt's rdma_cm_port from /etc/default/scst-ng"
assert_eq "$(attr_value "$T/enabled")" 1 "target enabled by start"
id=$(srpt_login_field "$T" tid_ext)
srp_login "$id" "$id"
srpt_wait_lun 0
srpt_wait_lun 1
for l in 0:disk_bio 1:disk_null; do
	grep -q "Product identification: ${l#*:}\\b" <<< "$(ua_retry sg_inq "$(srpt_lun_disk "${l%%:*}")")" ||
		fail "LUN ${l%%:*} is not ${l#*:}"
done
sessions=$(srpt_sessions "$T")
[ -n "$sessions" ] || fail "no session after the login"

# nr_luns: the LUNs REPORT LUNS shows the initiator
nr_luns() {
	local out
	out=$(ua_retry sg_luns "$(lun_sg "$SRP_HOST" 0)") || fail "REPORT LUNS"
	grep -c '^    000' <<< "$out"
}
# only_changed PATTERN BEFORE: the tree changed, and only in paths that
# match PATTERN
only_changed() {
	local d
	# busybox's diff writes the unified format only
	d=$(diff -U0 <(echo "$2") <(tree_snapshot) | grep -E '^[-+]\.')
	echo "$d"
	[ -n "$d" ] || fail "the tree did not change"
	if grep -vE "$1" <<< "$d"; then
		fail "the lines above changed too"
	fi
}

# --- reload: only the difference ----------------------------------------------
conf "	DEVICE disk_new {
		size_mb 32
	}" "			LUN 2 disk_new" > /etc/scst.conf
before=$(tree_snapshot)
log "+ scst-service reload (a new device and LUN 2; LUN 1 dropped from the file)"
out=$($S reload 2>&1) || fail "reload failed: $out"
echo "$out"
only_changed 'disk_new|/luns/2(/|$)|/lun2(/|$)|_2$' "$before"
grep -q 'not made' <<< "$out" || fail "reload did not list the dropped LUN 1 as not made"
[ -d "$T/ini_groups/net/luns/1" ] || fail "reload without -force removed LUN 1"
assert_eq "$(srpt_sessions "$T")" "$sessions" "sessions across reload"
assert_eq "$(nr_luns)" 3 "LUNs the initiator sees after reload"

echo SCST_RELOAD_FORCE=yes >> /etc/default/scst-ng
before=$(tree_snapshot)
log "+ scst-service reload (SCST_RELOAD_FORCE=yes: LUN 1 goes)"
out=$($S reload 2>&1) || fail "reload with SCST_RELOAD_FORCE=yes failed: $out"
echo "$out"
only_changed '/luns/1(/|$)|/lun1(/|$)|_1$' "$before"
[ -e "$T/ini_groups/net/luns/1" ] && fail "LUN 1 still there after the forced reload"
assert_eq "$(srpt_sessions "$T")" "$sessions" "sessions across the forced reload"
assert_eq "$(nr_luns)" 2 "LUNs the initiator sees after the forced reload"

# a broken file at reload: refused, nothing changes
before=$(tree_snapshot)
echo 'HANDLER vdisk_nullio {' > /etc/scst.conf
out=$($S reload 2>&1) && fail "reload succeeded with a broken file: $out"
echo "$out"
grep -q 'nothing applied, the running configuration is unchanged' <<< "$out" ||
	fail "reload did not say that nothing was applied"
[ "$before" = "$(tree_snapshot)" ] || fail "a refused reload changed the tree"

# --- stop with a live session ---------------------------------------------------
[ -n "$(srpt_sessions "$T")" ] || fail "the session went before stop"
log "+ scst-service stop (initiator logged in)"
out=$($S stop 2>&1) || fail "stop failed: $out"
echo "$out"
grep -q "disabling ib_srpt/$gid" <<< "$out" || fail "stop did not disable the target"
no_scst_module || fail "stop left modules loaded"
[ -d /sys/kernel/scst_tgt ] && fail "the management tree is still there after stop"
srp_logout
run rmmod ib_srp

# --- a file SCST 3.11 wrote, with the attributes it writes ----------------
# (the layout of its -write_config: key attributes, then "# Non-key
# attributes"; values SCST would have for such a setup). start applies
# every one of them, and each reads back in the tree.
run dd if=/dev/zero of=/tmp/disk02.img bs=1M count=0 seek=32 status=none
cat > /etc/scst.conf <<'EOF'
# Automatically generated by SCST Configurator v3.11.0.

# Non-key attributes
measure_latency 1
setup_id 0x2a

HANDLER vdisk_blockio {
	DEVICE disk01 {
		filename /dev/ram0
		active 1
		bind_alua_state 1
		blocksize 512
		cluster_mode 0
		eui64_id 0x0011223344556677
		lb_per_pb_exp 1
		naa_id 0x6001405000000001aabbccdd00112233
		nv_cache 0
		numa_node_id -1
		opt_trans_len 262144
		prod_id disk01
		prod_rev_lvl 3110
		read_only 0
		removable 0
		rotational 0
		scsi_device_name iqn.2026-01.test:disk01
		t10_dev_id 27cddc71-disk01
		t10_vend_id SCST_BIO
		thin_provisioned 0
		usn 27cddc71
		vend_specific_id 27cddc71-disk01
		write_through 0

		# Non-key attributes
		expl_alua 1
		max_transfer_kb 1024
		tst 1
	}
}

HANDLER vdisk_fileio {
	DEVICE disk02 {
		filename /tmp/disk02.img
		async 0
		blocksize 4096
		o_direct 0
		threads_num 2
		threads_pool_type shared
	}
}

HANDLER vdisk_nullio {
	DEVICE null01 {
		blocksize 1024
		dummy 0
		read_zero 1
		size_mb 64
	}
}

TARGET_DRIVER scst_local {
	TARGET migr {
		LUN 0 disk01
		LUN 1 disk02
		LUN 2 null01

		# Non-key attributes
		aen_disabled 1
		addr_method PERIPHERAL
		black_hole 0
		comment migrated from SCST 3.11
		io_grouping_type never
		rel_tgt_id 7

		GROUP hosts {
			INITIATOR host1

			# Non-key attributes
			addr_method PERIPHERAL
			black_hole 0
			io_grouping_type this_group_only
		}
	}
}
EOF
sed -i 's/^SCST_MODULES=.*/SCST_MODULES="scst scst_vdisk scst_local"/' /etc/default/scst-ng
echo 'SCST_OPTS_scst_local="add_default_tgt=0"' >> /etc/default/scst-ng
log "+ scst-service start (a file SCST 3.11 wrote)"
out=$($S start 2>&1) || fail "start refused SCST's file: $out"
echo "$out"
D=$SCST/devices
LT=$SCST/targets/scst_local/migr
# check_attr PATH VALUE
check_attr() {
	assert_eq "$(attr_value "$1")" "$2" "${1#$SCST/}"
}
check_attr $SCST/measure_latency 1
check_attr $SCST/setup_id 0x2a
for a in "active 1" "bind_alua_state 1" "blocksize 512" "cluster_mode 0" \
	 "eui64_id 0x0011223344556677" "lb_per_pb_exp 1" \
	 "naa_id 0x6001405000000001aabbccdd00112233" "numa_node_id -1" \
	 "opt_trans_len 262144" "prod_id disk01" "prod_rev_lvl 3110" \
	 "scsi_device_name iqn.2026-01.test:disk01" \
	 "t10_dev_id 27cddc71-disk01" "t10_vend_id SCST_BIO" "usn 27cddc71" \
	 "vend_specific_id 27cddc71-disk01" "max_transfer_kb 1024" \
	 "tst 1" "expl_alua 1"; do
	check_attr "$D/disk01/${a%% *}" "${a#* }"
done
check_attr $D/disk02/blocksize 4096
check_attr $D/disk02/filename /tmp/disk02.img
check_attr $D/disk02/threads_num 2
check_attr $D/disk02/threads_pool_type shared
for a in "blocksize 1024" "dummy 0" "read_zero 1" "size_mb 64"; do
	check_attr "$D/null01/${a%% *}" "${a#* }"
done
for a in "aen_disabled 1" "comment migrated from SCST 3.11" \
	 "io_grouping_type never" "rel_tgt_id 7" "addr_method PERIPHERAL" \
	 "black_hole 0"; do
	check_attr "$LT/${a%% *}" "${a#* }"
done
check_attr $LT/ini_groups/hosts/io_grouping_type this_group_only
[ -e "$LT/ini_groups/hosts/initiators/host1" ] ||
	fail "initiator host1 not in group hosts"
for l in 0 1 2; do
	[ -d "$LT/luns/$l" ] || fail "LUN $l of target migr missing"
done
run $S stop
no_scst_module || fail "stop left modules loaded"

# what we cannot honour is refused by name, with its line, before anything
# is applied
sed -i 's/^\t\tcluster_mode 0$/\t\tdif_mode dev_check/' /etc/scst.conf
line=$(grep -n 'dif_mode dev_check' /etc/scst.conf | cut -d: -f1)
[ -n "$line" ] || fail "the test's file has no dif_mode line"
log "+ scst-service start (dif_mode dev_check: must fail)"
out=$($S start 2>&1) && fail "start succeeded with dif_mode dev_check: $out"
echo "$out"
grep -q "dif_mode" <<< "$out" || fail "start did not name dif_mode"
grep -q "$line" <<< "$out" || fail "start did not name line $line"
grep -q '^-> ' <<< "$out" && fail "start applied part of a refused file"
no_scst_module || fail "a refused start left modules loaded"
log "pkg-service passed"
exit 0
