#!/usr/bin/env bats
# A first run with an empty unwind cache (issue 14 item 7): a command
# bpfprof runs is stopped while the unwind tables of the binaries it maps
# are built, so its stacks are as whole as on the next run. Each test has a
# cache directory of its own (XDG_CACHE_HOME), so the tables are built, not
# read. tests/workloads/unwind-cold has a large table (750,000 rows) and
# spins in a frameless chain that only its table gets out of.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
}

@test "a cold first run has whole stacks: the command waits for its large table" {
	run "$BPFPROF" record -F 999 --stats -o "$OUT" -- "$WORKLOADS/unwind-cold" 1
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	well_formed "$OUT"
	# the tables were built into the test's own cache
	compgen -G "$XDG_CACHE_HOME/bpfprof/unwind/*.unwind" > /dev/null
	at_least "$(total "$OUT" '^unwind-cold;')" 250
	# before: 38-65% on a busy 2-CPU machine (the table took 0.6-1.8 s)
	at_least "$(share "$OUT" "^unwind-cold;$START;main;cold_outer;cold_mid;cold_leaf( |;)" \
		'^unwind-cold;')" 97
	# it was stopped, for as long as its tables took
	grep -E 'stopped while their tables were built: [1-9][0-9]* times?, ' <<< "$output"
}

@test "--no-unwind-hold lets the command run; -d ends a held command" {
	run "$BPFPROF" record -F 999 --stats --no-unwind-hold -o "$OUT" -- "$WORKLOADS/unwind-cold" 0.3
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	refute grep -q 'stopped while their tables were built' <<< "$output"
	rm -rf "$XDG_CACHE_HOME"
	# the run ends while the command waits for its table: continued, then
	# ended, and the end -d asked for is a success
	run timeout 60 "$BPFPROF" record -d 0.05 -o "$OUT" -- "$WORKLOADS/unwind-cold" 30
	[ "$status" -eq 0 ] || { echo "status $status: $output" >&2; return 1; }
	[[ $output == *"; '$WORKLOADS/unwind-cold' was still running after -d 0.05 and was ended (SIGTERM);"* ]]
}
