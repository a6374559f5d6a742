#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# record --interval: one complete profile file per interval, as root, on
# real perf events and a real workload (spinner). The files' samples add
# up exactly to the summary's samples kept (the sets are switched at each
# interval's end: no sample lost or counted twice across the switch); how
# many files a run of 1.6 s in intervals of 0.5 s gives depends only on
# when the last one ends (3 or 4, 5 on a slow start). Each file is a whole
# profile: folded lines well-formed, go tool pprof reads a .pb.gz without
# a warning, a JSON file has its interval's own duration and counters.
# The usage errors need no root.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_binary
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	stop_workloads
}

# kept: the samples the summary line in $output counted
kept() {
	grep -oE '[0-9]+ samples kept' <<<"$output" | grep -oE '^[0-9]+'
}

# files PREFIX SUFFIX: how many PREFIX0SUFFIX, PREFIX1SUFFIX... exist, in
# sequence from 0, and nothing else of that pattern
files() {
	local n=0
	while [ -e "$1$n$2" ]; do
		n=$((n + 1))
	done
	[ "$(compgen -G "$1*$2" | wc -l)" -eq "$n" ] || { echo "files out of sequence" >&2; return 1; }
	echo "$n"
}

@test "--interval=0.5 for 1.6 s: 3 to 5 folded files numbered from 0, whose samples add up to the summary's exactly" {
	need_root
	run "$BPFPROF" record --interval=0.5 -F 199 -o 'prof-%n.folded' -- "$WORKLOADS/spinner" 1.6
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" =~ samples\ kept,\ 0\ lost,\ [0-9]\ profiles\ of\ 0.5\ s ]]
	[[ "$output" == *"profiles written to 'prof-%n.folded'"* ]]
	n=$(files prof- .folded)
	at_least "$n" 3
	[ "$n" -le 5 ]
	[[ "$output" == *" $n profiles of 0.5 s"* ]]
	sum=0
	for ((i = 0; i < n; i++)); do
		well_formed "prof-$i.folded" || [ ! -s "prof-$i.folded" ]
		sum=$((sum + $(total "prof-$i.folded")))
	done
	[ "$sum" -eq "$(kept)" ]
	# spinner's loop, even on a machine that leaves it a tenth of a CPU:
	# in the first two intervals, which are whole, and in most samples
	at_least "$sum" 10
	for i in 0 1; do
		at_least "$(total "prof-$i.folded" 'other_busy_loop')" 1
	done
	loop=0
	for ((i = 0; i < n; i++)); do
		loop=$((loop + $(total "prof-$i.folded" 'other_busy_loop')))
	done
	at_least $((loop * 100 / sum)) 80
}

@test "--interval with JSON: each file has its interval's duration and counters, which add up to the run's" {
	need_root
	start spinner 30
	run "$BPFPROF" record --interval=0.5 -d 1.2 -F 199 -p "${PIDS[0]}" -o 'p-%t-%n.json'
	echo "$output"
	[ "$status" -eq 0 ]
	n=$(compgen -G 'p-*.json' | wc -l)
	at_least "$n" 2
	for f in p-*.json; do
		[[ $f =~ ^p-20[0-9]{6}T[0-9]{6}-[0-9]+\.json$ ]]
	done
	read -r samples counted durations < <(python3 -c '
import glob, json, sys
s = c = 0
d = []
for f in sorted(glob.glob("p-*.json"), key=lambda f: int(f.split("-")[-1][:-5])):
    j = json.load(open(f))
    s += j["samples"]
    c += j["counters"]["kept"]
    d.append(j["duration_s"])
print(s, c, ",".join(map(str, d)))')
	[ "$samples" -eq "$(kept)" ]
	[ "$counted" -eq "$(kept)" ]
	# each whole interval 0.5 s, the last the rest of 1.2 s
	python3 -c "
d = [$durations]
assert all(0.3 < x < 0.75 for x in d[:-1]), d
assert 0 <= d[-1] < 0.75, d
assert abs(sum(d) - 1.2) < 0.2, d"
}

@test "--interval with pprof: go tool pprof reads every file without a warning; their samples add up to the summary's" {
	need_root
	command -v go >/dev/null || skip "needs go (Debian's golang-go: go tool pprof)"
	export HOME=$BATS_TEST_TMPDIR/home GOCACHE=$BATS_TEST_TMPDIR/gocache GOTOOLCHAIN=local
	export GOPROXY=off GOFLAGS= PPROF_TMPDIR=$BATS_TEST_TMPDIR
	mkdir -p "$HOME"
	start spinner 30
	run "$BPFPROF" record --interval=0.5 -d 1.2 -F 199 -p "${PIDS[0]}" -o 'prof-%n.pb.gz'
	echo "$output"
	[ "$status" -eq 0 ]
	n=$(files prof- .pb.gz)
	at_least "$n" 2
	sum=0
	for ((i = 0; i < n; i++)); do
		go tool pprof -raw "prof-$i.pb.gz" >raw 2>err
		[ ! -s err ] || { cat err; false; }
		sum=$((sum + $(awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
			s && $0 ~ /^ +[0-9]+( +[0-9]+)?: / { sub(/:.*/, ""); t += $1 }
			END { print t + 0 }' raw)))
	done
	[ "$sum" -eq "$(kept)" ]
}

@test "--interval: -o without %n or %t, -o -, no -o, a bad field, %t alone under a second and a bad SECONDS are usage errors naming the value" {
	run -64 "$BPFPROF" record --interval=0.5 -o prof.folded -d 1
	[[ "$output" == *"invalid --output 'prof.folded' with --interval: every interval would overwrite the same file"* ]]
	run -64 "$BPFPROF" record --interval=0.5 -o - -d 1
	[[ "$output" == *"invalid --output '-' with --interval"* ]]
	run -64 "$BPFPROF" record --interval=0.5 -d 1
	[[ "$output" == *"--interval writes a file per interval: expected -o"* ]]
	run -64 "$BPFPROF" record --interval=1 -o 'prof-%q.folded' -d 1
	[[ "$output" == *"invalid --output 'prof-%q.folded' with --interval: '%q' is not a field"* ]]
	run -64 "$BPFPROF" record --interval=0.5 -o 'prof-%t.folded' -d 1
	[[ "$output" == *"%t names files by the second"* ]]
	run -64 "$BPFPROF" record --interval=0 -o 'prof-%n.folded' -d 1
	[[ "$output" == *"invalid --interval '0': expected seconds from 0.1 to 86400"* ]]
	run -64 "$BPFPROF" record --interval=soon -o 'prof-%n.folded' -d 1
	[[ "$output" == *"invalid --interval 'soon'"* ]]
	[ -z "$(compgen -G 'prof*')" ]
}

@test "--interval: a directory that cannot be written fails before sampling, with nothing written" {
	need_root
	run -64 "$BPFPROF" record --interval=0.5 -o 'nodir/prof-%n.folded' -d 1
	[[ "$output" == *"cannot write 'nodir/prof-0.folded'"* ]]
	[[ "$output" != *"samples kept"* ]]
	[ -z "$(ls -A)" ]
}
