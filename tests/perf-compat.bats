#!/usr/bin/env bats
# bpfprof beside perf, as root: what bpfprof asks of the kernel must not
# change the records another tool's events get (issue 14, item 11).

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	command -v perf >/dev/null || skip "perf is not installed"
	perf --version >/dev/null 2>&1 || skip "perf does not run here: $(perf --version 2>&1 | head -1)"
	PIDS=()
}

teardown() {
	stop_workloads
}

# perf record started first (its side-band events are then iterated after
# bpfprof's, which are added later), then bpfprof record -a; processes exec
# while both run. With bpfprof's side band asking for build-ids the kernel
# set PERF_RECORD_MISC_MMAP_BUILD_ID on perf's MMAP2 records too, and perf
# 6.1 aborted (stack smashing in its build-id code), as did perf report.
@test "perf record started before bpfprof record -a neither aborts nor writes records perf report aborts on" {
	local t=$BATS_TEST_TMPDIR
	perf record -a -g -o "$t/perf.data" -- sh -c \
		"touch '$t/ready'; while [ ! -e '$t/go' ]; do sleep 0.05; done
		 for i in \$(seq 30); do /bin/true; done" >"$t/perf.out" 2>&1 &
	local perf=$!
	wait_until test -e "$t/ready"
	"$BPFPROF" record -a -q -o "$t/out.folded" 2>"$t/bpfprof.err" &
	local bp=$!
	PIDS+=("$bp")
	sampling "$bp"
	touch "$t/go"
	local st=0
	wait "$perf" || st=$?
	kill -INT "$bp"
	wait "$bp"
	tail -n 3 "$t/perf.out"
	[ "$st" -eq 0 ]
	run -0 perf report -i "$t/perf.data" --stdio --sort comm
	[[ "$output" == *true* ]]
	[ -s "$t/out.folded" ]
}
