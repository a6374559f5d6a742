#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# One DWARF file, however many binaries use it (issue 13, memory of long
# runs): binaries are one per file and mount namespace, so a process in a
# private mount namespace (a systemd service, a container) maps "another"
# libc; its DWARF is still the same file and is indexed once
# (src/symbolize/srccache.c), while a container's own copy of a debug file
# (another inode) is its own. As root, real BPF on real perf events;
# `--stats` says how many DWARF files were indexed and reused.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
	OUT=$BATS_TEST_TMPDIR/out.folded
	ERR=$BATS_TEST_TMPDIR/err
	SRC=$REPO/tests/workloads/inline-chain.c
	CALL_OUTER=$(grep -n '/\* CALL_OUTER \*/' "$SRC" | cut -d: -f1)
	CALL_INNER=$(grep -n '/\* CALL_INNER \*/' "$SRC" | cut -d: -f1)
}

teardown() {
	stop_workloads
}

# dwarf_stats: "INDEXED REUSED" from the --stats line of $ERR
dwarf_stats() {
	sed -nE 's/^bpfprof: stats: DWARF: ([0-9]+) files indexed, ([0-9]+) times reused .*/\1 \2/p' "$ERR"
}

# libc_dwarf PID: 1 when the libc PID maps has DWARF (its own, or an
# installed debug file: libc6-dbg), else 0; either way one file for all
libc_dwarf() {
	local libc id dbg
	libc=$(awk '$6 ~ /\/libc[.-][^\/]*so/ { print $6; exit }' "/proc/$1/maps")
	[ -n "$libc" ] || { echo 0; return; }
	id=$(readelf -n "$libc" | awk '/Build ID/ { print $3 }')
	dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	if readelf -SW "$libc" 2>/dev/null | grep -qF .debug_info ||
		{ [ -n "$id" ] && readelf -SW "$dbg" 2>/dev/null | grep -qF .debug_info; }; then
		echo 1
	else
		echo 0
	fi
}

@test "a binary run in two mount namespaces has its DWARF indexed once, and both are named with inlines and lines" {
	start inline-chain 30
	local host=${PIDS[-1]}
	# unshare execs the workload: the process in the new namespace is $!
	unshare -m --propagation private "$WORKLOADS/inline-chain" 30 &
	PIDS+=($!)
	local other
	other=$(exec_of "$!" inline-chain)
	# the premise: two mount namespaces, so two binaries of each file
	[ "$(readlink "/proc/$host/ns/mnt")" != "$(readlink "/proc/$other/ns/mnt")" ]
	local libc
	libc=$(libc_dwarf "$host")
	"$BPFPROF" record -p "$host,$other" --per-pid --lines --stats -F 999 -d 1.5 \
		-o "$OUT" 2>"$ERR"
	well_formed "$OUT"
	# inline-chain's own DWARF (and libc's debug file when installed): each
	# indexed once, and reused once for the other namespace's binary
	[ "$(dwarf_stats)" = "$((1 + libc)) $((1 + libc))" ]
	local chain="hot_caller inline-chain\\.c:$CALL_OUTER;outer_step inline-chain\\.c:${CALL_INNER}_\\[i\\];"
	chain+="inner_mix inline-chain\\.c:[0-9]+_\\[i\\]( |;)"
	local pid
	for pid in "$host" "$other"; do
		[ "$(total "$OUT" "^inline-chain-$pid;")" -gt 100 ]
		[ "$(share "$OUT" ";main inline-chain\\.c:[0-9]+;run_workload inline-chain\\.c:[0-9]+;$chain" \
			"^inline-chain-$pid;")" -ge 85 ]
	done
}

@test "a container's own copy of a debug file is indexed on its own, not shared with the host's" {
	local dir=$BATS_TEST_TMPDIR/dbg id
	objcopy --only-keep-debug "$WORKLOADS/fp-three" "$BATS_TEST_TMPDIR/fp-three.debug"
	objcopy --strip-all "$WORKLOADS/fp-three" "$BATS_TEST_TMPDIR/stripped"
	id=$(readelf -n "$WORKLOADS/fp-three" | awk '/Build ID/ { print $3 }')
	# the host's debug file under --debug-dir; the container's, a byte-for-byte
	# copy (another inode), under its own /usr/lib/debug, which the host cannot see
	mkdir -p "$dir/.build-id/${id:0:2}"
	cp "$BATS_TEST_TMPDIR/fp-three.debug" "$dir/.build-id/${id:0:2}/${id:2}.debug"
	"$BATS_TEST_TMPDIR/stripped" 30 &
	PIDS+=($!)
	local host
	host=$(exec_of "$!" stripped)
	unshare -m --propagation private sh -c "
		mount -t tmpfs none /usr/lib/debug &&
		mkdir -p /usr/lib/debug/.build-id/${id:0:2} &&
		cp '$BATS_TEST_TMPDIR/fp-three.debug' /usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug &&
		exec '$BATS_TEST_TMPDIR/stripped' 30" &
	PIDS+=($!)
	local other
	other=$(exec_of "$!" stripped)
	[ ! -e "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]
	local libc
	libc=$(libc_dwarf "$host")
	"$BPFPROF" record -p "$host,$other" --per-pid --lines --stats -F 999 -d 1.5 \
		--debug-dir "$dir" -o "$OUT" 2>"$ERR"
	well_formed "$OUT"
	# the two copies: two files indexed, neither reused for the other's
	# binary; libc's debug file (the host's, for both) once, reused once
	[ "$(dwarf_stats)" = "$((2 + libc)) $libc" ]
	local pid
	for pid in "$host" "$other"; do
		[ "$(total "$OUT" "^stripped-$pid;")" -gt 100 ]
		[ "$(share "$OUT" ';main fp-three\.c:[0-9]+;run_workload fp-three\.c:[0-9]+;split fp-three\.c:[0-9]+;leaf_[abc] fp-three\.c:[0-9]+( |;)' \
			"^stripped-$pid;")" -ge 85 ]
	done
}
