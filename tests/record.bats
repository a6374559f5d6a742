#!/usr/bin/env bats
# bpfprof record, as root, on real perf events and BPF programs, profiling
# workloads with known behaviour (tests/workloads/). Shares are asserted with
# tolerances from thousands of samples, never exact counts.

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

@test "three leaves get their known CPU shares (50/30/20) under the right callers" {
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 3
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	base='main;run_workload;split;leaf_[abc]( |;)'
	[ "$(total "$OUT" "$base")" -gt 750 ]
	within "$(share "$OUT" 'split;leaf_a( |;)' "$base")" 50 5
	within "$(share "$OUT" 'split;leaf_b( |;)' "$base")" 30 5
	within "$(share "$OUT" 'split;leaf_c( |;)' "$base")" 20 5
	# nearly every sample of the workload has the whole chain
	[ "$(share "$OUT" "$base" '^fp-three;')" -ge 95 ]
}

@test "the summary line reports samples, losses, stacks, duration and rates" {
	run "$BPFPROF" record -F 499 -o "$OUT" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	[[ "$output" =~ samples\ kept,\ 0\ lost,\ [0-9]+\ unique\ stacks,\ 1\.[0-9]+\ s,\ 499\ Hz\ requested,\ [0-9.]+\ Hz\ effective ]]
	run "$BPFPROF" record -q -F 499 -o "$OUT" -- "$WORKLOADS/fp-three" 0.5
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the summary's unique stacks are the folded file's lines" {
	# fp-three's stacks differ by source line inside each leaf: without
	# --lines the profile keeps no lines, so they are one stack each
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	[[ "$output" =~ ,\ ([0-9]+)\ unique\ stacks, ]]
	[ "${BASH_REMATCH[1]}" -eq "$(wc -l <"$OUT")" ]
	run "$BPFPROF" record --stats -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	[[ "$output" =~ stats:\ stacks:\ ([0-9]+)\ written\ \(the\ summary.s\ unique\ stacks\)\;\ the\ profile\ holds\ [0-9.]+\ MiB\ \(no\ source\ files\ or\ lines ]]
	[ "${BASH_REMATCH[1]}" -eq "$(wc -l <"$OUT")" ]
}

@test "a command that used less CPU time than one sample period says so, with both times" {
	# at 1 Hz a period is a second of a CPU's time; /bin/true takes a few
	# milliseconds, so a sample lands in it about once in 200 runs: retry then
	for i in 1 2 3; do
		run "$BPFPROF" record -F 1 -o "$OUT" -- /bin/true
		[ "$status" -eq 0 ]
		[ -s "$OUT" ] || break
	done
	[ ! -s "$OUT" ]
	[[ "$output" =~ no\ samples\ were\ recorded:\ the\ command\ ran\ for\ [0-9.]+\ ms\ of\ CPU\ time,\ less\ than\ one\ sample\ period\ \(1000\.0\ ms\) ]]
	[[ "$output" != *"did not run on a sampled CPU"* ]]
	# a command that ran long enough, but not where samples were taken, is
	# told apart: pinned to CPU 0 from the fork on (bpfprof's own affinity;
	# a taskset inside the command ran on CPU 1 until it pinned itself, and
	# was sampled there once on a busy machine)
	run taskset -c 0 "$BPFPROF" record -C 1 -o "$OUT" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	[[ "$output" == *"no samples were recorded: the targets did not run on a sampled CPU"* ]]
}

@test "-p profiles the given process and excludes other busy ones" {
	start spinner 60
	start fp-three 60
	run "$BPFPROF" record -p "${PIDS[1]}" -F 999 -d 2 -o "$OUT"
	[ "$status" -eq 0 ]
	# fp-three's samples, split as it splits its time (a loaded machine
	# gives it less than a CPU: a share, not a count)
	[ "$(total "$OUT" '^fp-three;')" -gt 100 ]
	within "$(share "$OUT" ';leaf_a ' '^fp-three;')" 50 12
	[ "$(total "$OUT" 'other_busy_loop')" -eq 0 ]
	[ "$(total "$OUT" '^spinner')" -eq 0 ]
}

@test "-p follows children forked after the start, and stops when the target exits" {
	# the child is forked once bpfprof samples (SIGUSR1), however long it
	# takes to start
	"$WORKLOADS/short-child" 1.5 usr1 &
	local pid=$! prof status=0
	"$BPFPROF" record -p "$pid" -F 999 -o "$OUT" 2>"$BATS_TEST_TMPDIR/err" &
	prof=$!
	sampling "$prof"
	kill -USR1 "$pid"
	# bpfprof ends by itself when the target exits
	wait "$prof" || status=$?
	wait "$pid" || true
	cat "$BATS_TEST_TMPDIR/err"
	[ "$status" -eq 0 ]
	# the child spins 100 ms of CPU time: ~100 samples at 999 Hz
	[ "$(total "$OUT" 'main;child_spin')" -gt 40 ]
	[ "$(total "$OUT" 'parent_spin')" -gt 300 ]
}

@test "command mode: only the command, from its exec, until it exits" {
	"$WORKLOADS/spinner" 3 &
	local spin=$!
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 1
	kill "$spin" 2>/dev/null || true
	wait || true
	[ "$status" -eq 0 ]
	# a loaded machine gives it a third of a CPU or less: a few samples
	# show it was sampled, the rest is in what must be absent
	[ "$(total "$OUT" '^fp-three;')" -gt 50 ]
	[ "$(total "$OUT" 'other_busy_loop')" -eq 0 ]
	# nothing from before the exec (bpfprof's own forked child)
	[ "$(total "$OUT" '^bpfprof')" -eq 0 ]
	# it stopped when the command exited, not at some later time
	[[ "$output" =~ ,\ 1\.[0-9]+\ s, ]]
}

@test "command mode: a command that does not exist is an error, and no file is left" {
	run -127 "$BPFPROF" record -o "$OUT" -- /nonexistent/cmd
	[ "$status" -eq 127 ]
	[[ "$output" == *"cannot run '/nonexistent/cmd'"* ]]
	[ ! -e "$OUT" ]
}

@test "a syscall-heavy workload shows kernel frames (_[k]) under the right user frames" {
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/syscall-heavy" 2
	[ "$status" -eq 0 ]
	base='^syscall-heavy;'
	within "$(share "$OUT" 'main;do_syscalls;[^ ]*_\[k\]' "$base")" 90 10
	[ "$(total "$OUT" 'do_syscalls;entry_SYSCALL_64[a-z_]*_\[k\];.*read_zero_\[k\]')" -gt 300 ]
}

@test "a child process that exits long before the end is symbolized" {
	run "$BPFPROF" record -a -F 999 -d 2 -o "$OUT" -- "$WORKLOADS/short-child" 1
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" '^short-child;.*main;child_spin ')" -gt 40 ]
	# and no frame of it is left as an offset
	[ "$(total "$OUT" '^short-child;.*\[short-child\+0x')" -eq 0 ]
}

