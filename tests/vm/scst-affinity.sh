#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-smp: 4
#
# scst-affinity on 4 vCPUs: show (text, JSON); apply of none, spread,
# split, numa and an explicit map, checked through /proc/irq/N/
# smp_affinity_list of the virtio IRQs (standing in for HCA IRQs, which
# Soft-RoCE has none of) and /proc/PID/status of the ib_srpt target's
# completion thread; save/restore returns the exact state; each kind of
# bad input is refused with nothing changed; a short sweep (none and split
# x thread mode off/on x 2 runs of 3 s) on a NULLIO LUN over ib_srpt
# writes the table, the CSV and the PNG and restores the state, also when
# interrupted.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh

AFF=(scst-affinity --irq 'virtio*')

[ "$(nproc)" = 4 ] || fail "needs 4 vCPUs, has $(nproc)"
run modprobe -a sd_mod sg
# the virtio-rng device's MSI-X IRQs stand in for an HCA's
# (scst-affinity.modules brings the modules; 6.12 has virtio_pci built in)
module_loaded virtio_pci || run modprobe virtio_pci
run modprobe virtio_rng
rxe_setup_one
srpt_load
T=$(srpt_tgt rxe0)
wait_for 10 "target of rxe0" test -d "$T"
TN=${T##*/}
id=$(srpt_login_field "$T" tid_ext)
mgmt $SCST/handlers/vdisk_nullio/mgmt "add_device null0 size_mb=1024"
mgmt "$T/luns/mgmt" "add null0 0"
mgmt "$T/ini_groups/mgmt" "create g1"
# thread mode, so that the target has a thread whose CPUs we can see
run sh -c "echo 1 > '$T/thread_mode'"
run sh -c "echo 1 > '$T/enabled'"
srp_login "$id" "$id" "queue_size=64"
srpt_wait_lun 0
disk=$(srpt_lun_disk 0)

pid=$(cat "$T/thread_pid")
[ "$pid" -gt 0 ] || fail "target thread_pid is $pid in thread mode"
for s in $(srpt_sessions "$T"); do
	assert_eq "$(cat "$T/sessions/$s/thread_pid")" "$pid" "thread of $s"
done

# The IRQs the tool is to handle, in /proc/interrupts order.
mapfile -t IRQS < <(awk '$NF ~ /^virtio/ { sub(":", "", $1); print $1 }' /proc/interrupts)
[ ${#IRQS[@]} -ge 1 ] || fail "no virtio IRQs"
log "virtio IRQs: ${IRQS[*]}"

irq_cpus() { cat "/proc/irq/$1/smp_affinity_list"; }
thread_cpus() {
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status"
}
# The thread follows cpu_mask when it next wakes: give it I/O.
poke() { dd if="$disk" of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null; }
thread_on() { poke; [ "$(thread_cpus)" = "$1" ]; }
# state: read straight from /proc and sysfs, not through the tool (with
# bash's read: no process per file under TCG)
state() {
	local i f v
	for i in "${IRQS[@]}"; do
		read -r v < "/proc/irq/$i/smp_affinity_list"
		echo "irq $i $v"
	done
	for f in cpu_mask ini_groups/g1/cpu_mask comp_v_mask thread_mode; do
		read -r v < "$T/$f"
		echo "$f $v"
	done
}

# --- show ---
out=$("${AFF[@]}" show) || fail "show failed"
echo "$out"
grep -q "ib_srpt/$TN" <<< "$out" || fail "show: no target $TN"
grep -q "^  $pid .*targets/ib_srpt/$TN/cpu_mask" <<< "$out" ||
	fail "show: no line for the target thread $pid"
for i in "${IRQS[@]}"; do
	grep -q "^  $i " <<< "$out" || fail "show: no IRQ $i"
done
json=$("${AFF[@]}" show --json) || fail "show --json failed"
grep -q "\"pid\":$pid," <<< "$json" || fail "show --json: no thread $pid"
grep -q "\"name\":\"$TN\"" <<< "$json" || fail "show --json: no target"
grep -q '"thread_mode":1' <<< "$json" || fail "show --json: thread_mode"
grep -q "\"irq\":${IRQS[0]}," <<< "$json" || fail "show --json: no IRQ"

# --- apply each layout ---
check_irqs() {	# check_irqs CPUS-OF-IRQ-0 CPUS-OF-IRQ-1 ... (cycled)
	local want=("$@") k
	for k in "${!IRQS[@]}"; do
		assert_eq "$(irq_cpus "${IRQS[$k]}")" "${want[$((k % ${#want[@]}))]}" \
			"IRQ ${IRQS[$k]}"
	done
}
check_thread() {
	wait_for 10 "thread $pid on CPUs $1" thread_on "$1"
	assert_eq "$(thread_cpus)" "$1" "thread $pid CPUs"
}

run "${AFF[@]}" apply split
check_irqs 0
check_thread 1-3
assert_eq "$(attr_value "$T/cpu_mask")" e "split: cpu_mask"
assert_eq "$(attr_value "$T/ini_groups/g1/cpu_mask")" e "split: group"

run "${AFF[@]}" apply none
check_irqs 0-3
check_thread 0-3
assert_eq "$(attr_value "$T/cpu_mask")" f "none: cpu_mask"

run "${AFF[@]}" apply spread
check_irqs 0 1 2 3
# rxe0 has no IRQs: the one target goes to CPU 0
check_thread 0

run "${AFF[@]}" apply numa
node=$(cat /sys/devices/system/node/node0/cpulist)
check_irqs "$node"
check_thread "$node"

run "${AFF[@]}" apply "irq:${IRQS[0]}=2" "target:$TN=3" "group:$TN/g1=1-2"
assert_eq "$(irq_cpus "${IRQS[0]}")" 2 "map: IRQ ${IRQS[0]}"
check_thread 3
assert_eq "$(attr_value "$T/ini_groups/g1/cpu_mask")" 6 "map: group"

# --dry-run changes nothing but says what it would
before=$(state)
out=$("${AFF[@]}" apply --dry-run split) || fail "dry-run failed"
echo "$out"
grep -q "would set cpu_mask of target $TN: 8 -> e" <<< "$out" ||
	fail "dry-run does not say what it would do"
assert_eq "$(state)" "$before" "state after --dry-run"

# --- save / restore ---
run "${AFF[@]}" save /tmp/saved
cat /tmp/saved
run "${AFF[@]}" apply split --thread-mode off
[ "$(state)" != "$before" ] || fail "split changed nothing"
assert_eq "$(attr_value "$T/thread_mode")" 0 "--thread-mode off"
run "${AFF[@]}" restore /tmp/saved
assert_eq "$(state)" "$before" "state after restore"
check_thread 3
run "${AFF[@]}" save /tmp/saved2
cmp /tmp/saved /tmp/saved2 || fail "save after restore differs"

# --- bad input: refused, nothing changed ---
bad() {
	local out
	log "+ (must fail) ${AFF[*]} $*"
	if out=$("${AFF[@]}" "$@" 2>&1); then
		fail "accepted: $*"
	fi
	echo "  -> $out"
	grep -qF -- "$BAD_MSG" <<< "$out" || fail "'$*': message lacks '$BAD_MSG'"
	assert_eq "$(state)" "$before" "state after '$*'"
}
BAD_MSG="unknown layout 'bogus'" bad apply bogus
BAD_MSG="CPU 9 is not online" bad apply split "target:$TN=9"
BAD_MSG="no target named 'nosuch'" bad apply none target:nosuch=1
BAD_MSG="bad CPU list" bad apply "irq:virtio*=1-"
printf 'irq %s 0\nattr targets/ib_srpt/%s/cpu_mask zz\n' "${IRQS[0]}" "$TN" > /tmp/bad1
BAD_MSG="bad hex mask" bad restore /tmp/bad1
# an offline CPU (nothing pinned to it while it goes)
run "${AFF[@]}" apply none
run sh -c "echo 0 > /sys/devices/system/cpu/cpu3/online"
before=$(state)
BAD_MSG="CPU 3 is not online (online CPUs: 0-2)" bad apply "target:$TN=3"
run sh -c "echo 1 > /sys/devices/system/cpu/cpu3/online"
run "${AFF[@]}" restore /tmp/saved
# the sweeps start in thread mode off (the relogin below makes it so)
run sh -c "echo 0 > '$T/thread_mode'"
before=$(state)

# --- sweep ---
cat > /tmp/relogin.sh <<EOF
#!/bin/bash
# log the initiator out and in again; /tmp/sweep-lun follows the LUN
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh
SRP_INITIATOR_DEV=rxe0 SRP_DEST_IP=$RXE_TARGET_IP SRP_SRC_IP=
for p in /sys/class/srp_remote_ports/*; do
	[ -e "\$p/delete" ] && echo 1 > "\$p/delete"
done
wait_for 30 "old sessions to go" srpt_has_sessions "$T" 0
SRP_LOGIN_TRIES=25 srp_login "$id" "$id" "queue_size=64" > /dev/null
srpt_wait_lun 0
ln -sf "\$(srpt_lun_disk 0)" /tmp/sweep-lun
log "relogin (thread mode \${SCST_AFF_THREAD_MODE:-as set}): \$(srpt_lun_disk 0)"
EOF
chmod +x /tmp/relogin.sh
run /tmp/relogin.sh
sweep_args=(--filename /tmp/sweep-lun --relogin /tmp/relogin.sh)

log "+ scst-affinity sweep"
"${AFF[@]}" sweep "${sweep_args[@]}" --layout none --layout split \
	--thread-modes off,on --runs 2 --runtime 2 --out /tmp/sweep \
	> /tmp/sweep.log 2>&1
rc=$?
cat /tmp/sweep.log
[ $rc = 0 ] || fail "sweep exited $rc"
assert_eq "$(state)" "$before" "state after the sweep"
# interleaved: each round runs every configuration once, in order
order=$(sed -n "s/^run [0-9]*\/8: layout '\([a-z]*\)' thread mode \([a-z]*\):.*/\1-\2/p" /tmp/sweep.log | tr '\n' ' ')
assert_eq "$order" "none-off split-off none-on split-on none-off split-off none-on split-on " "run order"
echo "SWEEP-TABLE-BEGIN"
cat /tmp/sweep.txt
echo "SWEEP-TABLE-END"
[ "$(wc -l < /tmp/sweep.txt)" = 5 ] || fail "table: not 4 rows"
grep -q '^1 ' /tmp/sweep.txt || fail "table: no rank 1"
grep -q ' baseline$' /tmp/sweep.txt || fail "table: no baseline row"
awk 'NR > 1 { if (prev != "" && $5 + 0 > prev + 0) bad = 1; prev = $5 }
     END { exit bad }' /tmp/sweep.txt || fail "table not sorted best first"
cat /tmp/sweep.csv
[ "$(wc -l < /tmp/sweep.csv)" = 5 ] || fail "CSV: not 4 rows"
head -n 1 /tmp/sweep.csv | grep_q '^rank,layout,thread_mode,runs,mean_iops,min_iops,max_iops,variation_pct,clat_mean_us,clat_p99_us,cpu_busy_pct,cpu_us_per_io,ratio,significant$' ||
	fail "CSV header"
awk -F, 'NR > 1 && ($5 <= 0 || $6 > $5 || $7 < $5 || $10 <= 0) { bad = 1 }
	 END { exit bad }' /tmp/sweep.csv || fail "CSV values implausible"
[ -s /tmp/sweep.png ] || fail "no PNG"
assert_eq "$(head -c 4 /tmp/sweep.png | od -An -tx1 | tr -d ' ')" 89504e47 "PNG signature"
log "PNG: $(stat -c %s /tmp/sweep.png) bytes"

# interrupted: SIGINT during the first run (fio running, layout "none"
# applied); the state comes back
"${AFF[@]}" sweep "${sweep_args[@]}" --layout split --thread-modes off \
	--runs 3 --runtime 5 --out /tmp/sweep-int > /tmp/sweep-int.log 2>&1 &
spid=$!
wait_for 30 "fio of the sweep" pidof fio
kill -INT $spid
wait $spid
rc=$?
cat /tmp/sweep-int.log
assert_eq "$rc" 130 "exit status of an interrupted sweep"
grep -q 'restored the state' /tmp/sweep-int.log || fail "no restore after SIGINT"
assert_eq "$(state)" "$before" "state after an interrupted sweep"

for p in /sys/class/srp_remote_ports/*; do
	[ -e "$p/delete" ] && echo 1 > "$p/delete"
done
srpt_wait_sessions "$T" 0
run rmmod ib_srp
run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scst
log "scst-affinity passed"
exit 0
