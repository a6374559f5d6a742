#!/usr/bin/env bats
# -e in perf's spelling (src/kernel/evspec.c, pmudb.c), as root, on this
# machine's real PMUs (/sys/bus/event_source/devices): terms and modifiers
# that change what is sampled, breakpoints as sampling events, and the
# errors of events that do not parse or do not open. The grammar itself,
# field by field, is tests/unit/test-evspec.c on fixture PMUs.
# suite-lock: debugregs (scripts/test never runs it beside another suite
# that takes a debug register of every CPU or all four of a thread's)

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
	PIDS=()
}

teardown() {
	stop_workloads
}

# event_error STATUS WANT ARG...: record ARG... exits STATUS with one line
# on stderr containing WANT, and writes no profile.
event_error() {
	local want_status=$1 want=$2
	shift 2
	run --separate-stderr "$BPFPROF" record -o "$OUT" "$@"
	echo "status $status, stderr: $stderr"
	[ "$status" -eq "$want_status" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"$want"* ]]
	[ ! -e "$OUT" ]
}

@test "-e: unknown names suggest the nearest, bad terms list the PMU's terms" {
	event_error 64 "unknown event 'cylces' (did you mean: cycles" -e cylces -d 1
	event_error 64 "unknown event 'L1-dcache-lod-misses' (did you mean: L1-dcache-load-misses" \
		-e L1-dcache-lod-misses -d 1
	event_error 64 "unknown modifier 'x' in ':x'" -e cpu-clock:x -d 1
	event_error 64 "unknown term 'umask' (valid terms: period, freq, name)" \
		-e cpu-clock/umask=1/ -d 1
	event_error 64 "unknown PMU 'sofware' (did you mean: software" -e sofware/config=0/ -d 1
	event_error 64 "invalid length '3': expected 1, 2, 4 or 8" -e mem:0x1000/3 -d 1
	event_error 64 "empty event" -e cpu-clock,, -d 1
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
	event_error 64 "freq=$((max + 1)) is above kernel.perf_event_max_sample_rate ($max)" \
		-e "cpu-clock/freq=$((max + 1))/" -d 1
	[ -d /sys/bus/event_source/devices/msr/format ] || skip "no msr PMU"
	event_error 64 "unknown term 'evnt' of PMU 'msr' (valid terms: event, config" \
		-e msr/evnt=1/ -d 1
}

@test "-e: a comma list parses into several events, each sampled (tests/multievent.bats)" {
	run --separate-stderr "$BPFPROF" record -e cpu-clock,task-clock -e cs -o "$OUT" \
		-- "$WORKLOADS/spinner" 0.5
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 0 ]
	for ev in cpu-clock task-clock cs; do
		[[ $stderr == *"bpfprof: $ev: "*" samples kept"* ]]
	done
	at_least "$(total "$OUT" '^cpu-clock;spinner;')" 10
	at_least "$(total "$OUT" '^task-clock;spinner;')" 10
}

@test "-e: an event that does not open says why: no PMU, or a PMU that cannot sample it" {
	if [ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
		for ev in L1-dcache-load-misses LLC-loads:u r003c cycles:ppp; do
			event_error 1 "event '$ev' is not supported: this machine has no hardware PMU" \
				-e "$ev" -d 5
		done
	fi
	[ -e /sys/bus/event_source/devices/msr/events/tsc ] || skip "no msr PMU"
	# msr counts but never samples
	event_error 1 "event 'msr/tsc/' is not supported by its PMU" -e msr/tsc/ -d 5
	event_error 1 "event 'tsc' is not supported by its PMU" -e tsc -d 5
}

@test "-e: period= sets the period and name= the event's name in the output" {
	run "$BPFPROF" record -f json -e 'cpu-clock/period=2000000,name=clk2ms/' -o "$OUT" \
		-- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	[[ $output == *"period 2000000 requested"* ]]
	grep -q '"event": "clk2ms"' "$OUT"
	# a software event keeps the type the name gives: task-clock by its own term
	run "$BPFPROF" record -e 'task-clock/freq=499/' -o "$OUT" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	[[ $output == *"499 Hz requested"* ]]
	[ "$(total "$OUT" 'leaf_a')" -gt 50 ]
}

@test "-e: :k samples only in the kernel, :u only in user space" {
	# fp-three spins in user space: :u keeps its leaves, :k nearly none of them
	run "$BPFPROF" record -F 999 -e cpu-clock:u -o "$OUT" -- "$WORKLOADS/fp-three" 2
	[ "$status" -eq 0 ]
	at_least "$(total "$OUT" 'leaf_[abc]')" 200
	[ "$(share "$OUT" '_\[k\]' '.')" -le 5 ]
	# syscall-heavy spends most of its time in the kernel
	run "$BPFPROF" record -F 999 -e cpu-clock:k -o "$OUT" -- "$WORKLOADS/syscall-heavy" 1
	[ "$status" -eq 0 ]
	at_least "$(total "$OUT")" 100
	[ "$(share "$OUT" '_\[k\]' '.')" -ge 80 ]
}

@test "-e mem:ADDR:w:u samples every user-space write of a global, 1:3 as the workload writes" {
	command -v setarch >/dev/null || skip "no setarch"
	# a breakpoint's address is absolute: the PIE runs where it would without ASLR
	base=$(setarch -R cat /proc/self/maps | awk 'NR == 1 { split($1, a, "-"); print a[1] }')
	off=$(nm "$WORKLOADS/watchme" | awk '$3 == "counter" { print $1 }')
	[ -n "$base" ] && [ -n "$off" ]
	addr=$(printf '0x%x' $((0x$base + 0x$off)))
	run "$BPFPROF" record -e "mem:$addr:w:u" -o "$OUT" -- setarch -R "$WORKLOADS/watchme" basic 2000
	[ "$status" -eq 0 ]
	[[ $output == *"period 1 requested"* ]]
	one=$(total "$OUT" ';bump_one ')
	three=$(total "$OUT" ';bump_three ')
	echo "bump_one $one, bump_three $three" >&2
	# every write is a sample (breakpoints do not skid or miss)
	within "$one" 2000 100
	within "$three" 6000 300
	# :u: not the kernel's writes (execve clearing .bss)
	[ "$(total "$OUT" '_\[k\]')" -eq 0 ]
}