@test "-a profiles other processes too, and excludes idle unless --idle" {
	start spinner 30
	run "$BPFPROF" record -a -F 999 -d 1.5 -o "$OUT"
	[ "$status" -eq 0 ]
	# a tenth of the 1.5 s at least: it shares its CPU with whatever runs
	[ "$(total "$OUT" 'other_busy_loop')" -gt 150 ]
	[ "$(total "$OUT" '^swapper')" -eq 0 ]
	stop_workloads
	# --idle keeps the idle task's samples, when there are any: a busy
	# machine has no idle time, and on some VMs an idle CPU other than 0 is
	# never sampled (perf sees none there either). So a second bpfprof
	# without --idle runs for a second inside the --idle run and counts the
	# idle samples it drops (--stats); when it dropped plenty, the --idle
	# run, sampling the same CPUs all that time, must have kept some.
	local err=$BATS_TEST_TMPDIR/stats idle dropped
	"$BPFPROF" record -a --idle -F 999 -o "$OUT" 2>"$BATS_TEST_TMPDIR/idle.err" &
	idle=$!
	sampling "$idle"
	"$BPFPROF" record -a --stats -F 999 -d 1 -o "$BATS_TEST_TMPDIR/other.folded" 2>"$err"
	kill -INT "$idle"
	wait "$idle"
	cat "$err"
	[[ $(cat "$err") =~ samples:\ [0-9]+\ seen,\ ([0-9]+)\ of\ the\ idle\ task\ dropped ]]
	dropped=${BASH_REMATCH[1]}
	[ "$(total "$BATS_TEST_TMPDIR/other.folded" '^swapper')" -eq 0 ]
	if ((dropped >= 100)); then
		[ "$(total "$OUT" '^swapper')" -gt 0 ]
	fi
}

