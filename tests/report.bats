#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# bpfprof report and diff: saved profiles read back. Round trips of real
# recordings (root: record and watch on real perf events, real workloads),
# a CPU profile written by Go's runtime/pprof, differential flame graphs of
# known workloads, and corrupt inputs (no root: report needs none).
# Recordings are made once, in setup_file; sampled stacks differ from one
# run to the next, so a comparison across runs is by the workloads' own
# shares with tolerances, and watch's breakpoint counts, exact by
# construction, are compared exactly.
# suite-lock: debugregs (its watch takes a debug register of every CPU its
# workload may run on: not beside a suite holding all four of one CPU's)

bats_require_minimum_version 1.5.0
load helpers

# fp-three for 1 s as folded (fp.folded) and as pprof (fp.pb.gz); fp-three
# beside burn for 1 s as folded (both.folded); watchme's 200 rounds of
# counter writes as folded and pprof (w.folded, w.pb.gz); bpfprof's stderr
# in NAME.err
setup_file() {
	[ "$(id -u)" -eq 0 ] || return 0
	local d=$BATS_FILE_TMPDIR f
	for f in fp.folded fp.pb.gz; do
		"$BPFPROF" record -F 499 -o "$d/$f" -- "$WORKLOADS/fp-three" 1 \
			2>"$d/$f.err" || echo "exit status $?" >>"$d/$f.err"
	done
	"$BPFPROF" record -F 499 -o "$d/both.folded" -- sh -c \
		"'$WORKLOADS/fp-three' 1 & '$WORKLOADS/burn' 1 1 >/dev/null; wait" \
		2>"$d/both.folded.err" || echo "exit status $?" >>"$d/both.folded.err"
	for f in w.folded w.pb.gz; do
		"$BPFPROF" watch -o "$d/$f" counter -- "$WORKLOADS/watchme" basic 200 \
			2>"$d/$f.err" || echo "exit status $?" >>"$d/$f.err"
	done
}

setup() {
	D=$BATS_TEST_TMPDIR
	R=$BATS_FILE_TMPDIR
}

# recorded NAME: the recording NAME of setup_file is there, else why not
recorded() {
	need_root
	[ -s "$R/$1" ] || { cat "$R/$1.err"; false; }
}

# from_main FILE: the folded FILE with the frames between the process and
# main left out (how far a stack is unwound above main varies from run to
# run), lines merged and sorted
from_main() {
	awk '{ n = $NF; $NF = ""; sub(/ $/, "");
	       k = split($0, f, ";"); s = f[1];
	       for (i = 2; i <= k && f[i] != "main"; i++) ;
	       for (; i <= k; i++) s = s ";" f[i];
	       c[s] += n }
	     END { for (s in c) print s, c[s] }' "$1" | sort
}

@test "record -> pprof -> report -> folded: record's folded lines, the same stacks and counts (watch's exact counts)" {
	recorded w.folded
	recorded w.pb.gz
	run --separate-stderr "$BPFPROF" report -o "$D/back.folded" "$R/w.pb.gz"
	[ "$status" -eq 0 ]
	echo "$stderr"
	grep -qE '^bpfprof report: [0-9]+ samples read \(pprof\), [0-9]+ unique stacks written \(folded\) to' <<<"$stderr"
	cat "$D/back.folded"
	well_formed "$D/back.folded"
	# the process first, the inlined call's kind: as record writes them
	[ "$(total "$D/back.folded" '^watchme;.*;main;basic_\[i\];bump_one [0-9]+$')" -eq 200 ]
	[ "$(total "$D/back.folded" '^watchme;.*;main;basic_\[i\];bump_three [0-9]+$')" -eq 600 ]
	diff <(from_main "$R/w.folded") <(from_main "$D/back.folded")
}

