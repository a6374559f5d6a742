#!/usr/bin/env bats
# Several events in one run (record -e A -e B, issue 17), as root on real
# events: tests/workloads/multievent spins in compute() and faults fresh
# pages in fault_pages() (or stores to a global in writer()), so each
# event's stacks are where the workload puts them. Each event is counted
# apart in the kernel (its index is the BPF link's attach cookie): folded
# lines start with the event, pprof has a value per event, -f top a column
# per event, json an events table, and the summary a line per event.
# suite-lock: debugregs (the mem: event takes a debug register of every CPU)

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	cd "$BATS_TEST_TMPDIR"
	PIDS=()
}

teardown() {
	# perf's command (the test's perf stat), then what the test started
	[ -z "${PERF-}" ] || kill $(cat "/proc/$PERF/task/$PERF/children" 2>/dev/null) 2>/dev/null || true
	stop_workloads
}

# event_line EVENT: the summary line of EVENT in $stderr
event_line() {
	grep -F "bpfprof: $1: " <<<"$stderr"
}

# event_kept EVENT: the samples the summary kept for EVENT
event_kept() {
	event_line "$1" | grep -oE '[0-9]+ samples kept' | grep -oE '^[0-9]+'
}

# event_lost EVENT: the samples the summary lost for EVENT
event_lost() {
	event_line "$1" | grep -oE '[0-9]+ lost' | grep -oE '^[0-9]+'
}

# record_faults ARG...: cpu-clock and page-faults (every 4th fault) of
# multievent's faults mode, 2 s, the summary in $stderr
record_faults() {
	run --separate-stderr "$BPFPROF" record -e cpu-clock -e page-faults/period=4/ "$@" \
		-- "$WORKLOADS/multievent" 2 faults
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 0 ]
}

@test "cpu-clock and page-faults together: each line starts with its event, faults in fault_pages, time in compute, the summary's counts per event" {
	record_faults -o out.folded
	well_formed out.folded
	# every line starts with one of the two events, then the process
	refute grep -vE '^(cpu-clock|page-faults/period=4/);multievent;' out.folded
	cpu=$(total out.folded '^cpu-clock;')
	faults=$(total out.folded '^page-faults/period=4/;')
	at_least "$cpu" 30
	at_least "$faults" 200
	# page faults happen in fault_pages (after the start-up's); CPU time
	# mostly in compute: 80% by the thread's clock, but with 17,000 fault
	# samples a second beside it cpu-clock finds fault_pages in 15-35% of
	# its samples on a quiet machine, 57% once beside the ASan suites; so
	# "most", and far from the faults' own share (swapped events give ~0)
	at_least "$(share out.folded '^page-faults[^ ]*;run;fault_pages' '^page-faults')" 80
	at_least "$(share out.folded '^cpu-clock;[^ ]*;run;compute' '^cpu-clock;')" 30
	[ "$(share out.folded '^page-faults[^ ]*;run;compute' '^page-faults')" -le 5 ]
	# the summary: a line per event, its kept samples those of the folded file
	[ "$(event_lost cpu-clock)" -eq 0 ]
	[ "$(event_lost page-faults/period=4/)" -eq 0 ]
	[ "$(event_kept cpu-clock)" -eq "$cpu" ]
	[ "$(event_kept page-faults/period=4/)" -eq "$faults" ]
	# a clock event's rate in Hz on the busiest CPU, a counting event's a second
	event_line cpu-clock | grep -qE 'effective rate [0-9.]+ Hz on the busiest CPU$'
	event_line page-faults/period=4/ | grep -qE 'effective rate [0-9.]+ samples per second$'
	# the run's line counts both, its rate is left to the events' lines
	grep -qE "^bpfprof: $((cpu + faults)) samples kept, 0 lost, [0-9]+ unique stacks, [0-9.]+ s; profile written to" <<<"$stderr"
}