@test "-U keeps only user frames, -K only kernel frames" {
	run "$BPFPROF" record -U -F 999 -o "$OUT" -- "$WORKLOADS/syscall-heavy" 1
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" '_\[k\]')" -eq 0 ]
	[ "$(share "$OUT" 'main;do_syscalls ' '^syscall-heavy;')" -ge 90 ]
	run "$BPFPROF" record -K -F 999 -o "$OUT" -- "$WORKLOADS/syscall-heavy" 1
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" ';(do_syscalls|main)(;| )')" -eq 0 ] # whole frames: kernel names like sched_balance_domains contain "main"
	[ "$(share "$OUT" '^syscall-heavy;entry_SYSCALL' '^syscall-heavy;')" -ge 80 ]
}

@test "--per-pid and --per-thread name the process frame comm-PID and comm-PID/TID" {
	run "$BPFPROF" record --per-pid -F 999 -o "$OUT" -- "$WORKLOADS/threads" 1 2
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" '^threads-[0-9]+;.*thread_spin')" -gt 100 ]
	[ "$(total "$OUT" '^threads-[0-9]+;')" -eq "$(total "$OUT" '^threads')" ]
	run "$BPFPROF" record --per-thread -F 999 -o "$OUT" -- "$WORKLOADS/threads" 1 2
	[ "$status" -eq 0 ]
	# two spinning threads, each its own line with its own tid
	[ "$(grep -E '^threads-[0-9]+/[0-9]+;.*thread_spin ' "$OUT" | cut -d';' -f1 | sort -u | wc -l)" -ge 2 ]
}

# has_threads PID N: process PID has N threads or more
has_threads() {
	[ "$(ls "/proc/$1/task" | wc -l)" -ge "$2" ]
}

@test "-t profiles one thread only" {
	start threads 3 2
	local pid=${PIDS[0]} tid
	# its two spinning threads started (main only joins them)
	wait_until has_threads "$pid" 3 || true
	tid=$(ls "/proc/$pid/task" | sort -n | tail -1)
	[ "$tid" != "$pid" ]
	run "$BPFPROF" record -t "$tid" --per-thread -F 999 -d 1 -o "$OUT"
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" "^threads-$pid/$tid;")" -gt 40 ]
	[ "$(total "$OUT" "^threads-$pid/$tid;")" -eq "$(total "$OUT")" ]
}

@test "-G profiles only the processes of a cgroup v2" {
	local mnt
	mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	[ -n "$mnt" ] || skip "no cgroup v2 mount"
	local cg="$mnt/bpfprof-test-$$"
	mkdir "$cg"
	(echo "$BASHPID" >"$cg/cgroup.procs" && exec "$WORKLOADS/spinner" 30) &
	PIDS+=($!)
	exec_of "$!" spinner
	start fp-three 30
	run "$BPFPROF" record -G "bpfprof-test-$$" -F 999 -d 1.5 -o "$OUT"
	stop_workloads
	rmdir "$cg"
	[ "$status" -eq 0 ]
	# a tenth of the 1.5 s at least: it shares its CPU with whatever runs
	[ "$(total "$OUT" 'other_busy_loop')" -gt 150 ]
	[ "$(total "$OUT" 'leaf_a')" -eq 0 ]
}

@test "-C samples only the listed CPUs" {
	# counted by the spinner's own pid: other processes may run on either CPU
	# (spinning until killed: bpfprof may take seconds to start, under
	# ASan on a loaded machine)
	local spin
	taskset -c 0 "$WORKLOADS/spinner" 60 &
	PIDS+=($!)
	spin=$(exec_of "$!" spinner)
	run "$BPFPROF" record -C 1 --per-pid -F 999 -d 1 -o "$OUT"
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" "^spinner-$spin;")" -lt 20 ]
	run "$BPFPROF" record -C 0 --per-pid -F 999 -d 1 -o "$OUT"
	[ "$status" -eq 0 ]
	# a tenth of the second at least, even if CPU 0 is shared with others
	# (against fewer than 20 above)
	echo "spinner on CPU 0: $(total "$OUT" "^spinner-$spin;") samples"
	[ "$(total "$OUT" "^spinner-$spin;.*other_busy_loop")" -gt 100 ]
}

@test "--max-depth cuts deep stacks and marks them [truncated]" {
	run "$BPFPROF" record --max-depth 3 -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	[ "$(share "$OUT" '^fp-three;\[truncated\];run_workload;split;leaf_[abc][; ]' '^fp-three;')" -ge 90 ]
}

