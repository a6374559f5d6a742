#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Stripped code, as root on real profiles (issue 14): an address no symbol
# covers is named after the start of the function holding it, its .eh_frame
# FDE, as a file offset ([binary+0xOFFSET]), so a function's samples fold
# into one frame; with --lines, or where no FDE holds the address, each
# instruction keeps its own offset. The ground truth: the unstripped
# workload's symbols (nm) and readelf's FDEs, their addresses turned into
# file offsets through the PT_LOADs.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
	BIN=$BATS_TEST_TMPDIR/bin
	mkdir -p "$BIN"
}

# file_offset ELF VADDR: the file offset of VADDR (hex, no 0x) through ELF's
# PT_LOADs, in hex
file_offset() {
	local a=$((0x$2)) type off va fs sz
	while read -r type off va _ fs sz _; do
		[ "$type" = LOAD ] || continue
		if ((a >= va && a < va + sz)); then
			printf '%x\n' $((a - va + off))
			return 0
		fi
	done < <(readelf -lW "$1")
	return 1
}

# symbol_offset ELF NAME: the file offset of symbol NAME of (unstripped) ELF
symbol_offset() {
	file_offset "$1" "$(nm "$1" | awk -v n="$2" '$3 == n { print $1; exit }')"
}

# fde_offsets ELF: the file offsets of the starts of ELF's .eh_frame FDEs, one a line
fde_offsets() {
	local pc
	for pc in $(readelf --debug-dump=frames "$1" | sed -n 's/.* FDE .*pc=\([0-9a-f]*\)\.\..*/\1/p'); do
		file_offset "$1" "$pc"
	done | sort -u
}

# leaves FILE COMM NAME: "OFFSET COUNT" of the user leaf frames [NAME+0xOFFSET]
# of COMM's stacks (the innermost frame not in the kernel), summed per frame
leaves() {
	awk -v comm="$2" -v name="$3" 'index($0, comm ";") == 1 {
		s = $0; sub(/ [0-9]+$/, "", s); n = split(s, f, ";")
		while (n > 1 && f[n] ~ /_\[k\]$/) n--
		if (index(f[n], "[" name "+0x") == 1) {
			o = substr(f[n], length(name) + 5); sub(/\]$/, "", o); c[o] += $NF
		}
	} END { for (o in c) print o, c[o] }' "$1" | sort
}

# count_of LEAVES OFFSET: the count of OFFSET in a leaves listing (0 if absent)
count_of() {
	awk -v o="$2" '$1 == o { c = $2 } END { print c + 0 }' <<<"$1"
}

@test "a stripped executable: one frame per function, named by its FDE's start as a file offset" {
	strip -o "$BIN/fp-three" "$WORKLOADS/fp-three"
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$BIN/fp-three" 3
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	[ "$(total "$OUT" 'leaf_')" -eq 0 ]
	local l all a b c fdes o
	l=$(leaves "$OUT" fp-three fp-three)
	echo "$l" >&2
	all=$(awk '{ s += $2 } END { print s + 0 }' <<<"$l")
	[ "$all" -gt 100 ]
	# every leaf frame is an FDE start (readelf), so there are at most as
	# many as functions that run: leaf_a/b/c, split, run_workload, main, _start
	fdes=$(fde_offsets "$BIN/fp-three")
	for o in $(awk '{ print $1 }' <<<"$l"); do
		grep -qx "$o" <<<"$fdes" || { echo "leaf $o is not an FDE start" >&2; return 1; }
	done
	[ "$(wc -l <<<"$l")" -le 7 ]
	# and the three hot ones are the leaves' symbols in the unstripped binary,
	# with their 50/30/20 split
	a=$(count_of "$l" "$(symbol_offset "$WORKLOADS/fp-three" leaf_a)")
	b=$(count_of "$l" "$(symbol_offset "$WORKLOADS/fp-three" leaf_b)")
	c=$(count_of "$l" "$(symbol_offset "$WORKLOADS/fp-three" leaf_c)")
	[ $(( (a + b + c) * 100 / all )) -ge 90 ]
	within $(( a * 100 / (a + b + c) )) 50 10
	within $(( b * 100 / (a + b + c) )) 30 10
	within $(( c * 100 / (a + b + c) )) 20 10
}

@test "a stripped library: its functions' frames are file offsets, not addresses" {
	# dlopen-late loads libchain15.so from its own directory: here lld's
	# build, whose text addresses are not its file offsets, stripped
	cp "$WORKLOADS/dlopen-late" "$BIN/"
	strip -o "$BIN/libchain15.so" "$WORKLOADS/libchain15-lld.so"
	local lib=$WORKLOADS/libchain15-lld.so leaf vaddr
	vaddr=$(nm "$lib" | awk '$3 == "chain_15" { sub(/^0+/, "", $1); print $1 }')
	leaf=$(symbol_offset "$lib" chain_15)
	[ "$leaf" != "$vaddr" ]
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$BIN/dlopen-late" 2.5 0.3
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	local l all
	l=$(leaves "$OUT" dlopen-late libchain15.so)
	echo "$l" >&2
	all=$(awk '{ s += $2 } END { print s + 0 }' <<<"$l")
	[ "$all" -gt 100 ]
	# chain_15 spins: one frame, at its file offset, its FDE's start
	fde_offsets "$BIN/libchain15.so" | grep -qx "$leaf"
	[ $(( $(count_of "$l" "$leaf") * 100 / all )) -ge 95 ]
}

@test "with --lines, and where no FDE holds an address, each instruction keeps its offset" {
	strip -o "$BIN/fp-three" "$WORKLOADS/fp-three"
	# the same code without .eh_frame: no FDE to name a function after
	objcopy --strip-all --remove-section=.eh_frame --remove-section=.eh_frame_hdr \
		"$WORKLOADS/fp-three" "$BIN/fp-three-noeh"
	local fdes o l n run_args
	fdes=$(fde_offsets "$BIN/fp-three")
	# the default: functions only (as the first test)
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$BIN/fp-three" 1.5
	[ "$status" -eq 0 ]
	l=$(leaves "$OUT" fp-three fp-three)
	for o in $(awk '{ print $1 }' <<<"$l"); do
		grep -qx "$o" <<<"$fdes"
	done
	# --lines (and the binary without .eh_frame): the loops' instructions,
	# several per leaf function, most not an FDE start
	for run_args in "--lines -- $BIN/fp-three" "-- $BIN/fp-three-noeh"; do
		# shellcheck disable=SC2086 # the words are the arguments
		run "$BPFPROF" record -F 999 -o "$OUT" $run_args 1.5
		[ "$status" -eq 0 ]
		local comm
		comm=$(basename "${run_args##* }")
		l=$(leaves "$OUT" "$comm" "$comm")
		echo "$run_args: $l" >&2
		n=0
		for o in $(awk '{ print $1 }' <<<"$l"); do
			grep -qx "$o" <<<"$fdes" || n=$((n + 1))
		done
		[ "$n" -ge 3 ]
	done
}
