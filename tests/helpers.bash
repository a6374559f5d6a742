# Shared by the bats suites: where the binary and workloads are, root checks,
# and arithmetic over folded files.
#
# The suites pass on any x86-64 CPU and on a loaded machine because:
# - a share asserted with a tolerance is the workload's own ground truth: it
#   splits its time by its thread's CPU clock (cpu_now() in
#   tests/workloads/workload.h), or prints the split it ran, never by
#   iteration counts whose cost differs from one CPU to another;
# - a floor on a sample count only makes sure there are enough samples for
#   the shares (a quarter or less of what an idle CPU gives), so it holds
#   when the workload shares its CPU with another;
# - a test looks only at what it started: its own pids (--per-pid), the BPF
#   objects its bpfprof held, files in $BATS_TEST_TMPDIR; never at every
#   process of a name or every bpfprof program on the machine.
REPO=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
BPFPROF=${BPFPROF:-$REPO/build/src/bpfprof}
WORKLOADS=${WORKLOADS:-$REPO/build/tests/workloads}
# relative paths are taken from the current directory, else from the repository
[[ $BPFPROF == /* ]] || { [ -x "$BPFPROF" ] && BPFPROF=$PWD/$BPFPROF || BPFPROF=$REPO/$BPFPROF; }
[[ $WORKLOADS == /* ]] || { [ -d "$WORKLOADS" ] && WORKLOADS=$PWD/$WORKLOADS || WORKLOADS=$REPO/$WORKLOADS; }
# no debuginfod server unless a test starts one (Debian's libdebuginfod-common
# may set DEBUGINFOD_URLS in login shells): the suites never go to the network
unset DEBUGINFOD_URLS

need_binary() {
	[ -x "$BPFPROF" ] || {
		echo "no bpfprof binary at $BPFPROF (build it, or set BPFPROF)" >&2
		return 1
	}
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (CAP_BPF, CAP_PERFMON)"
}

# stage_for_nobody FILE...: copies of FILE... in $NOBODY (set here,
# $BATS_TEST_TMPDIR/nobody, 0755) for a test that runs them as user nobody
# (65534): the build tree may be in a directory other users cannot enter (a
# clone in /root or a mktemp -d), and bats makes its run directory 0700, so
# the directories from it down get o+x (search, not listing). Fails when
# nobody still cannot reach them (a $TMPDIR of root's own): the test skips.
stage_for_nobody() {
	local d=$BATS_TEST_TMPDIR
	NOBODY=$BATS_TEST_TMPDIR/nobody
	mkdir -p "$NOBODY"
	cp "$@" "$NOBODY/"
	chmod 755 "$NOBODY"
	while [[ -n $BATS_RUN_TMPDIR && $d == "$BATS_RUN_TMPDIR"* ]]; do
		chmod o+x "$d"
		d=${d%/*}
	done
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$NOBODY/${1##*/}"
}

# total FILE [REGEX]: sum of the counts of the lines matching REGEX (all lines without one)
total() {
	awk -v re="${2:-.}" '$0 ~ re { s += $NF } END { print s + 0 }' "$1"
}

# share FILE REGEX BASE_REGEX: percentage (integer) of BASE's samples matching REGEX
share() {
	local part base
	part=$(total "$1" "$2")
	base=$(total "$1" "$3")
	[ "$base" -gt 0 ] || { echo 0; return; }
	echo $(( part * 100 / base ))
}

# at_least VALUE MIN: VALUE >= MIN, saying so when not
at_least() {
	[ "$1" -ge "$2" ] || { echo "got $1, want >= $2" >&2; return 1; }
}

# within VALUE WANT TOLERANCE
within() {
	local d=$(( $1 - $2 ))
	[ "${d#-}" -le "$3" ] || { echo "got $1, want $2 +- $3" >&2; return 1; }
}

# every line of a folded file is "frames COUNT" with an integer count
well_formed() {
	awk 'NF < 2 || $NF !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' "$1"
}

# refute CMD...: fail when CMD succeeds. (A bare `! cmd` never fails a bats
# test except as its last command: bash's errexit ignores negated commands.)
refute() {
	if "$@"; then
		echo "unexpectedly succeeded: $*" >&2
		return 1
	fi
}

# wait_until CMD...: run CMD every 0.1 s until it succeeds, for 30 s at
# most; its status. A condition, never a sleep that guesses how long
# something takes on this machine.
wait_until() {
	local i
	for i in $(seq 300); do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}

# in_event_loop PID: the bpfprof process PID samples: its main thread is
# blocked in its event loop's poll(2), which it enters right after it
# enables the events and which always has 3 fds or more (its start-up
# waits poll one)
in_event_loop() {
	local nr nfds
	read -r nr _ nfds _ <"/proc/$1/syscall" && [ "$nr" = 7 ] && ((nfds >= 3))
}

# sampling PID: wait until the bpfprof process PID samples
sampling() {
	wait_until in_event_loop "$1" || { echo "bpfprof $1 did not start sampling in 30 s" >&2; return 1; }
}

# Background workloads of a test: start WORKLOAD ARG... runs one from
# $WORKLOADS, adds its pid to PIDS and returns once it has exec'd;
# stop_workloads (in teardown) kills what is left.
PIDS=()
start() {
	"$WORKLOADS/$1" "${@:2}" &
	PIDS+=($!)
	exec_of "$!" "$1" >/dev/null
}

# runs PID COMM: process PID runs COMM (its comm, at most 15 characters)
runs() {
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]
}

# exec_of PID NAME: PID once it runs NAME, waiting up to 30 s: a process the
# test started itself has exec'd, not any process of that name on the machine
exec_of() {
	wait_until runs "$1" "${2:0:15}" || { echo "process $1 never ran $2" >&2; return 1; }
	echo "$1"
}

stop_workloads() {
	[ "${#PIDS[@]}" -eq 0 ] || kill "${PIDS[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
}

# range_loops_lines: SRC, HOT and COLD for tests/workloads/range-loops.c,
# its source and the lines of its hot and cold loops.
range_loops_lines() {
	SRC=$REPO/tests/workloads/range-loops.c
	HOT=$(grep -n '/\* HOT \*/' "$SRC" | cut -d: -f1)
	COLD=$(grep -n '/\* COLD \*/' "$SRC" | cut -d: -f1)
}

# libc's start frames, root first (glibc 2.36 with libc6-dbg:
# __libc_start_main@@GLIBC_2.34 or __libc_start_main_impl)
START='_start;__libc_start_main[^;]*;__libc_start_call_main'
