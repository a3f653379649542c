# SPDX-License-Identifier: GPL-2.0-only
# Persistent reservation helpers (sg_persist, sg_raw) shared by the PR
# tests. Requires common.sh and scst.sh.

# pr_two_nexuses TARGET INITIATOR: after local_target, a second session
# of TARGET for INITIATOR, i.e. a second I_T nexus to its LUN 0; sets
# hostA, sgA (local_target's session), hostB, sgB, sdB, with the unit
# attentions of both cleared
pr_two_nexuses() {
	hostA=$host
	mgmt $SCST/targets/scst_local/mgmt "add_session $1 $2"
	wait_for 10 "host of $2" local_host "$1" "$2" > /dev/null
	hostB=$(local_host "$1" "$2")
	wait_lun "$hostB" 0
	sgA=$(lun_sg "$hostA" 0)
	sgB=$(lun_sg "$hostB" 0)
	sdB=$(lun_disk "$hostB" 0)
	clear_ua "$sgA"
	clear_ua "$sgB"
}

# prout SG ARGS...: a PERSISTENT RESERVE OUT that must succeed
prout() {
	local sg=$1
	shift
	log "+ sg_persist --out $* $sg"
	sg_persist -n --out "$@" "$sg" || fail "PR OUT $* on $sg failed"
}

# prout_fails SG WHAT ARGS...: a PR OUT that must fail, its output
# containing WHAT (case-insensitive)
prout_fails() {
	local sg=$1 what=$2 out
	shift 2
	log "+ (must fail: $what) sg_persist --out $* $sg"
	if out=$(sg_persist -n -v --out "$@" "$sg" 2>&1); then
		fail "PR OUT $* on $sg succeeded"
	fi
	grep -qi "$what" <<< "$out" || { echo "$out"; fail "PR OUT $*: not '$what'"; }
}

# keys SG: the registered keys, one a line
keys() {
	sg_persist -n --in -k "$1" | sed -n 's/^ *\(0x[0-9a-f]*\)$/\1/p'
}

# generation SG: PRgeneration from READ KEYS
generation() {
	sg_persist -n --in -k "$1" | sed -n 's/.*PR generation=\(0x[0-9a-f]*\),.*/\1/p'
}

# resv SG: "KEY TYPE" of the reservation, or "none"
resv() {
	local out
	out=$(sg_persist -n --in -r "$1") || return 1
	if grep -q 'NO reservation held' <<< "$out"; then
		echo none
		return 0
	fi
	echo "$(sed -n 's/^ *Key=\(0x[0-9a-f]*\)$/\1/p' <<< "$out") $(sed -n 's/.*type: \(.*\)$/\1/p' <<< "$out")"
}

# ua_is SG WHAT: the next command on SG gets a unit attention WHAT
ua_is() {
	local out
	out=$(sense_of sg_turs -v "$1")
	grep -qi "$2" <<< "$out" || { echo "$out"; fail "$1: no '$2' unit attention"; }
	clear_ua "$1"
}

# io SG read|write: one block at LBA 0 through sg_raw; prints its status
io() {
	local out
	if [ "$2" = read ]; then
		out=$(sg_raw -r 512 -o /dev/null "$1" 28 00 00 00 00 00 00 00 01 00 2>&1)
	else
		[ -f /tmp/blk ] || dd if=/dev/urandom of=/tmp/blk bs=512 count=1 status=none
		out=$(sg_raw -s 512 -i /tmp/blk "$1" 2a 00 00 00 00 00 00 00 01 00 2>&1)
	fi
	if grep -qi 'reservation conflict' <<< "$out"; then
		echo conflict
	elif grep -qi 'status: good' <<< "$out" || ! grep -qi 'status' <<< "$out"; then
		echo good
	else
		echo "other: $out"
	fi
}

# writes_in_flight DISK: the block layer has writes of DISK outstanding
writes_in_flight() {
	local r w
	read -r r w < "/sys/block/${1##*/}/inflight" || return 1
	[ "$w" -gt 0 ]
}

