#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Inline frames and source lines from DWARF, as root on real profiles:
# inline-chain (hot_caller <- outer_step inlined <- inner_mix inlined) built
# by clang, which emits no .debug_aranges, and by gcc, which does. The
# expected lines are found in the source by their markers. Without root:
# the symbolizer alone, address by address, against llvm-symbolizer.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	OUT=$BATS_TEST_TMPDIR/out.folded
	SRC=$REPO/tests/workloads/inline-chain.c
	CALL_OUTER=$(grep -n '/\* CALL_OUTER \*/' "$SRC" | cut -d: -f1)
	CALL_INNER=$(grep -n '/\* CALL_INNER \*/' "$SRC" | cut -d: -f1)
	HOT_LOOP=$(grep -n '/\* HOT_LOOP \*/' "$SRC" | cut -d: -f1)
}

@test "an address in inlined code gives the whole inline chain, innermost last, with _[i]" {
	need_root
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/inline-chain" 2
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	[ "$(total "$OUT" '^inline-chain;')" -gt 400 ]
	[ "$(share "$OUT" ';main;run_workload;hot_caller;outer_step_\[i\];inner_mix_\[i\]( |;)' \
		'^inline-chain;')" -ge 85 ]
	# inlined frames only where DWARF says so: the real functions have no suffix
	refute grep -qE '(main|run_workload|hot_caller)_\[i\]' "$OUT"
}

@test "--no-inline: no inlined frames; the sample is charged to the function" {
	need_root
	run "$BPFPROF" record -F 999 --no-inline -o "$OUT" -- "$WORKLOADS/inline-chain" 1
	[ "$status" -eq 0 ]
	[ "$(share "$OUT" ';main;run_workload;hot_caller( |;)' '^inline-chain;')" -ge 85 ]
	refute grep -qF '_[i]' "$OUT"
}

@test "clang without .debug_aranges: --lines gives each frame's file:line" {
	need_root
	# the premise: clang emits no .debug_aranges, libdw's own CU lookup fails
	refute grep -qF '.debug_aranges' <(readelf -SW "$WORKLOADS/inline-chain")
	run "$BPFPROF" record -F 999 --lines -o "$OUT" -- "$WORKLOADS/inline-chain" 2
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	# each frame's line is where it calls the next; the leaf's is the hot loop
	# (its 'for' line, one above, holds the loop's compare and branch)
	local chain="hot_caller inline-chain\\.c:$CALL_OUTER;outer_step inline-chain\\.c:${CALL_INNER}_\\[i\\];"
	chain+="inner_mix inline-chain\\.c:($HOT_LOOP|$((HOT_LOOP - 1)))_\\[i\\]( |;)"
	[ "$(share "$OUT" ";main inline-chain\\.c:[0-9]+;run_workload inline-chain\\.c:[0-9]+;$chain" \
		'^inline-chain;')" -ge 85 ]
	# Debian's libc gets its lines too (libc6-dbg, dwz-compressed DWARF);
	# DWARF unwinding reaches _start and __libc_start_main_impl above it
	[ "$(share "$OUT" '^inline-chain;_start;__libc_start_main_impl [a-z_-]+\.c:[0-9]+;__libc_start_call_main [a-z_]+\.h:[0-9]+;main ' \
		'^inline-chain;')" -ge 85 ]
}

@test "gcc (.debug_aranges): the same inline chain and lines" {
	need_root
	grep -qF '.debug_aranges' <(readelf -SW "$WORKLOADS/inline-chain-gcc")
	run "$BPFPROF" record -F 999 --lines -o "$OUT" -- "$WORKLOADS/inline-chain-gcc" 2
	[ "$status" -eq 0 ]
	local chain="hot_caller inline-chain\\.c:$CALL_OUTER;outer_step inline-chain\\.c:${CALL_INNER}_\\[i\\];"
	chain+="inner_mix inline-chain\\.c:($HOT_LOOP|$((HOT_LOOP - 1)))_\\[i\\]( |;)"
	# gcc's leaf has no frame of its own, so only the end of the stack is asserted
	[ "$(share "$OUT" ";$chain" '^inline-chain-gc;')" -ge 85 ]
}

@test "no file:line without --lines; a binary with unreadable DWARF keeps its names" {
	need_root
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/inline-chain" 1
	[ "$status" -eq 0 ]
	refute grep -qE '\.c:[0-9]+' "$OUT"
	# a binary whose DWARF is unreadable: names still come from its symbol table
	local bin=$BATS_TEST_TMPDIR/inline-chain
	cp "$WORKLOADS/inline-chain" "$bin"
	python3 - "$bin" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
# clobber .debug_info's contents (found through the section headers)
import struct
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
def sh(i):
    return struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
stroff = sh(shstrndx)[4]
for i in range(shnum):
    h = sh(i)
    name = data[stroff + h[0]:data.index(b'\0', stroff + h[0])]
    if name == b'.debug_info':
        data[h[4]:h[4] + h[5]] = b'\xff' * h[5]
open(sys.argv[1], 'wb').write(data)
PY
	run "$BPFPROF" record -F 999 --lines -o "$OUT" -- "$bin" 1
	[ "$status" -eq 0 ]
	[ "$(share "$OUT" ';main;run_workload;hot_caller( |;)' '^inline-chain;')" -ge 85 ]
}

# The symbolizer alone, on every instruction of a binary, against
# llvm-symbolizer --inlining: the same inline chain, names, files and lines.
@test "every instruction: the same chains, names and lines as llvm-symbolizer (C, clang and gcc)" {
	need_binary
	command -v llvm-symbolizer >/dev/null || skip "no llvm-symbolizer (package llvm)"
	local w
	for w in inline-chain inline-chain-gcc fp-three; do
		run --separate-stderr "$REPO/tests/llvm-agreement.py" "$BPFPROF" "$WORKLOADS/$w"
		echo "$w: $output% $stderr"
		[ "$status" -eq 0 ]
		[ "$output" -eq 100 ]
	done
}

@test "every instruction of a Rust binary (inlined std code): >= 99% as llvm-symbolizer" {
	need_binary
	command -v llvm-symbolizer >/dev/null || skip "no llvm-symbolizer (package llvm)"
	[ -x "$WORKLOADS/rust-names-v0" ] || skip "the Rust workloads were not built (no rustc)"
	run --separate-stderr "$REPO/tests/llvm-agreement.py" "$BPFPROF" "$WORKLOADS/rust-names-v0"
	echo "$output% $stderr"
	[ "$status" -eq 0 ]
	# the rest: identical functions folded into one, named after another alias
	[ "$output" -ge 99 ]
}