@test "cpu-clock and page-faults as pprof: a sample type per event, go tool pprof reads it without a warning, each event's total the summary's" {
	command -v go >/dev/null || skip "needs go (Debian's golang-go: go tool pprof)"
	export HOME=$BATS_TEST_TMPDIR/home GOCACHE=$BATS_TEST_TMPDIR/gocache GOTOOLCHAIN=local
	export GOPROXY=off GOFLAGS= PPROF_TMPDIR=$BATS_TEST_TMPDIR
	mkdir -p "$HOME"
	record_faults -e page-faults/period=4,name=faults/ -o out.pb.gz
	# (the same event twice, told apart by name=: both counted)
	go tool pprof -raw out.pb.gz >raw 2>err
	[ ! -s err ] || { cat err; false; }
	grep -qx 'cpu-clock/count\[dflt\] page-faults/period=4//count faults/count cpu-clock/nanoseconds/nanoseconds' raw
	for ev in cpu-clock page-faults/period=4/ faults; do
		go tool pprof -top -sample_index="$ev" out.pb.gz >top 2>err
		[ ! -s err ] || { cat err; false; }
		kept=$(event_kept "$ev")
		at_least "$kept" 1
		grep -qE "Total samples = $kept *\$" top
	done
	# fault_pages holds most faults (cum%: its stacks, whatever their leaf)
	go tool pprof -top -sample_index=faults out.pb.gz 2>/dev/null | tee top
	awk '$6 == "fault_pages" { sub(/%/, "", $5); ok = $5 + 0 >= 80 } END { exit !ok }' top
	# report reads the first value, or the one named by --value
	"$BPFPROF" report -o first.folded out.pb.gz
	[ "$(total first.folded)" -eq "$(event_kept cpu-clock)" ]
	"$BPFPROF" report --value faults -o faults.folded out.pb.gz
	[ "$(total faults.folded)" -eq "$(event_kept faults)" ]
}

@test "a clock event beside another as pprof: EVENT/nanoseconds is its count times the period, go tool pprof selects it by name, the first count is the default" {
	command -v go >/dev/null || skip "needs go (Debian's golang-go: go tool pprof)"
	export HOME=$BATS_TEST_TMPDIR/home GOCACHE=$BATS_TEST_TMPDIR/gocache GOTOOLCHAIN=local
	export GOPROXY=off GOFLAGS= PPROF_TMPDIR=$BATS_TEST_TMPDIR
	mkdir -p "$HOME"
	# -F 199: a period of 1e9 / 199 ns (as the kernel is asked for it)
	record_faults -F 199 -o out.pb.gz
	period=$((1000000000 / 199))
	kept=$(event_kept cpu-clock)
	at_least "$kept" 30
	go tool pprof -raw out.pb.gz >raw 2>err
	[ ! -s err ] || { cat err; false; }
	# the counts first (their indexes as before), then the clock event's time
	grep -qx 'cpu-clock/count\[dflt\] page-faults/period=4//count cpu-clock/nanoseconds/nanoseconds' raw
	# each sample's nanoseconds are its cpu-clock count times the period
	awk -v p="$period" '/^ *[0-9]+ +[0-9]+ +[0-9]+: / { n++; if ($3 != $1 * p) bad++; c += $1; ns += $3 }
		END { print n, c, ns; exit !(n > 0 && !bad) }' raw | tee sums
	[ "$(cut -d' ' -f2 sums)" -eq "$kept" ]
	[ "$(cut -d' ' -f3 sums)" -eq $((kept * period)) ]
	# -sample_index= takes the name; the total in CPU time, no warning
	go tool pprof -top -unit=ns -sample_index=cpu-clock/nanoseconds out.pb.gz >top 2>err
	[ ! -s err ] || { cat err; false; }
	cat top
	grep -qx 'Type: cpu-clock/nanoseconds' top
	grep -qE "Total samples = $((kept * period))ns " top
	# compute holds much of that time (80% of the workload's CPU time; see
	# the first test for why not all of it)
	awk '$6 == "compute" { sub(/%/, "", $5); ok = $5 + 0 >= 30 } END { exit !ok }' top
	# without -sample_index: the first event's count (pprof's default is the last type)
	go tool pprof -top out.pb.gz 2>/dev/null | grep -qx 'Type: cpu-clock'
	# report reads the nanoseconds back by the same name
	"$BPFPROF" report --value cpu-clock/nanoseconds -o ns.folded out.pb.gz
	[ "$(total ns.folded)" -eq $((kept * period)) ]
	"$BPFPROF" report --value page-faults/period=4/ -o faults.folded out.pb.gz
	[ "$(total faults.folded)" -eq "$(event_kept page-faults/period=4/)" ]
}

