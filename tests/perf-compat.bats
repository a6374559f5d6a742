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
# Other bpfprof processes than ours running between now and the file
# DIR/stop: their pids, one a line, in DIR/others. An older bpfprof (another
# worktree's build, on a shared machine) asks for build-ids, and makes perf
# abort whatever ours does: the test cannot tell then.
watch_others() {
	local dir=$1 ours=$2
	while [ ! -e "$dir/stop" ]; do
		pgrep -x bpfprof | grep -vx "$ours" >>"$dir/others" || true
		pgrep -x bpfprof-new | grep -vx "$ours" >>"$dir/others" || true
		sleep 0.05
	done
}

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
	: >"$t/others"
	watch_others "$t" "$bp" &
	PIDS+=("$!")
	touch "$t/go"
	local st=0
	wait "$perf" || st=$?
	touch "$t/stop"
	kill -INT "$bp"
	wait "$bp"
	tail -n 3 "$t/perf.out"
	if [ "$st" -ne 0 ] && [ -s "$t/others" ]; then
		skip "another bpfprof ran meanwhile (pid $(head -n 1 "$t/others")): an older one asks for build-ids too"
	fi
	[ "$st" -eq 0 ]
	run -0 perf report -i "$t/perf.data" --stdio --sort comm
	[[ "$output" == *true* ]]
	[ -s "$t/out.folded" ]
}
