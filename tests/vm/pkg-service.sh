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
#    module.
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
log "pkg-service passed"
exit 0