@test "mem:ADDR:w beside cpu-clock: every store to the global counted in writer, cpu-clock's stacks beside" {
	addr=0x$(nm "$WORKLOADS/multievent" | awk '$3 == "counter" { print $1 }')
	[ "$addr" != 0x ]
	run --separate-stderr "$BPFPROF" record -e cpu-clock -e "mem:$addr:w" -o out.folded \
		-- "$WORKLOADS/multievent" 1 writes
	echo "status $status, stdout: $output, stderr: $stderr"
	[ "$status" -eq 0 ]
	writes=$(awk '/^writes / { print $2 }' <<<"$output")
	at_least "$writes" 20
	mem=$(awk -F';' 'NR == 1 { print $1 }' <(grep '^mem:' out.folded))
	[[ $mem == mem:* ]]
	# a breakpoint's period is 1: every store is one sample, each in writer
	[ "$(total out.folded "^$mem;")" -eq "$writes" ]
	# (a stack walked before the unwinder's table was in may start with [fp])
	[ "$(total out.folded "^$mem;multievent;.*run;writer [0-9]+\$")" -eq "$writes" ]
	[ "$(event_kept "$mem")" -eq "$writes" ]
	at_least "$(total out.folded '^cpu-clock;multievent;')" 20
	[ "$(event_kept cpu-clock)" -eq "$(total out.folded '^cpu-clock;')" ]
}

@test "-f top of two events: each event's samples in the header, a self column per event, sorted by the first" {
	record_faults -e page-faults/period=4,name=faults/ -f top -o out.top
	cat out.top
	# the header gives each event's samples, the columns name the other events
	sed -n 1p out.top | grep -qE "^# [0-9]+ cpu-clock samples, [0-9]+ page-faults/period=4/ samples, [0-9]+ faults samples, 0 lost"
	sed -n 2p out.top | grep -qE '^# +self +self% +total +total% +page-faults/period=4/ +self% +faults +self% +function$'
	# sorted by cpu-clock's self: compute first
	[ "$(sed -n 3p out.top | awk '{ print $NF }')" = compute ]
	# fault_pages: no cpu-clock of its own to speak of, most of both fault columns
	awk '$NF == "fault_pages" { sub(/%/, "", $6); sub(/%/, "", $8); ok = $6 + 0 >= 80 && $8 + 0 >= 80 }
		END { exit !ok }' out.top
}

@test "json of two events: the events table with the summary's counts, each stack's event" {
	record_faults -o out.json
	python3 - "$(event_kept cpu-clock)" "$(event_kept page-faults/period=4/)" <<'EOF'
import json, sys
d = json.load(open("out.json"))
ev = d["events"]
assert [e["name"] for e in ev] == ["cpu-clock", "page-faults/period=4/"], ev
assert ev[0]["period_ns"] and ev[1]["period_ns"] is None, ev
for i, want in enumerate(sys.argv[1:]):
    got = sum(s["count"] for s in d["stacks"] if s["event"] == i)
    assert ev[i]["kept"] == int(want) == ev[i]["samples"] == got, (i, ev[i], want, got)
    assert ev[i]["lost"] == 0 and ev[i]["seen"] >= ev[i]["kept"], ev[i]
assert d["event"] == "cpu-clock,page-faults/period=4/", d["event"]
EOF
}

@test "svg of two events: each event a frame under the root" {
	record_faults -o out.svg
	grep -qE '<title>cpu-clock \([0-9]+ samples' out.svg
	grep -qE '<title>page-faults/period=4/ \([0-9]+ samples' out.svg
}

# in_own_rate A B: record cpu-clock and page-faults of multievent's faults
# mode with kernel.perf_event_max_sample_rate read as A when sampling
# starts and B from the command's start on: a file bind-mounted over the
# sysctl in a mount namespace of bpfprof's own (the kernel's value, which
# every other bpfprof reads, is never written), which the command rewrites
in_own_rate() {
	echo "$1" >rate
	run --separate-stderr unshare -m --propagation private sh -c '
		mount --bind "$PWD/rate" /proc/sys/kernel/perf_event_max_sample_rate &&
		exec "$1" record -e cpu-clock -e page-faults/period=4/ -o out.folded \
			-- sh -c "echo $2 >\"$PWD/rate\" && exec \"$3/multievent\" 1 faults"' \
		- "$BPFPROF" "$2" "$WORKLOADS"
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 0 ]
}

