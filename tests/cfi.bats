#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The unwind table compiled from a binary's CFI (issue 5), through the hidden
# `bpfprof debug-cfi`: libc and the gcc-built fixtures of known shapes
# (tests/fixtures/cfi-fixture.c), the disk cache, the errors, and the rows
# against readelf's interpretation of the same CFI (tests/cfi-agreement.py).
# No root needed. The vDSO is no file: test-cfitable builds its table from
# memory.

bats_require_minimum_version 1.5.0
load helpers

LIBC=/lib/x86_64-linux-gnu/libc.so.6

setup() {
	need_binary
	FIXTURES=${FIXTURES:-$(dirname "$(dirname "$BPFPROF")")/tests/fixtures}
	[ -x "$FIXTURES/cfi-fixture" ] || {
		echo "no CFI fixtures in $FIXTURES (build them, or set FIXTURES)" >&2
		return 1
	}
	# the default cache directory, kept out of the real one
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/xdg
	CACHE=$XDG_CACHE_HOME/bpfprof/unwind
}

# every line a row: an address, then rules or one word
rows_well_formed() {
	awk '
	!/^0x[0-9a-f]+ (cfa=(rsp|rbp|r[0-9a-z]+)[+-][0-9]+|cfa=plt\(rsp[+-][0-9]+,[0-9]+\)|cfa=\*\([a-z0-9]+[+-][0-9]+\)) rbp=(same|undef|cfa[+-][0-9]+|\*\(rbp[+-][0-9]+\))$/ &&
	!/^0x[0-9a-f]+ (signal|end|invalid|none)$/ { print "bad line: " $0; bad = 1 }
	# hex without leading zeros: a shorter address is a smaller one (mawk has no strtonum)
	NR > 1 && (length($1) < length(last) || (length($1) == length(last) && $1 <= last)) {
		print "not increasing: " $0; bad = 1
	}
	{ last = $1 }
	END { exit bad }' "$1"
}

@test "libc: a well-formed table with PLT, signal, end and none rows" {
	[ -r "$LIBC" ] || skip "no $LIBC"
	run --separate-stderr "$BPFPROF" debug-cfi "$LIBC"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/libc.rows"
	rows_well_formed "$BATS_TEST_TMPDIR/libc.rows"
	[ "${#lines[@]}" -gt 10000 ]
	grep -qE '^0x[0-9a-f]+ cfa=plt\(rsp\+8,11\) rbp=same$' "$BATS_TEST_TMPDIR/libc.rows"
	grep -qE '^0x[0-9a-f]+ signal$' "$BATS_TEST_TMPDIR/libc.rows"
	grep -qE '^0x[0-9a-f]+ end$' "$BATS_TEST_TMPDIR/libc.rows"
	grep -qE '^0x[0-9a-f]+ cfa=rbp\+16 rbp=cfa-16$' "$BATS_TEST_TMPDIR/libc.rows"
	[ "${lines[-1]##* }" = none ]
}

@test "libc: the rows agree with readelf --debug-dump=frames-interp at every row" {
	[ -r "$LIBC" ] || skip "no $LIBC"
	command -v readelf >/dev/null || skip "no readelf"
	run --separate-stderr "$REPO/tests/cfi-agreement.py" "$BPFPROF" "$LIBC"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *", 0 disagree" ]]
}

@test "libstdc++: the rows agree with readelf" {
	local lib=/usr/lib/x86_64-linux-gnu/libstdc++.so.6
	[ -r "$lib" ] || skip "no $lib"
	run --separate-stderr "$REPO/tests/cfi-agreement.py" "$BPFPROF" "$lib"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the gcc fixtures' rows agree with readelf" {
	for f in cfi-fixture cfi-fixture-ibt cfi-fixture-debugframe; do
		run --separate-stderr "$REPO/tests/cfi-agreement.py" "$BPFPROF" "$FIXTURES/$f"
		echo "$output"
		[ "$status" -eq 0 ]
	done
}

@test "fixture: alloca, DRAP realignment, a 100 KiB frame, the PLT, _start" {
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache "$FIXTURES/cfi-fixture"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/fx.rows"
	rows_well_formed "$BATS_TEST_TMPDIR/fx.rows"
	grep -qx '0x[0-9a-f]* cfa=rbp+16 rbp=cfa-16' "$BATS_TEST_TMPDIR/fx.rows"
	grep -qx '0x[0-9a-f]* cfa=r10+0 rbp=same' "$BATS_TEST_TMPDIR/fx.rows"
	grep -qx '0x[0-9a-f]* cfa=\*(rbp-[0-9]*) rbp=\*(rbp+0)' "$BATS_TEST_TMPDIR/fx.rows"
	grep -qx '0x[0-9a-f]* cfa=rsp+102416 rbp=same' "$BATS_TEST_TMPDIR/fx.rows"
	grep -qx '0x[0-9a-f]* cfa=plt(rsp+8,11) rbp=same' "$BATS_TEST_TMPDIR/fx.rows"
	start=$(nm "$FIXTURES/cfi-fixture" | awk '$3 == "_start" { print $1 }')
	grep -qx "$(printf '0x%x' "0x$start") end" "$BATS_TEST_TMPDIR/fx.rows"
}

