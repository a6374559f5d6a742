#!/usr/bin/env bats
# Long and busy runs (issue 13): the stack sets are drained while sampling,
# so a run that would fill the maps loses nothing to them and counts every
# sample once; exited processes are forgotten once their samples are
# symbolized. Real BPF programs and perf events, workloads from
# tests/workloads/ (paths: 65,536 call paths; churn: short-lived processes
# and threads); proportions and bounds, never exact sample counts.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
	ERR=$BATS_TEST_TMPDIR/err
	PIDS=()
}

teardown() {
	stop_workloads
}

# paths_kept FILE: distinct aI;bJ;cK;dL paths of the paths workload in FILE
paths_kept() {
	grep -oE ';a[0-9]+;b[0-9]+;c[0-9]+;d[0-9]+( |;)' "$1" | sort -u | wc -l
}

# stat_of FILE REGEX: the first number after REGEX on bpfprof's stderr FILE
stat_of() {
	grep -oE "$2 [0-9]+" "$1" | head -1 | grep -oE '[0-9]+$'
}

# A run of the paths workload that fills a small set many times over.
run_paths() {
	"$BPFPROF" record -F 19999 --max-stacks=16384 --stats -o "$OUT" \
		-- "$WORKLOADS/paths" 4 >"$BATS_TEST_TMPDIR/paths.out" 2>"$ERR"
}

@test "a run that fills the maps many times over loses nothing and keeps >= 99% of the paths" {
	run_paths
	cat "$ERR"
	cat "$BATS_TEST_TMPDIR/paths.out"
	grep -q 'samples kept, 0 lost,' "$ERR"
	well_formed "$OUT"
	visited=$(grep -oE 'paths [0-9]+' "$BATS_TEST_TMPDIR/paths.out" | grep -oE '[0-9]+')
	kept=$(paths_kept "$OUT")
	echo "paths visited by the workload: $visited, kept: $kept"
	# more paths than a set has entries: without the drains most were lost
	[ "$visited" -gt 16384 ]
	[ $((kept * 100)) -ge $((visited * 99)) ]
}

@test "drained sets count every kept sample once, and the sets were switched while sampling" {
	run_paths
	cat "$ERR"
	kept=$(stat_of "$ERR" 'bpfprof:')
	taken=$(stat_of "$ERR" 'stack sets:')
	echo "kept $kept, in the output $(total "$OUT"), sets taken while sampling $taken"
	[ "$taken" -ge 2 ]
	[ "$kept" -gt 5000 ]
	# every sample the program counted is in the output once: none lost at
	# a switch, none drained twice
	[ "$(total "$OUT")" -eq "$kept" ]
}

@test "exited processes are forgotten: the process table stays small under churn" {
	run "$BPFPROF" record -F 999 --stats -o "$OUT" -- "$WORKLOADS/churn" 4
	[ "$status" -eq 0 ]
	echo "$output" | grep -E 'processes:|samples kept'
	created=$(echo "$output" | grep -oE '^processes [0-9]+' | grep -oE '[0-9]+')
	line=$(echo "$output" | grep -E 'stats: processes:')
	tracked=$(echo "$line" | grep -oE '[0-9]+ tracked' | grep -oE '[0-9]+')
	forgotten=$(echo "$line" | grep -oE '[0-9]+ forgotten' | grep -oE '[0-9]+')
	echo "created $created, tracked at the end $tracked, forgotten $forgotten"
	[ "$created" -gt 200 ]
	# nearly all the exited children are gone from the table; what is left
	# is those that exited in the last second or so
	[ $((forgotten * 100)) -ge $((created * 50)) ]
	[ $((tracked * 100)) -le $((created * 50)) ]
	# and their samples were symbolized before they were forgotten: a
	# process forgotten too early would have whole stacks [unmapped+0x...].
	# Some are so by nature, as with the old code (about 1%): a sample in
	# the middle of an execve (the old image's addresses, the new exec's
	# mappings) or of a clone3 before the child's fork record.
	[ "$(total "$OUT" '^churn;.*child_work')" -gt 100 ]
	[ "$(grep -F '[unmapped+' "$OUT" | grep -v -e execve -e clone3 | total /dev/stdin)" -le \
		$(($(total "$OUT") / 100)) ]
}

@test "binaries no process maps any more are freed, and their frames keep their names" {
	# 30 programs, each a file of its own (a new binary), run one after another
	for i in $(seq 30); do
		cp "$WORKLOADS/fp-three" "$BATS_TEST_TMPDIR/w$i"
	done
	run "$BPFPROF" record -F 999 --stats -o "$OUT" -- \
		bash -c 'for i in $(seq 30); do "$0/w$i" 0.2; done' "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E 'processes:|samples kept'
	freed=$(echo "$output" | grep -oE '[0-9]+ binaries freed' | grep -oE '^[0-9]+')
	echo "freed $freed"
	# all but those of the last three seconds or so: freed once their
	# samples are named and no process has mapped them for two seconds
	[ "$freed" -ge 15 ]
	# the frames of the programs whose binaries were freed still have their names
	all=$(total "$OUT" '^w[0-9]+;')
	named=$(total "$OUT" '^w[0-9]+;.*main;run_workload;split;leaf_[abc]( |;)')
	echo "samples of the programs $all, with their whole named stack $named"
	[ "$all" -gt 1500 ]
	[ $((named * 100)) -ge $((all * 90)) ]
}

@test "a program run over and over keeps its binary between runs" {
	# one file, run 8 times, each time after 0.6 s that no process maps it:
	# mapped again within the grace each time
	run "$BPFPROF" record -F 999 --stats -o "$OUT" -- \
		bash -c 'for i in $(seq 8); do "$0/fp-three" 0.2; sleep 0.6; done' "$WORKLOADS"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E 'processes:|samples kept'
	forgotten=$(echo "$output" | grep -oE '[0-9]+ forgotten' | grep -oE '^[0-9]+')
	freed=$(echo "$output" | grep -oE '[0-9]+ binaries freed' | grep -oE '^[0-9]+')
	echo "forgotten $forgotten, freed $freed"
	# its processes were forgotten one after another, and its binary was
	# never read twice (before: freed after most runs, 6 to 8 frees; and a
	# short-lived process's libc and ld.so were a second libc and ld.so,
	# freed too, when its mount namespace was gone before it was read).
	# What is freed: seq, run once
	[ "$forgotten" -ge 6 ]
	[ "$freed" -le 1 ]
	[ "$(share "$OUT" ';main;run_workload;split;leaf_[abc]( |;)' '^fp-three;')" -ge 90 ]
}

@test "the JIT maps of forgotten processes are freed, and their frames keep their names" {
	run "$BPFPROF" record -F 999 --stats -o "$OUT" -- sh -c \
		'for i in $(seq 12); do "$0/jit-anon" 0.3 huge & echo $! >>"$1"; wait; done' \
		"$WORKLOADS" "$BATS_TEST_TMPDIR/pids"
	while read -r pid; do rm -f "/tmp/perf-$pid.map"; done <"$BATS_TEST_TMPDIR/pids"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E 'processes:|samples kept'
	freed=$(echo "$output" | grep -oE 'with [0-9]+ JIT maps' | grep -oE '[0-9]+')
	echo "JIT maps freed: $freed"
	# all but those of the last second or so
	[ "$freed" -ge 6 ]
	[ "$(share "$OUT" ';jit_hot_\[j\] [0-9]+$' '^jit-anon;')" -ge 50 ]
}