# fence FENCER FENCER_KEY VICTIM VICTIM_KEY VICTIM_DISK: fence_scsi's
# sequence, with the victim's writes in flight when PREEMPT AND ABORT
# comes; they must fail, and so must the victim's later writes (through
# SG_IO: RESERVATION CONFLICT, and through the block layer). Ends with
# CLEAR from the fencer.
fence() {
	local fencer=$1 fkey=$2 victim=$3 vkey=$4 vdisk=$5 before line n fio_pid

	prout "$fencer" --register-ignore --param-sark="$fkey"
	prout "$victim" --register-ignore --param-sark="$vkey"
	prout "$fencer" --reserve --param-rk="$fkey" --prout-type=5
	log "$vdisk writes with 8 commands in flight"
	fio --name=inflight --filename="$vdisk" --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=8 --size=32M --time_based \
		--runtime=90 --output=/tmp/fio.out > /dev/null 2>&1 &
	fio_pid=$!
	# writes really in flight, however slow fio is to start (the debug
	# kernel): the block layer's count of the victim's disk
	wait_for 120 "$vdisk writes in flight" writes_in_flight "$vdisk"
	sleep 1
	before=$(dmesg | grep -c 'PREEMPT AND ABORT aborted')
	prout "$fencer" --preempt-abort --param-rk="$fkey" --param-sark="$vkey" --prout-type=5
	if wait "$fio_pid"; then
		cat /tmp/fio.out
		fail "$vdisk: fio kept writing successfully after PREEMPT AND ABORT"
	fi
	grep -q 'err=' /tmp/fio.out || { cat /tmp/fio.out; fail "fio reported no error"; }
	line=$(dmesg | grep 'PREEMPT AND ABORT aborted' | tail -n 1)
	log "$line"
	[ "$(dmesg | grep -c 'PREEMPT AND ABORT aborted')" -gt "$before" ] ||
		fail "no PREEMPT AND ABORT log line"
	n=$(sed -n 's/.*PREEMPT AND ABORT aborted \([0-9]*\) commands.*/\1/p' <<< "$line")
	[ "$n" -ge 1 ] || fail "PREEMPT AND ABORT aborted no command ($line)"
	clear_ua "$victim"
	assert_eq "$(io "$victim" write)" conflict "the fenced node's WRITE"
	if fio --name=after --filename="$vdisk" --ioengine=libaio --direct=1 \
		--rw=write --bs=4k --size=4k --output=/dev/null > /dev/null 2>&1; then
		fail "$vdisk: a write after being fenced succeeded"
	fi
	assert_eq "$(keys "$fencer" | tr '\n' ' ')" "$fkey " "keys after PREEMPT AND ABORT"
	assert_eq "$(resv "$fencer")" "$fkey Write Exclusive, registrants only" \
		"reservation after PREEMPT AND ABORT"
	prout "$fencer" --clear --param-rk="$fkey"
}

# pr_latency SG N: N REGISTER AND IGNORE EXISTING KEY commands through
# SG (sg_persist, one process each), alternating two keys; prints the µs
# per command, and the µs more than N TEST UNIT READY through sg_turs
# (the process's start and the transport's round trip taken off)
pr_latency() {
	local sg=$1 n=$2 i t0 t1 t2

	t0=$EPOCHREALTIME
	for ((i = 0; i < n; i++)); do
		sg_persist -n --out --register-ignore --param-sark=$((0x100 + i % 2)) "$sg" > /dev/null ||
			fail "REGISTER AND IGNORE EXISTING KEY $i through $sg"
	done
	t1=$EPOCHREALTIME
	for ((i = 0; i < n; i++)); do
		sg_turs "$sg" > /dev/null 2>&1
	done
	t2=$EPOCHREALTIME
	echo "$t0 $t1 $t2 $n" | awk '{ printf "%d %d\n", ($2 - $1) * 1e6 / $4, (($2 - $1) - ($3 - $2)) * 1e6 / $4 }'
}