@test "fixture: IBT PLT stubs have their own threshold" {
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache "$FIXTURES/cfi-fixture-ibt"
	[ "$status" -eq 0 ]
	[[ $output == *"cfa=plt(rsp+8,9) rbp=same"* ]]
}

@test ".debug_frame: from the binary, or from its debug file beside a stripped copy" {
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache "$FIXTURES/cfi-fixture-debugframe"
	[ "$status" -eq 0 ]
	whole=$output
	[[ $whole == *"cfa=rbp+16 rbp=cfa-16"* ]]
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache "$FIXTURES/cfi-fixture-debugframe-stripped"
	[ "$status" -eq 0 ]
	[[ $output != *"cfa=rbp+16"* ]]
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache \
		--debug-file "$FIXTURES/cfi-fixture-debugframe.debug" \
		"$FIXTURES/cfi-fixture-debugframe-stripped"
	[ "$status" -eq 0 ]
	[ "$output" = "$whole" ]
}

@test "--stats: FDEs, rows, bytes, cold build and cache load times" {
	run --separate-stderr "$BPFPROF" debug-cfi --stats --cache-dir "$BATS_TEST_TMPDIR/c" \
		"$FIXTURES/cfi-fixture"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"fdes: "[0-9]* ]]
	[[ $output =~ rows:\ [0-9]+\ \([0-9]+\ before ]]
	[[ $output =~ bytes:\ [0-9]+ ]]
	[[ $output =~ build:\ [0-9.]+\ ms\ \(cold\) ]]
	[[ $output =~ cache\ load:\ [0-9.]+\ ms ]]
	[ "$(ls "$BATS_TEST_TMPDIR/c")" = "$(cd "$BATS_TEST_TMPDIR/c" && ls -- *.unwind)" ]
}

@test "the cache: written once in the default directory, then read; a damaged file is rebuilt" {
	run --separate-stderr "$BPFPROF" debug-cfi "$FIXTURES/cfi-fixture"
	[ "$status" -eq 0 ]
	first=$output
	id=$(readelf -n "$FIXTURES/cfi-fixture" | awk '/Build ID/ { print $3 }')
	[ -f "$CACHE/$id.unwind" ]
	[ "$(ls -A "$CACHE" | wc -l)" -eq 1 ]
	run --separate-stderr "$BPFPROF" debug-cfi "$FIXTURES/cfi-fixture"
	[ "$output" = "$first" ]
	# cut the file short, then scribble over its rows: refused, rebuilt, rewritten
	truncate -s -5 "$CACHE/$id.unwind"
	run --separate-stderr "$BPFPROF" debug-cfi "$FIXTURES/cfi-fixture"
	[ "$status" -eq 0 ]
	[ "$output" = "$first" ]
	size=$(stat -c %s "$CACHE/$id.unwind")
	printf 'garbage!' | dd of="$CACHE/$id.unwind" bs=1 seek=100 conv=notrunc status=none
	run --separate-stderr "$BPFPROF" debug-cfi "$FIXTURES/cfi-fixture"
	[ "$output" = "$first" ]
	[ "$(stat -c %s "$CACHE/$id.unwind")" -eq "$size" ]
	[ "$(dd if="$CACHE/$id.unwind" bs=1 skip=100 count=8 status=none)" != garbage! ]
}

@test "--no-cache writes nothing" {
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache "$FIXTURES/cfi-fixture"
	[ "$status" -eq 0 ]
	[ ! -e "$CACHE" ]
}

@test "errors name the file: missing, not ELF, no CFI; usage errors exit 64" {
	run --separate-stderr "$BPFPROF" debug-cfi /nonexistent/file
	[ "$status" -eq 64 ]
	[[ $stderr == *"cannot open '/nonexistent/file'"* ]]
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache "$REPO/tests/fixtures/kallsyms.txt"
	[ "$status" -eq 64 ]
	[[ $stderr == *"kallsyms.txt' is not an x86-64 ELF file"* ]]
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache "$FIXTURES/buildid-note.o"
	[ "$status" -eq 64 ]
	[[ $stderr == *"buildid-note.o' has no CFI"* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	run --separate-stderr "$BPFPROF" debug-cfi
	[ "$status" -eq 64 ]
	[[ $stderr == Usage:* ]]
	run --separate-stderr "$BPFPROF" debug-cfi --no-cache --cache-dir /tmp "$LIBC"
	[ "$status" -eq 64 ]
	run --separate-stderr "$BPFPROF" debug-cfi --bogus "$LIBC"
	[ "$status" -eq 64 ]
}

@test "the comparison with readelf notices a wrong row" {
	# a bpfprof that gets one CFA offset wrong
	cat >"$BATS_TEST_TMPDIR/wrong" <<-END
	#!/bin/sh
	"$BPFPROF" "\$@" | sed '0,/cfa=rbp+16/s//cfa=rbp+24/'
	END
	chmod +x "$BATS_TEST_TMPDIR/wrong"
	run --separate-stderr "$REPO/tests/cfi-agreement.py" "$BATS_TEST_TMPDIR/wrong" \
		"$FIXTURES/cfi-fixture"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ ${lines[0]} != *", 0 disagree" ]]
	[[ $output == *'mismatch 0x'*'bpfprof "cfa=rbp+24 rbp=cfa-16", readelf CFA=rbp+16'* ]]
}