@test "record -> pprof -> report -> folded: fp-three's stacks and shares as record -> folded has them, kernel frames _[k]" {
	recorded fp.folded
	recorded fp.pb.gz
	"$BPFPROF" report -q -o "$D/back.folded" "$R/fp.pb.gz"
	well_formed "$D/back.folded"
	# every sample is in the folded file, as the summary counted them
	[ "$(total "$D/back.folded")" -eq "$(sed -nE 's/^bpfprof: ([0-9]+) samples kept, .*/\1/p' "$R/fp.pb.gz.err")" ]
	at_least "$(total "$D/back.folded")" 60
	local re='^fp-three;.*main;run_workload;split;leaf_'
	for f in "$R/fp.folded" "$D/back.folded"; do
		within "$(share "$f" "${re}a(;|\$| )" .)" 50 12
		within "$(share "$f" "${re}b(;|\$| )" .)" 30 12
		within "$(share "$f" "${re}c(;|\$| )" .)" 20 12
		grep -qE '^fp-three;[^ ]*_\[k\] [0-9]+$' "$f"
	done
	# -f top: leaf_a has the most self samples; a saved profile gives no CPU count
	"$BPFPROF" report -q -f top -o "$D/back.top" "$R/fp.pb.gz"
	cat "$D/back.top"
	[[ $(head -n 1 "$D/back.top") =~ ^#\ [0-9]+\ samples,\ 0\ lost,\ [0-9.]+\ s\;\ [0-9]+\ functions$ ]]
	[[ $(sed -n 3p "$D/back.top") == *"  leaf_a" ]]
}

@test "folded -> report -> folded is the identity; so is folded -> pprof -> report -> folded" {
	recorded fp.folded
	"$BPFPROF" report -q -o "$D/same.folded" "$R/fp.folded"
	cmp "$R/fp.folded" "$D/same.folded"
	"$BPFPROF" report -q -o "$D/fp.pb.gz" "$R/fp.folded"
	[ "$(head -c 2 "$D/fp.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ]
	"$BPFPROF" report -q -o "$D/again.folded" "$D/fp.pb.gz"
	cmp "$R/fp.folded" "$D/again.folded"
}

@test "folded stacks from outside: kinds, escapes and marks come back as they were" {
	printf '%s\n' 'a;b\\c;k1_[k];j1_[j] 3' 'proc;[truncated];f\x01g;h_[i] 2' 'x 1' >"$D/in.folded"
	sort "$D/in.folded" >"$D/want"
	"$BPFPROF" report -q -o "$D/out.folded" "$D/in.folded"
	diff "$D/want" "$D/out.folded"
	"$BPFPROF" report -q -o "$D/in.pb.gz" "$D/in.folded"
	"$BPFPROF" report -q -o "$D/back.folded" "$D/in.pb.gz"
	diff "$D/want" "$D/back.folded"
}

@test "a CPU profile written by Go's runtime/pprof: its stacks under main.spin, no process frame" {
	command -v go >/dev/null || skip "needs go (Debian's golang-go)"
	# no network, no module, caches of its own
	export HOME=$D/home GOCACHE=$D/gocache GOTOOLCHAIN=local GOFLAGS=-mod=mod GO111MODULE=off \
		GOPROXY=off
	mkdir -p "$HOME"
	cat >"$D/spin.go" <<'GO'
package main

import (
	"os"
	"runtime/pprof"
	"syscall"
	"time"
)

var sink uint64

// The process's CPU time: a profile's samples follow it, not the wall clock.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

//go:noinline
func spin(d time.Duration) {
	for end := cpu() + d; cpu() < end; {
		for i := 0; i < 100000; i++ {
			sink += uint64(i)
		}
	}
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	spin(500 * time.Millisecond)
	pprof.StopCPUProfile()
	f.Close()
}
GO
	go run "$D/spin.go" "$D/cpu.pprof"
	run --separate-stderr "$BPFPROF" report -o "$D/go.folded" "$D/cpu.pprof"
	echo "$stderr"
	[ "$status" -eq 0 ]
	cat "$D/go.folded"
	well_formed "$D/go.folded"
	# the first sample type, samples/count: a profiling signal every 10 ms of
	# CPU time, 0.5 s of it spent in main.spin
	at_least "$(total "$D/go.folded")" 12
	within "$(share "$D/go.folded" '^runtime\.main;main\.main;main\.spin(;| )' .)" 100 20
	# Go's samples name no process: every line starts with a Go function
	refute grep -qvE '^[A-Za-z0-9_/]+\.[^;]+(;| [0-9]+$)' "$D/go.folded"
	# --value picks another sample type: cpu/nanoseconds, 10 ms a sample
	"$BPFPROF" report -q --value=cpu -o "$D/ns.folded" "$D/cpu.pprof"
	[ "$(total "$D/ns.folded")" -eq $(( $(total "$D/go.folded") * 10000000 )) ]
	run --separate-stderr "$BPFPROF" report --value=bytes -o "$D/x.folded" "$D/cpu.pprof"
	[ "$status" -eq 64 ]
	[ "$stderr" = "bpfprof report: '$D/cpu.pprof': no sample type 'bytes' in the profile: expected samples, cpu" ]
	[ ! -e "$D/x.folded" ]
}

@test "a pprof naming a default_sample_type: its values unless --value names another" {
	# a profile as a heap profiler might write it: two sample types, the
	# second the default (go tool pprof -raw marks it [dflt])
	cat >"$D/mk.py" <<'PY'
import gzip, sys

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)

def num(field, n):
    return varint(field << 3) + varint(n)

def msg(field, data):
    return varint(field << 3 | 2) + varint(len(data)) + data

strs = ["", "alloc", "count", "inuse", "bytes", "main.grow", "grow.go", "main.main"]
ix = {s: i for i, s in enumerate(strs)}
p = msg(1, num(1, ix["alloc"]) + num(2, ix["count"]))
p += msg(1, num(1, ix["inuse"]) + num(2, ix["bytes"]))
# main.main -> main.grow: 3 allocations, 4096 bytes in use
p += msg(2, msg(1, varint(1) + varint(2)) + msg(2, varint(3) + varint(4096)))
p += msg(4, num(1, 1) + msg(4, num(1, 1) + num(2, 10)))
p += msg(4, num(1, 2) + msg(4, num(1, 2) + num(2, 20)))
p += msg(5, num(1, 1) + num(2, ix["main.grow"]) + num(3, ix["main.grow"]) + num(4, ix["grow.go"]))
p += msg(5, num(1, 2) + num(2, ix["main.main"]) + num(3, ix["main.main"]) + num(4, ix["grow.go"]))
for s in strs:
    p += msg(6, s.encode())
p += num(14, ix[sys.argv[2]]) if len(sys.argv) > 2 else b""
open(sys.argv[1], "wb").write(gzip.compress(p))
PY
	python3 "$D/mk.py" "$D/dflt.pb.gz" inuse
	"$BPFPROF" report -q -o "$D/dflt.folded" "$D/dflt.pb.gz"
	[ "$(cat "$D/dflt.folded")" = "main.main;main.grow 4096" ]
	"$BPFPROF" report -q --value=alloc -o "$D/alloc.folded" "$D/dflt.pb.gz"
	[ "$(cat "$D/alloc.folded")" = "main.main;main.grow 3" ]
	# without one, the first type, as before
	python3 "$D/mk.py" "$D/none.pb.gz"
	"$BPFPROF" report -q -o "$D/none.folded" "$D/none.pb.gz"
	[ "$(cat "$D/none.folded")" = "main.main;main.grow 3" ]
}

# fills SVG NAME: the fill colours of the frames named NAME in the flame graph SVG
fills() {
	grep -oE "<title>$2 \([^<]*</title><rect [^>]*fill=\"rgb\([0-9,]+\)\"" "$1" |
		sed -E 's/.*fill="rgb\(([0-9,]+)\)"/\1/'
}

# widest SVG NAME: the fill colour of the widest frame named NAME (other
# frames of that name sit on stacks unwound otherwise in one run than in the other)
widest() {
	grep -oE "<title>$2 \([0-9]+ samples[^<]*</title><rect [^>]*fill=\"rgb\([0-9,]+\)\"" "$1" |
		sed -E 's/^<title>[^(]*\(([0-9]+) samples.*fill="rgb\(([0-9,]+)\)"/\1 \2/' |
		sort -n | tail -1 | cut -d' ' -f2
}

# red R,G,B / blue R,G,B: a colour of a grown / shrunk frame (the grey of no
# change is 220,220,220; the larger the change, the deeper the colour)
red() { IFS=, read -r r g b <<<"$1"; [ "$r" -eq 255 ] && [ "$g" -le 220 ] && [ "$g" -eq "$b" ]; }
blue() { IFS=, read -r r g b <<<"$1"; [ "$b" -eq 255 ] && [ "$r" -le 220 ] && [ "$r" -eq "$g" ]; }
# deep R,G,B: a colour near the largest change's
deep() { IFS=, read -r r g b <<<"$1"; [ "$g" -lt 128 ]; }

@test "diff of a profile against itself: no red or blue frame; the folded diff's two counts are equal" {
	recorded fp.folded
	run --separate-stderr "$BPFPROF" diff -o "$D/same.svg" "$R/fp.folded" "$R/fp.folded"
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -q '<title>leaf_a (' "$D/same.svg"
	# every frame is grey (the root's, no change's): none red or blue
	[ "$(grep -oE '</title><rect [^>]*fill="rgb\([0-9,]+\)"' "$D/same.svg" |
		grep -cvE 'rgb\(([0-9]+),\1,\1\)')" -eq 0 ]
	[ "$(grep -c 'fill="rgb(220,220,220)"' "$D/same.svg")" -gt 5 ]
	"$BPFPROF" diff -q -f folded -o "$D/same.folded" "$R/fp.folded" "$R/fp.folded"
	awk '$(NF-1) != $NF { bad = 1 } END { exit bad }' "$D/same.folded"
	[ "$(wc -l <"$D/same.folded")" -eq "$(wc -l <"$R/fp.folded")" ]
}

@test "diff of a pprof with pid labels against its folded report: the processes line up as comm-PID" {
	need_root
	run "$BPFPROF" record --per-pid -F 499 -o "$D/pid.pb.gz" -- "$WORKLOADS/fp-three" 0.5
	[ "$status" -eq 0 ]
	"$BPFPROF" report -q -o "$D/pid.folded" "$D/pid.pb.gz"
	grep -qE '^fp-three-[0-9]+;' "$D/pid.folded"
	"$BPFPROF" diff -q -f folded -o "$D/pid.diff" "$D/pid.folded" "$D/pid.pb.gz"
	cat "$D/pid.diff"
	# each stack once, in both: the same count on each side
	awk '$(NF-1) != $NF { bad = 1 } END { exit bad }' "$D/pid.diff"
	[ "$(wc -l <"$D/pid.diff")" -eq "$(wc -l <"$D/pid.folded")" ]
	grep -qE '^fp-three-[0-9]+;' "$D/pid.diff"
}

@test "diff of fp-three alone against fp-three beside burn: burn's frames red, fp-three's leaves blue, tooltips with both counts" {
	recorded fp.folded
	recorded both.folded
	run --separate-stderr "$BPFPROF" diff -o "$D/d.svg" "$R/fp.folded" "$R/both.folded"
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -qE '^bpfprof diff: [0-9]+ base samples \(folded\), [0-9]+ new samples \(folded\), [0-9]+ unique stacks written \(svg\) to' <<<"$stderr"
	fills "$D/d.svg" burn_loop
	# burn is all new: every frame of it red, its widest among the largest changes
	[ -n "$(fills "$D/d.svg" burn_loop)" ]
	for c in $(fills "$D/d.svg" 'burn(_loop)?'); do red "$c"; done
	red "$(widest "$D/d.svg" burn_loop)"
	deep "$(widest "$D/d.svg" burn)"
	# fp-three's share went from all to about half: its leaves shrank
	blue "$(widest "$D/d.svg" leaf_a)"
	blue "$(widest "$D/d.svg" leaf_b)"
	# the tooltip: the new count and share, the base's, the change
	grep -qE '<title>burn_loop \([0-9]+ samples, [0-9.]+%; base 0 samples, 0\.00%; \+[0-9.]+%\)</title>' "$D/d.svg"
	grep -qE '<title>leaf_a \([0-9]+ samples, [0-9.]+%; base [0-9]+ samples, [0-9.]+%; -[0-9.]+%\)</title>' "$D/d.svg"
	# the folded diff: stack BASE NEW, NEW's counts and BASE's
	"$BPFPROF" diff -q -f folded -o "$D/d.folded" "$R/fp.folded" "$R/both.folded"
	[ "$(awk '{ s += $(NF-1) } END { print s }' "$D/d.folded")" -eq "$(total "$R/fp.folded")" ]
	[ "$(total "$D/d.folded")" -eq "$(total "$R/both.folded")" ]
	[ "$(awk '/burn_loop/ { s += $(NF-1) } END { print s + 0 }' "$D/d.folded")" -eq 0 ]
}

@test "diff writes svg or folded only" {
	printf 'a;b 1\n' >"$D/a.folded"
	run --separate-stderr "$BPFPROF" diff -f pprof -o "$D/x.pb.gz" "$D/a.folded" "$D/a.folded"
	[ "$status" -eq 64 ]
	grep -q "diff writes svg (a differential flame graph) or folded" <<<"$stderr"
	[ ! -e "$D/x.pb.gz" ]
	run --separate-stderr "$BPFPROF" diff "$D/a.folded"
	[ "$status" -eq 64 ]
	grep -q 'expected BASE and NEW' <<<"$stderr"
	# and its --help says so; report's lists every format
	"$BPFPROF" diff --help | grep -A1 -- '-f, --format' | grep -q 'Output format: svg (the default'
	"$BPFPROF" report --help | grep -A1 -- '-f, --format' | grep -q 'folded, pprof, svg, top or json'
}

# corrupt NAME WANT: report of NAME fails with exit 64, one line on stderr
# matching WANT, no output file
corrupt() {
	run --separate-stderr "$BPFPROF" report -o "$D/out.folded" "$D/$1"
	echo "$stderr"
	[ "$status" -eq 64 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	grep -qE "^bpfprof report: '$D/$1': $2" <<<"$stderr"
	[ ! -e "$D/out.folded" ]
}

@test "corrupt inputs to report: one line each, exit 64, no file, never a crash" {
	python3 - "$D" "$REPO" <<'PY'
import gzip, sys, os
sys.dont_write_bytecode = True  # (no __pycache__ in the tree)
sys.path.insert(0, sys.argv[2] + "/tests")
from protowire import v, ld, vi
d = sys.argv[1]
def prof(name_idx, extra=b""):
    return (ld(6, b"") + ld(6, b"samples") + ld(6, b"count") + ld(6, b"main") +
            ld(1, vi(1, 1) + vi(2, 2)) + ld(5, vi(1, 1) + vi(2, name_idx)) +
            ld(4, vi(1, 1) + ld(4, vi(1, 1))) + ld(2, ld(1, v(1)) + ld(2, v(5)) + extra))
out = {
    "good.pb.gz": gzip.compress(prof(3)),
    # a field of a sample that bpfprof has no use for (fuzz-report's first find)
    "unknown-field.pb": prof(3, vi(9, 1)),
    "truncated.pb.gz": gzip.compress(prof(3) * 50)[:60],
    "badvarint.pb.gz": gzip.compress(ld(6, b"") + b"\x10" + b"\xff" * 11),
    "badlength.pb": ld(6, b"") + v(2 << 3 | 2) + v(1000) + b"\x00",
    "badstring.pb.gz": gzip.compress(prof(99)),
    "empty": b"",
    "image.png": bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"),
}
for name, data in out.items():
    open(os.path.join(d, name), "wb").write(data)
PY
	"$BPFPROF" report -q -o - "$D/good.pb.gz" | grep -qx 'main 5'
	"$BPFPROF" report -q -o - "$D/unknown-field.pb" | grep -qx 'main 5'
	corrupt truncated.pb.gz 'truncated gzip data: its [0-9]+ bytes end before the stream does$'
	corrupt badvarint.pb.gz 'not a pprof profile: bad protobuf in a profile: a varint runs past the end or over 10 bytes$'
	corrupt badlength.pb 'not a pprof profile: bad protobuf in a profile: a length runs past the end of its message$'
	corrupt badstring.pb.gz 'string index 99 is out of range: the string table has 4 strings$'
	corrupt empty 'an empty file: expected a pprof profile or folded stacks$'
	corrupt image.png 'not a pprof profile: bad protobuf in a profile: '
	run --separate-stderr "$BPFPROF" report -o "$D/out.folded" "$D/missing.pb.gz"
	[ "$status" -eq 64 ]
	[ "$stderr" = "bpfprof report: cannot open '$D/missing.pb.gz': No such file or directory" ]
}

@test "a gzip bomb is refused before it is held (report, diff); a profile past the bound is read with --max-input" {
	command -v /usr/bin/time >/dev/null || skip "GNU time not installed (Debian time)"
	python3 - "$D" "$REPO" <<'PY'
import sys, zlib, os
sys.dont_write_bytecode = True  # (no __pycache__ in the tree)
sys.path.insert(0, sys.argv[2] + "/tests")
from protowire import v, ld, vi
d = sys.argv[1]
def gz(chunks):
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return b"".join([c.compress(x) for x in chunks] + [c.flush()])
# 256 MiB of zeros in about 250 KiB
open(os.path.join(d, "bomb.pb.gz"), "wb").write(gz([bytes(1 << 20)] * 256))
# a real profile of a million samples of main;hot, 9 MB in about 10 KiB
# (pprof lets a stack come in many samples; they add up)
head = (ld(6, b"") + ld(6, b"samples") + ld(6, b"count") + ld(6, b"main") + ld(6, b"hot") +
        ld(1, vi(1, 1) + vi(2, 2)) + ld(5, vi(1, 1) + vi(2, 3)) + ld(5, vi(1, 2) + vi(2, 4)) +
        ld(4, vi(1, 1) + ld(4, vi(1, 2))) + ld(4, vi(1, 2) + ld(4, vi(1, 1))))
sample = ld(2, ld(1, v(1) + v(2)) + ld(2, v(1)))
open(os.path.join(d, "big.pb.gz"), "wb").write(gz([head] + [sample * 100000] * 10))
PY
	local rss bomb big
	bomb=$(stat -c %s "$D/bomb.pb.gz")
	big=$(stat -c %s "$D/big.pb.gz")
	echo "bomb: $bomb bytes, big: $big bytes"
	for cmd in report diff; do
		local args=("$D/bomb.pb.gz")
		[ "$cmd" = report ] || args=("$D/big.pb.gz" "$D/bomb.pb.gz")
		run --separate-stderr /usr/bin/time -f 'maxrss %M' -o "$D/time" \
			"$BPFPROF" "$cmd" --max-input=16M -f folded -o "$D/out.folded" "${args[@]}"
		echo "$cmd: $stderr"
		[ "$status" -eq 64 ]
		[ "$stderr" = "bpfprof $cmd: '$D/bomb.pb.gz': gzip data inflates past 16.0 MiB, the bound --max-input sets: give it a larger SIZE to read more" ]
		[ ! -e "$D/out.folded" ]
		# without --max-input: 64 times its size
		run --separate-stderr /usr/bin/time -f 'maxrss %M' -o "$D/time" \
			"$BPFPROF" "$cmd" -f folded -o "$D/out.folded" "${args[@]}"
		echo "$cmd: $stderr"
		cat "$D/time"
		[ "$status" -eq 64 ]
		[[ "$stderr" =~ ^"bpfprof $cmd: '$D/bomb.pb.gz': gzip data inflates past "[0-9.]+" MiB, the bound for "[0-9]+" KiB of gzip (64 times it, at least 1 MiB, at most 256 MiB): raise it with --max-input=SIZE"$ ]]
		[ ! -e "$D/out.folded" ]
		# kilobytes: the bomb's 256 MiB were counted, never held
		rss=$(awk '/^maxrss/ { print $2 }' "$D/time")
		[ "$rss" -lt $((48 * 1024)) ]
	done
	# the million samples: past the default bound (about 1 MiB for 17 KiB), read with --max-input
	run --separate-stderr "$BPFPROF" report -o - "$D/big.pb.gz"
	[ "$status" -eq 64 ]
	[[ "$stderr" == *"'$D/big.pb.gz': gzip data inflates past "*" MiB, the bound for "*" KiB of gzip (64 times it, at least 1 MiB, at most 256 MiB): raise it with --max-input=SIZE" ]]
	run --separate-stderr "$BPFPROF" report --max-input=16M -o - "$D/big.pb.gz"
	[ "$status" -eq 0 ]
	[ "$output" = "main;hot 1000000" ]
	run --separate-stderr "$BPFPROF" diff --max-input=16M -f folded -o - "$D/big.pb.gz" "$D/big.pb.gz"
	[ "$status" -eq 0 ]
	[ "$output" = "main;hot 1000000 1000000" ]
	run "$BPFPROF" report --max-input=lots "$D/big.pb.gz"
	[ "$status" -eq 64 ]
	[ "$output" = "bpfprof report: invalid --max-input 'lots': expected a size from 64K to 16G, e.g. 1G" ]
}

@test "bad folded lines: the line's number, what was wrong, what was expected" {
	printf 'a;b 1\nc;;d 2\n' >"$D/empty-frame"
	corrupt empty-frame "line 2: frame 2 is empty: expected a name between ';'$"
	printf 'a;b 1\n\nc;d x\n' >"$D/bad-count"
	corrupt bad-count "line 3: count 'x' is not an integer from 0 to 2\\^63 - 1: expected 'FRAME;FRAME;... COUNT'$"
	printf 'a;b\n' >"$D/no-count"
	corrupt no-count "line 1: no count: expected 'FRAME;FRAME;... COUNT'$"
	printf 'a;b 1 2\n' >"$D/diff-file"
	corrupt diff-file "line 1: two counts: a differential file"
	printf 'a;b\001\033[31m 1x\n' >"$D/escaped"
	corrupt escaped "line 1: count '1x' is not an integer"
	# control bytes in a quoted name are escaped, never written raw
	printf 'a;b 1\nq 1\033[2J\n' >"$D/ctl"
	run --separate-stderr "$BPFPROF" report -o "$D/out.folded" "$D/ctl"
	[ "$status" -eq 64 ]
	grep -qF "count '1\\x1b[2J'" <<<"$stderr"
}

@test "report's usage errors: no FILE, two FILEs, an output it cannot write, svg options with another format" {
	printf 'a;b 1\n' >"$D/a.folded"
	run --separate-stderr "$BPFPROF" report
	[ "$status" -eq 64 ]
	[ "$stderr" = "bpfprof report: no profile given: expected a FILE, a pprof profile or folded stacks" ]
	run --separate-stderr "$BPFPROF" report "$D/a.folded" "$D/a.folded"
	[ "$status" -eq 64 ]
	[ "$stderr" = "bpfprof report: unexpected argument '$D/a.folded': expected one FILE only" ]
	run --separate-stderr "$BPFPROF" report -o "$D/no/such/dir/x.folded" "$D/a.folded"
	[ "$status" -eq 64 ]
	grep -q "^bpfprof report: cannot write '$D/no/such/dir/x.folded': " <<<"$stderr"
	run --separate-stderr "$BPFPROF" report --title=T -o "$D/x.folded" "$D/a.folded"
	[ "$status" -eq 64 ]
	[ "$stderr" = "bpfprof report: --title is an option of the svg format, not of folded: add -f svg or -o FILE.svg" ]
	# without -o: the format's default file in the working directory
	cd "$D"
	"$BPFPROF" report -q -f svg "$D/a.folded"
	grep -q '<title>b (1 samples, 100.00%)</title>' "$D/bpfprof.svg"
}