@test "a full stack map is reported as lost samples, never silently" {
	"$WORKLOADS/fp-three" 2.5 &
	"$WORKLOADS/syscall-heavy" 2.5 &
	run "$BPFPROF" record -a --max-stacks 2 -F 999 -d 1 -o "$OUT"
	wait || true
	[ "$status" -eq 0 ]
	[[ "$output" =~ samples\ kept,\ ([0-9]+)\ lost\ \(stacks\ map\ full:\ [0-9]+,\ counts\ map\ full:\ [0-9]+\;\ raise\ --max-stacks\) ]]
	[ "${BASH_REMATCH[1]}" -gt 100 ]
}

@test "SIGTERM and SIGINT stop recording, the profile is written completely, and bpfprof exits 143 and 130" {
	local st
	for sig in TERM INT; do
		"$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 30 2>"$BATS_TEST_TMPDIR/err" &
		local pid=$!
		sampling "$pid"
		sleep 1
		kill -"$sig" "$pid"
		# bpfprof, interrupted, exits 128+N (130, 143); the command was
		# still running, and bpfprof ended it with SIGTERM, as perf does
		st=0
		wait "$pid" || st=$?
		cat "$BATS_TEST_TMPDIR/err"
		[ "$st" -eq $((128 + $(kill -l "$sig"))) ]
		well_formed "$OUT"
		[ "$(total "$OUT" 'leaf_a')" -gt 100 ]
		grep -qF "; '$WORKLOADS/fp-three' was still running at SIG$sig and was ended (SIGTERM); profile written to '$OUT'" "$BATS_TEST_TMPDIR/err"
		rm -f "$OUT"
	done
}