@test "the sysctl lowered while sampling (as the kernel throttles) is a warning naming both rates; unchanged or raised, none" {
	need_root
	command -v unshare >/dev/null || skip "needs unshare (util-linux)"
	# a PMU-less VM never throttles (only a PMU's interrupt measures its
	# samples), so the sysctl is read through a file the command lowers
	in_own_rate 100000 25000
	[ "${stderr_lines[0]}" = "bpfprof: warning: the kernel throttled sampling: perf_event_max_sample_rate lowered from 100000 to 25000 (samples took too long)" ]
	# the profile and the summary's lines per event as without it
	at_least "$(total out.folded '^cpu-clock;')" 10
	[ "$(event_kept cpu-clock)" -eq "$(total out.folded '^cpu-clock;')" ]
	in_own_rate 100000 100000
	refute grep -q throttled <<<"$stderr"
	event_line cpu-clock
	in_own_rate 50000 100000
	refute grep -q throttled <<<"$stderr"
}

@test "live top warns of the sysctl lowered while sampling as record does" {
	need_root
	command -v unshare >/dev/null || skip "needs unshare (util-linux)"
	echo 100000 >rate
	run --separate-stderr unshare -m --propagation private sh -c '
		mount --bind "$PWD/rate" /proc/sys/kernel/perf_event_max_sample_rate &&
		exec "$1" top --delay 0.5 -o tables.txt \
			-- sh -c "echo 25000 >\"$PWD/rate\" && exec \"$2/spinner\" 1"' \
		- "$BPFPROF" "$WORKLOADS"
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "bpfprof top: warning: the kernel throttled sampling: perf_event_max_sample_rate lowered from 100000 to 25000 (samples took too long)" ]
	[[ ${stderr_lines[1]} == "bpfprof top: "*" refresh"*" of 0.5 s"* ]]
	at_least "$(grep -c '^bpfprof top:' tables.txt)" 1
}

@test "the same event twice is a usage error naming it; range samples one event" {
	run --separate-stderr "$BPFPROF" record -e cpu-clock -e page-faults,cpu-clock -o out.folded -d 1
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 64 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"event 'cpu-clock' is given twice: expected each event once, or a name= term"* ]]
	[ ! -e out.folded ]
	run --separate-stderr "$BPFPROF" range -e cpu-clock -e page-faults -d 1 libc.so.6:memset
	[ "$status" -eq 64 ]
	[[ $stderr == *"range samples one event: 'page-faults' is a second -e event"* ]]
}

@test "more events than the open file limit leaves room for: a usage error before sampling, saying how many descriptors" {
	events=()
	for i in $(seq 40); do
		events+=(-e "cpu-clock/name=clock$i/")
	done
	# ulimit -n sets the hard limit too: bpfprof cannot raise it; one CPU:
	# the first event's descriptor and two (event, link) for each other one
	run --separate-stderr bash -c 'ulimit -n 300 && exec "$@"' - "$BPFPROF" record \
		"${events[@]}" -C 0 -d 1 -o out.folded
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 64 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"40 events on 1 CPU take 79 file descriptors, more than the 44 that the limit of 300 (ulimit -n) leaves once 256 are kept for the rest"* ]]
	[ ! -e out.folded ]
	# as many events as fit are sampled, each apart
	run --separate-stderr bash -c 'ulimit -n 1024 && exec "$@"' - "$BPFPROF" record \
		"${events[@]}" -C 0 -o out.folded -- taskset -c 0 "$WORKLOADS/spinner" 0.5
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 0 ]
	[ "$(cut -d';' -f1 out.folded | sort -u | wc -l)" -eq 40 ]
}

# perf_fds PID: PID holds 4 perf events or more
perf_fds() {
	[ "$(find "/proc/$1/fd" -lname 'anon_inode:*perf_event*' 2>/dev/null | wc -l)" -ge 4 ]
}

