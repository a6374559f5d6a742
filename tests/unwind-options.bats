#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The unwind options (--unwind, cli-unwind.c) of the subcommands other than
# record that run the unwinder: top, range --stacks and watch, as root, on
# real perf events and breakpoints. tests/workloads/unwind-chain20 has no
# frame pointers: main -> f01 -> ... -> f20, f20 spinning (and writing its
# global sink). With --unwind=dwarf f20's stacks are whole down to main;
# with --unwind=fp they stop at f20 (its caller is lost). record's own
# cases are tests/unwind.bats. Shares with tolerances, floors a fraction of
# an idle CPU's samples; the waits are the commands' own ends.
# suite-lock: debugregs (watch takes a debug register of the workload's
# thread: not beside a suite holding all four of one CPU's)

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	D=$BATS_TEST_TMPDIR
	WHOLE=";main;f01;f02;f03;f04;f05;f06;f07;f08;f09;f10;f11;f12;f13;f14;f15;f16;f17;f18;f19;f20( |;)"
}

# top_total MODE FUNC: top --unwind=MODE on unwind-chain20 for 2.5 s, a
# refresh a second into $D/top-MODE.txt; FUNC's total% in each refresh
# (0 where it has no row), one a line, into $D/totals; every refresh (but
# perhaps the end's shorter one) has f20 as its leaf
top_total() {
	run "$BPFPROF" top -F 999 --delay 1 --unwind="$1" -o "$D/top-$1.txt" \
		-- "$WORKLOADS/unwind-chain20" 2.5
	echo "$output"
	cat "$D/top-$1.txt"
	[ "$status" -eq 0 ]
	awk -v f="$2" '/^ *self%/ { if (n++) print t + 0; t = 0 }
		$NF == f { t = $3 + 0 } END { if (n) print t + 0 }' "$D/top-$1.txt" >"$D/totals"
	cat "$D/totals"
	[ "$(wc -l <"$D/totals")" -ge 1 ]
	# f20 has its samples in each refresh (but perhaps the end's, shorter one)
	[ "$(awk '$NF == "f20" && $2 >= 100' "$D/top-$1.txt" | wc -l)" -ge \
		"$(($(wc -l <"$D/totals") - 1))" ]
	[ "$(awk '$NF == "f20" && $2 >= 100' "$D/top-$1.txt" | wc -l)" -ge 1 ]
}

@test "top --unwind: dwarf puts main's callees on f20's stacks (total%), fp does not" {
	local t
	top_total dwarf f01
	for t in $(cat "$D/totals"); do
		at_least "${t%.*}" 90
	done
	top_total fp f01
	for t in $(cat "$D/totals"); do
		[ "${t%.*}" -le 5 ]
	done
}

@test "range --stacks --unwind: dwarf's stacks of f20 are whole down to main, fp's are not" {
	run "$BPFPROF" range -F 999 --unwind=dwarf -o "$D/l.txt" --stacks "$D/dwarf.folded" \
		unwind-chain20:f20 -- "$WORKLOADS/unwind-chain20" 1.5
	echo "$output"
	[ "$status" -eq 0 ]
	at_least "$(total "$D/dwarf.folded" 'f20 [0-9]+$')" 250
	at_least "$(share "$D/dwarf.folded" "$WHOLE" 'f20 [0-9]+$')" 95
	run "$BPFPROF" range -F 999 --unwind=fp -o "$D/l.txt" --stacks "$D/fp.folded" \
		unwind-chain20:f20 -- "$WORKLOADS/unwind-chain20" 1.5
	echo "$output"
	[ "$status" -eq 0 ]
	at_least "$(total "$D/fp.folded" 'f20 [0-9]+$')" 250
	[ "$(share "$D/fp.folded" ';main;' 'f20 [0-9]+$')" -le 5 ]
}

@test "watch --unwind: dwarf's stacks of f20's writes are whole down to main, fp's are not" {
	# --count: the first 3000 writes of sink, then the command is stopped
	run --separate-stderr "$BPFPROF" watch --unwind=dwarf --count 3000 -o "$D/dwarf.folded" \
		sink -- "$WORKLOADS/unwind-chain20" 5
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(total "$D/dwarf.folded")" -eq 3000 ]
	# the first writes may come before the tables (a few percent)
	at_least "$(share "$D/dwarf.folded" "$WHOLE" 'f20 [0-9]+$')" 80
	run --separate-stderr "$BPFPROF" watch --unwind=fp --count 3000 -o "$D/fp.folded" \
		sink -- "$WORKLOADS/unwind-chain20" 5
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(total "$D/fp.folded")" -eq 3000 ]
	[ "$(share "$D/fp.folded" ';main;' 'f20 [0-9]+$')" -le 5 ]
}