# held_ids PID KIND: the ids of the BPF objects of KIND (prog or map) whose
# fds process PID holds, from its fdinfo, one per line
held_ids() {
	cat /proc/"$1"/fdinfo/* 2>/dev/null | awk -v k="$2_id:" '$1 == k { print $2 }' | sort -un
}

# holds_sample_prog PID: process PID holds bpfprof's sampling program
holds_sample_prog() {
	local id
	for id in $(held_ids "$1" prog); do
		bpftool prog show id "$id" 2>/dev/null | grep -q bpfprof_sample && return 0
	done
	return 1
}

# freed KIND ID: no BPF object of KIND (prog or map) has that id any more
freed() {
	! bpftool "$1" show id "$2" >/dev/null 2>&1
}

# gone KIND ID...: each BPF object of KIND is freed, waiting up to 30 s for
# each (the kernel frees them after a grace period)
gone() {
	local kind=$1 id
	shift
	for id in "$@"; do
		wait_until freed "$kind" "$id"
	done
}

@test "after SIGKILL no BPF program or map of bpfprof stays, and no file appears" {
	# only the objects the killed bpfprof held: another bpfprof may be running
	"$BPFPROF" record -a -F 999 -o "$OUT" &
	local pid=$! progs=() maps=()
	wait_until holds_sample_prog "$pid" || true
	progs=($(held_ids "$pid" prog))
	maps=($(held_ids "$pid" map))
	echo "bpfprof $pid holds programs ${progs[*]} and maps ${maps[*]}"
	[ "${#progs[@]}" -gt 0 ]
	[ "${#maps[@]}" -gt 0 ]
	kill -KILL "$pid"
	wait "$pid" || true
	gone prog "${progs[@]}"
	gone map "${maps[@]}"
	[ ! -e "$OUT" ]
	[ -z "$(ls "$(dirname "$OUT")" | grep bpfprof)" ]
}

@test "an unwritable -o is a one-line error before sampling (exit 64)" {
	run "$BPFPROF" record -d 5 -o /nonexistent-dir/out.folded
	[ "$status" -eq 64 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"'/nonexistent-dir/out.folded'"* ]]
	run "$BPFPROF" record -d 5 -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 64 ]
}

@test "an existing output file is only replaced when the new profile is complete" {
	echo "old 1" >"$OUT"
	run -127 "$BPFPROF" record -o "$OUT" -- /nonexistent/cmd
	[ "$status" -ne 0 ]
	[ "$(cat "$OUT")" = "old 1" ]
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.5
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" 'leaf_')" -gt 100 ]
}

@test "-o to a device or a FIFO writes into it, never replaces it" {
	local dev=$BATS_TEST_TMPDIR/null fifo=$BATS_TEST_TMPDIR/fifo got=$BATS_TEST_TMPDIR/got
	# a private null device: the test must not risk the real /dev/null
	mknod -m 666 "$dev" c 1 3
	run "$BPFPROF" record -F 999 -o "$dev" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	[ -c "$dev" ]
	mkfifo "$fifo"
	cat "$fifo" >"$got" &
	run "$BPFPROF" record -F 999 -o "$fifo" -- "$WORKLOADS/fp-three" 0.5
	wait
	[ "$status" -eq 0 ]
	[ -p "$fifo" ]
	well_formed "$got"
	[ "$(total "$got" 'leaf_')" -gt 100 ]
}

@test "without CAP_BPF/CAP_PERFMON: a message naming what is missing (exit 77)" {
	command -v setpriv >/dev/null || skip "setpriv (util-linux) not installed"
	stage_for_nobody "$BPFPROF" || skip "user nobody cannot reach $NOBODY"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$NOBODY/bpfprof" record -d 1 -o /dev/null
	[ "$status" -eq 77 ]
	[[ "$output" == *"CAP_BPF and CAP_PERFMON"* ]]
	run setpriv --bounding-set=-bpf,-sys_admin --inh-caps=-bpf,-sys_admin \
		"$BPFPROF" record -d 1 -o /dev/null
	[ "$status" -eq 77 ]
	[[ "$output" == *"missing CAP_BPF:"* ]]
}

@test "a hardware event on a machine without a PMU fails before sampling and suggests cpu-clock" {
	if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
		run "$BPFPROF" record -e cycles -d 0.5 -o "$OUT"
		[ "$status" -eq 0 ]
		return
	fi
	for ev in cycles instructions cache-misses branch-misses ref-cycles; do
		run "$BPFPROF" record -e "$ev" -d 5 -o "$OUT"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"'$ev' is not supported: this machine has no hardware PMU"*"-e cpu-clock"* ]]
		[ ! -e "$OUT" ]
	done
}

@test "software events other than cpu-clock sample too" {
	run "$BPFPROF" record -e task-clock -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" 'leaf_a')" -gt 100 ]
	run "$BPFPROF" record -e page-faults -c 1 -o "$OUT" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	[ "$(total "$OUT")" -gt 10 ]
	[[ "$output" == *"period 1 requested"* ]]
}

@test "without -o the profile goes to bpfprof.folded, never into the command's standard output" {
	mkdir "$BATS_TEST_TMPDIR/wd"
	cd "$BATS_TEST_TMPDIR/wd"
	echo "an old profile 1" >bpfprof.folded
	chmod 640 bpfprof.folded
	run --separate-stderr "$BPFPROF" record -F 999 -- \
		sh -c 'echo COMMAND-OUTPUT; exec "$0" 1' "$WORKLOADS/fp-three"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$output" = COMMAND-OUTPUT ]
	[[ $stderr == *" Hz effective on the busiest CPU; profile written to 'bpfprof.folded'" ]]
	well_formed bpfprof.folded
	[ "$(total bpfprof.folded 'split;leaf_a ')" -gt 20 ]
	refute grep -q 'an old profile' bpfprof.folded
	# replaced as any -o file is: its mode kept, nothing else left behind
	[ "$(stat -c %a bpfprof.folded)" = 640 ]
	[ "$(ls -A)" = bpfprof.folded ]
	# -o - asks for standard output
	run --separate-stderr "$BPFPROF" record -q -F 999 -o - -- "$WORKLOADS/fp-three" 0.5
	[ "$status" -eq 0 ]
	[[ $output == *"split;leaf_a "* ]]
	# a working directory the default cannot be written in: before sampling
	cd /proc/self
	run --separate-stderr "$BPFPROF" record -q -- touch "$BATS_TEST_TMPDIR/ran"
	echo "$stderr"
	[ "$status" -eq 64 ]
	[[ $stderr == "bpfprof: cannot write 'bpfprof.folded' (the default output file; name another with -o): "* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "without -o and without a command the profile goes to bpfprof.folded too" {
	mkdir "$BATS_TEST_TMPDIR/wd"
	cd "$BATS_TEST_TMPDIR/wd"
	start spinner 30
	run --separate-stderr "$BPFPROF" record -p "${PIDS[0]}" -F 999 -d 0.5
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ $stderr == *"; profile written to 'bpfprof.folded'" ]]
	well_formed bpfprof.folded
	[ "$(total bpfprof.folded '^spinner;')" -gt 10 ]
}

@test "a command's exit status is bpfprof's (128+N for signal N); bpfprof's own failure wins" {
	run "$BPFPROF" record -q -F 999 -o "$OUT" -- ls /nonexistent
	[ "$status" -eq 2 ]
	run "$BPFPROF" record -q -F 999 -o "$OUT" -- sh -c '"$0" 0.3; exit 3' "$WORKLOADS/fp-three"
	[ "$status" -eq 3 ]
	[ "$(total "$OUT" 'split;leaf_a ')" -gt 5 ]
	run "$BPFPROF" record -q -F 999 -o "$OUT" -- sh -c 'kill -USR1 $$'
	[ "$status" -eq $((128 + 10)) ]
	# the profile cannot be written: bpfprof's 1 and its message, not the command's 3
	run --separate-stderr "$BPFPROF" record -q -F 999 -o /dev/full -- \
		sh -c '"$0" 0.3; exit 3' "$WORKLOADS/fp-three"
	[ "$status" -eq 1 ]
	[ "$stderr" = "bpfprof: cannot write the profile to '/dev/full': No space left on device" ]
}

@test "-d ending a command is a success (exit 0, the summary says so); a command that ends first keeps its status" {
	local cmd="'$WORKLOADS/spinner' was still running"
	# record, top and range: the end -d asked for, the command ended with SIGTERM
	run --separate-stderr "$BPFPROF" record -F 999 -d 1 -o "$OUT" -- "$WORKLOADS/spinner" 30
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ $stderr == "bpfprof: "*" Hz effective on the busiest CPU; $cmd after -d 1 and was ended (SIGTERM); profile written to '$OUT'" ]]
	[ "$(total "$OUT" '^spinner;')" -gt 10 ]
	run --separate-stderr "$BPFPROF" top -d 1 --delay 0.5 -- "$WORKLOADS/spinner" 30
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ $stderr == *"bpfprof top: "*" Hz effective on the busiest CPU; $cmd after -d 1 and was ended (SIGTERM)" ]]
	[[ $output == *other_busy_loop* ]]
	run --separate-stderr "$BPFPROF" range -F 999 -d 1 -o "$BATS_TEST_TMPDIR/range.txt" \
		spinner:other_busy_loop -- "$WORKLOADS/spinner" 30
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ $stderr == *" Hz effective on the busiest CPU; $cmd after -d 1 and was ended (SIGTERM); listing written to '$BATS_TEST_TMPDIR/range.txt'" ]]
	# a command that ends before -d: its own status, and nothing said of an end
	run --separate-stderr "$BPFPROF" record -F 999 -d 30 -o "$OUT" -- \
		sh -c '"$0" 0.3; exit 3' "$WORKLOADS/fp-three"
	[ "$status" -eq 3 ]
	[[ $stderr != *"still running"* ]]
}

@test "perf's -g and --call-graph: fp and dwarf are --unwind's; -g, lbr and a dwarf size change nothing and say so" {
	local auto="DWARF tables where a binary has them, frame pointers elsewhere"
	run --separate-stderr "$BPFPROF" record -g -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.5
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "bpfprof record: note: -g has no effect: stacks are always recorded (user stacks unwound as --unwind=auto: $auto)" ]
	[ "$(total "$OUT" 'main;run_workload;split;leaf_a ')" -gt 10 ]
	run --separate-stderr "$BPFPROF" record --call-graph=fp --stats -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	[[ $stderr == *"bpfprof: stats: unwinding by frame pointers (--unwind=fp)"* ]]
	[[ $stderr != *note:* ]]
	run --separate-stderr "$BPFPROF" record --call-graph dwarf --stats -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	[[ $stderr == *"bpfprof: stats: unwinding by DWARF tables only (--unwind=dwarf)"* ]]
	[[ $stderr != *note:* ]]
	run --separate-stderr "$BPFPROF" record --call-graph=dwarf,65528 --stats -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "bpfprof record: note: the size in --call-graph=dwarf,65528 has no effect: bpfprof unwinds in the kernel and copies no stack" ]
	[[ $stderr == *"bpfprof: stats: unwinding by DWARF tables only (--unwind=dwarf)"* ]]
	run --separate-stderr "$BPFPROF" record --unwind=fp --call-graph=lbr --stats -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "bpfprof record: note: --call-graph=lbr has no effect: bpfprof does not read the last branch records; user stacks are unwound as --unwind=auto: $auto" ]
	[[ $stderr == *"bpfprof: stats: unwinding by DWARF tables, frame pointers elsewhere"* ]]
	# -q: no note either
	run --separate-stderr "$BPFPROF" record -q -g -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}