@test "an event that cannot be opened on some CPUs is sampled on the others, with a warning naming them" {
	command -v perf >/dev/null || skip "needs perf (to hold CPU 1's debug registers)"
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	addr=0x$(nm "$WORKLOADS/multievent" | awk '$3 == "counter" { print $1 }')
	# perf holds all four debug registers of CPU 1 (system-wide breakpoints there)
	perf stat -a -C 1 -e mem:0x1000:w,mem:0x2000:w,mem:0x3000:w,mem:0x4000:w \
		-- sleep 60 >/dev/null 2>&1 &
	PERF=$!
	PIDS+=("$PERF")
	wait_until perf_fds "$PERF"
	run --separate-stderr "$BPFPROF" record -e cpu-clock -e "mem:$addr:w" -o out.folded \
		-- taskset -c 0 "$WORKLOADS/multievent" 1 writes
	echo "status $status, stdout: $output, stderr: $stderr"
	[ "$status" -eq 0 ]
	[[ ${stderr_lines[0]} == "bpfprof: warning: event 'mem:"*":w' cannot be opened on CPU 1 (No space left on device): not sampled there" ]]
	# CPU 0 counted every store of the workload kept there
	writes=$(awk '/^writes / { print $2 }' <<<"$output")
	at_least "$writes" 20
	[ "$(total out.folded '^mem:[^;]*;multievent;.*;writer ')" -eq "$writes" ]
}

@test "--interval with two events as json: each file's events counters are its interval's, adding up to the summary's per event" {
	run --separate-stderr "$BPFPROF" record -e cpu-clock -e page-faults/period=4/ \
		--interval=0.5 -o 'iv-%n.json' -- "$WORKLOADS/multievent" 1.6 faults
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 0 ]
	python3 - "$(event_kept cpu-clock)" "$(event_kept page-faults/period=4/)" <<'PY'
import glob, json, sys
files = sorted(glob.glob("iv-*.json"))
assert len(files) >= 3, files
kept, samples = [0, 0], [0, 0]
for f in files:
    d = json.load(open(f))
    for i, e in enumerate(d["events"]):
        stacks = sum(s["count"] for s in d["stacks"] if s["event"] == i)
        assert e["samples"] == stacks and e["lost"] == 0, (f, i, e, stacks)
        kept[i] += e["kept"]
        samples[i] += e["samples"]
        # the first two intervals are whole: faults counted in each
        if f in ("iv-0.json", "iv-1.json") and i == 1:
            assert e["kept"] > 0 and e["seen"] >= e["kept"], (f, e)
# each file's counters are its interval's (a sample counted as the set is
# switched has its stack in the next file), not the run's so far: they add up
want = [int(a) for a in sys.argv[1:]]
assert kept == want and samples == want, (kept, samples, want)
assert all(k > 0 for k in kept), kept
PY
}

@test "cycles and a cache event together, where the machine has a hardware PMU" {
	# this needs a PMU that samples: on a VM without one every hardware
	# and cache event is "not supported: no hardware PMU" (bpfprof list)
	"$BPFPROF" list --available cycles >/dev/null 2>&1 ||
		skip "no hardware PMU samples cycles here ($("$BPFPROF" list cycles 2>&1 | head -n 1 | tr -s ' '))"
	local cache="" e
	for e in L1-dcache-load-misses LLC-load-misses cache-misses; do
		if "$BPFPROF" list --available "$e" >/dev/null 2>&1; then
			cache=$e
			break
		fi
	done
	[ -n "$cache" ] || skip "the PMU samples cycles but none of the cache events tried"
	run --separate-stderr "$BPFPROF" record -e cycles -e "$cache" -o out.folded \
		-- "$WORKLOADS/multievent" 2 faults
	echo "status $status, stderr: $stderr"
	[ "$status" -eq 0 ]
	well_formed out.folded
	refute grep -vE "^(cycles|$cache);multievent;" out.folded
	# cycles go where the CPU time goes: 80% compute
	at_least "$(total out.folded '^cycles;')" 100
	at_least "$(share out.folded '^cycles;[^ ]*;run;compute' '^cycles;')" 60
	at_least "$(total out.folded "^$cache;")" 1
	[ "$(event_kept cycles)" -eq "$(total out.folded '^cycles;')" ]
	[ "$(event_kept "$cache")" -eq "$(total out.folded "^$cache;")" ]
}
