#!/usr/bin/env bats
# Separate debug files, as root on real profiles: a stripped binary whose
# names come from its .gnu_debuglink file, and Debian's stripped libc named
# through the build-id directory of libc6-dbg.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
}

# strip_with_debuglink DIR: DIR/fp-three, stripped, naming DIR/fp-three.debug
strip_with_debuglink() {
	mkdir -p "$1"
	objcopy --only-keep-debug "$WORKLOADS/fp-three" "$1/fp-three.debug"
	objcopy --strip-all --add-gnu-debuglink="$1/fp-three.debug" \
		"$WORKLOADS/fp-three" "$1/fp-three"
}

@test "a stripped binary gets its names from the debug file its debuglink names" {
	local dir=$BATS_TEST_TMPDIR/bin
	strip_with_debuglink "$dir"
	# without the debug file: no names, only offsets
	mv "$dir/fp-three.debug" "$dir/elsewhere.debug"
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$dir/fp-three" 1
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" 'leaf_a')" -eq 0 ]
	[ "$(total "$OUT" '^fp-three;')" -gt 200 ]
	[ "$(share "$OUT" '\[fp-three\+0x' '^fp-three;')" -ge 90 ]
	# with it: the whole chain by name
	mv "$dir/elsewhere.debug" "$dir/fp-three.debug"
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$dir/fp-three" 1
	[ "$status" -eq 0 ]
	# names through MiniDebugInfo: most stacks pass main, run_workload, split and a
	# leaf (below it: kernel frames of an interrupt, more of them on a loaded machine)
	[ "$(share "$OUT" 'main;run_workload;split;leaf_[abc][; ]' '^fp-three;')" -ge 90 ]
}

@test "a debug file whose CRC does not match the debuglink is not used" {
	local dir=$BATS_TEST_TMPDIR/bin
	strip_with_debuglink "$dir"
	printf 'XXXX' | dd of="$dir/fp-three.debug" bs=1 seek=64 conv=notrunc status=none
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$dir/fp-three" 0.5
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" 'leaf_a')" -eq 0 ]
}

@test "Debian's stripped libc is named through /usr/lib/debug/.build-id (libc6-dbg)" {
	local libc id
	libc=$(ldd "$WORKLOADS/fp-three" | awk '/libc.so.6/ { print $3 }')
	id=$(readelf -n "$libc" | awk '/Build ID/ { print $3 }')
	[ -e "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ] ||
		skip "no debug file for $libc (install libc6-dbg)"
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/threads" 1 2
	[ "$status" -eq 0 ]
	# thread_spin's caller is libc's start_thread, a local symbol only the debug file has
	[ "$(share "$OUT" ';start_thread;thread_spin( |;)' '^threads;')" -ge 90 ]
	# a rare sample may land where even the debug file has no symbol (a PLT stub)
	[ "$(total "$OUT" '\[libc\.so\.6\+0x')" -le "$(( $(total "$OUT") / 50 ))" ]
}

@test "a stripped binary with MiniDebugInfo (.gnu_debugdata) gets its names from it" {
	local dir=$BATS_TEST_TMPDIR/bin
	mkdir -p "$dir"
	"$REPO/tests/fixtures/mkminidebug" "$WORKLOADS/fp-three" "$dir/fp-three"
	readelf -S "$dir/fp-three" | grep -q gnu_debugdata
	[ "$(readelf -S "$dir/fp-three" | grep -c ' .symtab')" -eq 0 ]
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$dir/fp-three" 1
	[ "$status" -eq 0 ]
	# names through MiniDebugInfo: most stacks pass main, run_workload, split and a
	# leaf (below it: kernel frames of an interrupt, more of them on a loaded machine)
	[ "$(share "$OUT" 'main;run_workload;split;leaf_[abc][; ]' '^fp-three;')" -ge 90 ]
}
