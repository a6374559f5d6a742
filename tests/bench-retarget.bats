#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# bench/retarget and its program (issue 15): a hardware watchpoint moved
# with PERF_EVENT_IOC_MODIFY_ATTRIBUTES and by close + reopen really
# watches its new address after each move, and the bench's errors are one
# line. The short run is the real thing: real breakpoint events on this
# thread, a real BPF program attached.
#
# RETARGET: the program (default: bench/retarget beside $BPFPROF's src/).

bats_require_minimum_version 1.5.0

load helpers

setup() {
	RETARGET=${RETARGET:-$(dirname "$(dirname "$BPFPROF")")/bench/retarget}
	[ -x "$RETARGET" ] || {
		echo "no retarget program at $RETARGET (build it, or set RETARGET)" >&2
		return 1
	}
	export RETARGET
}

# median ROW: the median column (µs) of the row whose name starts with ROW
median() {
	awk -v row="$1" 'index($0, row) == 1 { print $(NF - 1) }' <<<"$output"
}

@test "every move checked: the new global's write counts once, the old one's not at all; reopen costs more than modify" {
	need_root
	[ -d /sys/bus/event_source/devices/breakpoint ] || skip "no breakpoint PMU"
	run --separate-stderr "$REPO/bench/retarget" -n 300 -b 50 -v 1
	echo "status: $status"
	echo "stderr: $stderr"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ $output == *"1 move in 1 checked: OK"* ]]
	[[ $output == *"300 moves of each kind"* ]]
	local modify reopen
	modify=$(median "modify: PERF_EVENT_IOC_MODIFY_ATTRIBUTES")
	reopen=$(median "reopen: close+open+mmap+SET_BPF+enable")
	[ -n "$modify" ] && [ -n "$reopen" ]
	# about 30 times on the development VM: 3 leaves room for any noise
	awk -v m="$modify" -v r="$reopen" 'BEGIN { exit !(m > 0 && r >= 3 * m) }'
}

@test "bad arguments: one line naming the value and what was expected, exit 64" {
	local args
	for args in "-n 0" "-n x" "-b -1" "-v 1.5" "-p 3" "-p 0"; do
		# shellcheck disable=SC2086 # the words are the arguments
		run --separate-stderr "$RETARGET" $args
		echo "$args: status $status, stderr: $stderr"
		[ "$status" -eq 64 ]
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ $stderr == "retarget: -"*"'${args#* }': expected a "* ]]
	done
	run --separate-stderr "$REPO/bench/retarget" -r x
	echo "-r x: status $status, stderr: $stderr"
	[ "$status" -eq 64 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"-r 'x': expected a number of rounds"* ]]
}

@test "not root: one line saying so, exit 1, nothing measured" {
	need_root
	command -v setpriv >/dev/null || skip "no setpriv"
	stage_for_nobody "$RETARGET" || skip "user nobody cannot reach $NOBODY"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$NOBODY/retarget" -n 10
	echo "status: $status, stderr: $stderr, stdout: $output"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "retarget: must run as root"* ]]
}
