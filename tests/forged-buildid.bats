#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A build-id is a claim a file makes, not its identity (issue 13): another
# user can build or copy any binary and give it the build-id of one root
# profiles. forged-genuine is unwind-chain20 (main -> f01 -> ... -> f20,
# frameless); forged-evil is the same source with every fNN renamed
# EVIL_fNN and built -O0 with frame pointers (other code, other CFI); both
# claim build-id f00dfeed... (tests/workloads/meson.build). As root, real
# BPF on real perf events.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
	# the unwind cache of these runs only: the user's own stays out of it
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	# another user runs the forged copy when the machine has one to spare
	# (and it can reach the copy), else root
	EVIL=$WORKLOADS/forged-evil
	AS_NOBODY=()
	if command -v setpriv >/dev/null && stage_for_nobody "$EVIL" 2>/dev/null; then
		EVIL=$NOBODY/forged-evil
		AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fi
}

teardown() {
	stop_workloads
}

# chain PREFIX: "PREFIX01;PREFIX02;...;PREFIX20"
chain() {
	local s="" i
	for ((i = 1; i <= 20; i++)); do
		s+=$(printf '%s%02d;' "$1" "$i")
	done
	echo "${s%;}"
}

@test "two files claiming one build-id are each named from their own symbols" {
	"${AS_NOBODY[@]}" "$EVIL" 30 &
	PIDS+=($!)
	local evil genuine
	evil=$(exec_of "$!" forged-evil)
	start forged-genuine 30
	genuine=${PIDS[-1]}
	run "$BPFPROF" record -a --per-pid -F 999 -d 1.5 -o "$OUT"
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	# enough of each to tell
	[ "$(total "$OUT" "^forged-genuine-$genuine;")" -ge 150 ]
	[ "$(total "$OUT" "^forged-evil-$evil;")" -ge 150 ]
	# the genuine process: its own names, and none of the forged file's
	refute grep -q "^forged-genuine-$genuine;.*EVIL_" "$OUT"
	[ "$(share "$OUT" "^forged-genuine-$genuine;.*;f20( |;)" "^forged-genuine-$genuine;")" -ge 90 ]
	# the forged one: its names, not the genuine file's
	[ "$(share "$OUT" "^forged-evil-$evil;.*;EVIL_f20( |;)" "^forged-evil-$evil;")" -ge 90 ]
}

@test "a forged file's unwind table, cached first, is not used for the genuine file" {
	# the forged file alone first: its table goes into the cache under the build-id
	run "$BPFPROF" record --unwind=dwarf -F 999 -o "$OUT" -- "${AS_NOBODY[@]}" "$EVIL" 1
	[ "$status" -eq 0 ]
	ls "$XDG_CACHE_HOME"/bpfprof/unwind/f00dfeedf00dfeedf00dfeedf00dfeedf00dfeed*.unwind
	# then the genuine one: whole frameless stacks need its own table
	# (5 s: the samples before its table is built, the first milliseconds,
	# stop early; under ASan the build takes longer)
	run "$BPFPROF" record --unwind=dwarf -F 999 -o "$OUT" -- "$WORKLOADS/forged-genuine" 5
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	[ "$(total "$OUT" ';f20( |;)')" -ge 500 ]
	[ "$(share "$OUT" "^forged-genuine;$START;main;$(chain f)( |;)" ';f20( |;)')" -ge 99 ]
}
