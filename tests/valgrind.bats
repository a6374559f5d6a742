#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# valgrind's memcheck on bpfprof's user space: a whole `record` of a command
# (the load, the side band, the DWARF unwind tables and their worker
# thread, the drain, the symbolizer, the output file), and the CFI compiler
# and the symbolizer on their own: no errors and no definite leaks.
# tests/valgrind.supp suppresses valgrind's own false positives about
# bpf(2), each explained there, and nothing else. Skipped without valgrind
# (scripts/deps installs it) and for an ASan build, which valgrind cannot
# run.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	need_binary
	command -v valgrind >/dev/null || skip "valgrind is not installed (scripts/deps installs it)"
	if readelf -d "$BPFPROF" | grep -q 'NEEDED.*libasan'; then
		skip "$BPFPROF is an ASan build: valgrind cannot run it"
	fi
	MEMCHECK=(valgrind --leak-check=full --errors-for-leak-kinds=definite
		--error-exitcode=99 --suppressions="$REPO/tests/valgrind.supp")
}

# memcheck_clean: valgrind's verdict in $output (of `run memcheck ...`) is
# no errors, and it found no definite leak
memcheck_clean() {
	grep -E '==[0-9]+== (ERROR SUMMARY|.*(definitely|indirectly) lost)' <<<"$output" || true
	grep -qE '==[0-9]+== ERROR SUMMARY: 0 errors' <<<"$output"
	refute grep -qE '==[0-9]+== +definitely lost: [1-9]' <<<"$output"
}

@test "memcheck: a whole record of a command, no errors and no definite leaks" {
	need_root
	local out=$BATS_TEST_TMPDIR/out.folded
	run "${MEMCHECK[@]}" "$BPFPROF" record -F 99 -o "$out" -- "$WORKLOADS/fp-three" 1
	echo "status: $status"
	memcheck_clean
	[ "$status" -eq 0 ]
	well_formed "$out"
	[ "$(total "$out" '^fp-three;')" -gt 0 ]
}

@test "memcheck: the CFI compiler on libc and the symbolizer on a workload" {
	local libc sym
	libc=$(ldd "$WORKLOADS/fp-three" | awk '/libc\.so/ { print $3 }')
	[ -f "$libc" ]
	run "${MEMCHECK[@]}" "$BPFPROF" debug-cfi --no-cache --stats "$libc"
	echo "debug-cfi status: $status"
	memcheck_clean
	[ "$status" -eq 0 ]

	sym=$(nm "$WORKLOADS/fp-three" | awk '$3 == "leaf_a" { print $1 }')
	run "${MEMCHECK[@]}" "$BPFPROF" debug-symbolize "$WORKLOADS/fp-three" <<<"0x$sym"
	echo "debug-symbolize status: $status"
	memcheck_clean
	[ "$status" -eq 0 ]
	grep -q '^leaf_a[[:space:]].*fp-three\.c:' <<<"$output"
}
