#!/usr/bin/env bats
# bpfprof's life and its command's (issue 27, items 5 and 6): a stop signal
# at any point of the start is read, never lost, and ends the run at once
# (the profile written whole, or no file when the signal's default action
# came first); the unwind tables' first build is cut short by one; the
# command dies with a SIGKILLed bpfprof at any point, one that ignores
# SIGTERM too. bats runs background jobs with SIGINT ignored, as a script
# without job control does: the case of the issue.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	D=$BATS_TEST_TMPDIR
	PIDS=()
	# a token no other process on the machine has in its command line
	TOKEN=$((3000000 + RANDOM * 32 + BATS_TEST_NUMBER))
	# libsigearly.so is not the first library: ASan must not mind
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
}

teardown() {
	stop_workloads
	pkill -KILL -f "sleep $TOKEN" 2>/dev/null || true
}

# the command line of a command no other process has: "sleep $TOKEN"
mine() {
	pgrep -f "sleep $TOKEN" >/dev/null
}

# frozen PID: process PID is stopped (SIGSTOP) or gone
frozen() {
	local st
	st=$(sed -n 's/^State:\t\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null) || return 0
	[ -z "$st" ] || [ "$st" = T ] || [ "$st" = Z ]
}

# stage PID: where the stopped process PID is: "fork" before its exec (the
# shell's copy, which blocks SIGINT and SIGTERM around its fork), "pre"
# before bpfprof blocked the stop signals (the dynamic loader), "sampling"
# once its run's -d timer exists, else "start"; "gone" when it exited
stage() {
	local blk
	blk=$(sed -n 's/^SigBlk:\t//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$blk" ] || { echo gone; return; }
	if [ "$(readlink "/proc/$1/exe")" != "$(readlink -f "$BPFPROF")" ]; then
		echo fork
	elif (((0x$blk & 0x4002) != 0x4002)); then
		echo pre
	elif ls -l "/proc/$1/fd" 2>/dev/null | grep -q timerfd; then
		echo sampling
	else
		echo start
	fi
}

# ignores_int PID: process PID has SIGINT ignored (a background job of bats)
ignores_int() {
	local ign
	ign=$(sed -n 's/^SigIgn:\t//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$ign" ] && (((0x$ign & 2) != 0))
}

# ends PID SECONDS: process PID (a child of this shell) exits within
# SECONDS; its status in STATUS. Else it is killed and the test fails.
ends() {
	local i
	for i in $(seq $(($2 * 20))); do
		[ "$(sed -n 's/^State:\t\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)" = Z ] && break
		[ -e "/proc/$1" ] || break
		sleep 0.05
	done
	if [ -e "/proc/$1" ] && [ "$(sed -n 's/^State:\t\(.\).*/\1/p' "/proc/$1/status")" != Z ]; then
		kill -KILL "$1"
		wait "$1" || true
		echo "bpfprof $1 still ran $2 s after the signal" >&2
		return 1
	fi
	STATUS=0
	wait "$1" || STATUS=$?
}

# none_left: no process of the test's command (its held copy of bpfprof, or
# the sleep), waiting up to 5 s for the kernel to end them
none_left() {
	local i
	for i in $(seq 50); do
		mine || return 0
		sleep 0.1
	done
	echo "left behind:" >&2
	pgrep -af "sleep $TOKEN" >&2
	return 1
}

# signal_at_points MODE...: bpfprof record MODE... (-d 3600 -o FILE added)
# started again and again, each time stopped (SIGSTOP) at another point of
# its start, looked at, sent a stop signal and continued: first while its
# libraries initialise (libsigearly.so), then 0 to 700 ms after it was
# started. It ends within 15 s, with the profile whole when it had blocked
# the signal, and none when the signal's default action came first.
signal_at_points() {
	local sigs=(INT TERM HUP) n=0 d pid sig st out
	local cmd=1 # with a command: 0 when it never ran, else 128 + the signal
	[ "$1" != -a ] || cmd=0
	for d in early 0 0 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.4 0.7; do
		out=$D/out-$n.folded
		sig=${sigs[n % 3]}
		n=$((n + 1))
		if [ "$d" = early ]; then
			sig=INT # ignored by the job: lost unless already blocked
			SIGEARLY=2 LD_PRELOAD=$WORKLOADS/libsigearly.so \
				"$BPFPROF" record -q -d 3600 -o "$out" "$@" 2>"$D/err" &
			pid=$!
			st=early
		else
			"$BPFPROF" record -q -d 3600 -o "$out" "$@" 2>"$D/err" &
			pid=$!
			sleep "$d"
			kill -STOP "$pid"
			wait_until frozen "$pid"
			st=$(stage "$pid")
			# SIGINT not blocked yet and ignored: the kernel would drop it;
			# before the exec the shell may ignore it any time; not SIGTERM
			[ "$st" != fork ] || sig=TERM
			[ "$st" != pre ] || ! ignores_int "$pid" || [ "$sig" != INT ] || sig=TERM
			kill -"$sig" "$pid"
			kill -CONT "$pid"
		fi
		ends "$pid" 15
		echo "# point $d: $sig at stage $st, exit $STATUS" >&3
		if [ "$st" = fork ] || [ "$st" = pre ]; then
			[ "$STATUS" -eq $((128 + $(kill -l "$sig"))) ]
			[ ! -e "$out" ]
		else
			cat "$D/err"
			[ "$STATUS" -eq 0 ] || { ((cmd)) && [ "$STATUS" -eq $((128 + $(kill -l "$sig"))) ]; }
			[ -f "$out" ]
			well_formed "$out"
		fi
		none_left
	done
}

@test "record -a: a stop signal at any point of the start, SIGINT of a background job too, ends the run" {
	signal_at_points -a
}

@test "record -- COMMAND: a stop signal at any point of the start ends the run and leaves no command" {
	signal_at_points -- sleep "$TOKEN"
}

@test "a stop signal cuts the unwind tables' first build short" {
	local pid X Y
	# an empty cache: every table is built, seconds of work for the system
	export XDG_CACHE_HOME=$D/cache
	"$BPFPROF" record -q -a -d 3600 -o "$D/out.folded" 2>"$D/err" &
	pid=$!
	# the first table is in the cache: the build is under way
	wait_until compgen -G "$XDG_CACHE_HOME/bpfprof/unwind/*.unwind" >/dev/null
	kill -TERM "$pid"
	ends "$pid" 15
	[ "$STATUS" -eq 0 ]
	well_formed "$D/out.folded"
	# a whole run over the same cache: most of its tables were never built
	run "$BPFPROF" record -a -d 0.1 --stats -o "$D/out2.folded"
	[ "$status" -eq 0 ]
	[[ "$output" =~ tables:\ ([0-9]+)\ loaded\ \(([0-9]+)\ from\ the\ cache\) ]]
	X=${BASH_REMATCH[1]} Y=${BASH_REMATCH[2]}
	echo "# tables: $X loaded, $Y of them built before the signal" >&3
	[ "$X" -ge 10 ]
	[ $((Y * 2)) -lt "$X" ]
}

@test "the command dies with a SIGKILLed bpfprof at any point of its start, one ignoring SIGTERM too" {
	local d pid
	for d in 0 0.001 0.005 0.01 0.02 0.05 0.1 0.2 0.4 running; do
		"$BPFPROF" record -q -o "$D/out.folded" -- \
			sh -c "trap '' TERM; exec sleep $TOKEN" 2>/dev/null &
		pid=$!
		if [ "$d" = running ]; then
			# the command runs: sleep, not bpfprof's held copy or sh
			wait_until pgrep -f "^sleep $TOKEN\$" >/dev/null
		else
			sleep "$d"
		fi
		kill -KILL "$pid"
		wait "$pid" || true
		echo "# point $d" >&3
		none_left
		[ ! -e "$D/out.folded" ]
	done
}
