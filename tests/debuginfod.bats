#!/usr/bin/env bats
# debuginfod, as root on real profiles: a stripped binary with no debuglink
# and no installed debug file gets its names from a real debuginfod server
# (Debian's debuginfod package) serving its debug file on loopback; a server
# without it, or none at all, leaves offsets and does not hang the run.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	SERVERS=()
	need_root
	command -v debuginfod >/dev/null || skip "no debuginfod server (install debuginfod)"
	command -v debuginfod-find >/dev/null || skip "no debuginfod-find (install debuginfod)"
	OUT=$BATS_TEST_TMPDIR/out.folded
}

# server_stop PID: SIGTERM to its process group, SIGKILL if it is still
# there after 10 s, then reaped (debuginfod takes up to a second to stop).
server_stop() {
	local pid=$1 i

	kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# Every server and bpfprof this test started and did not stop, even when it failed.
teardown() {
	local pid

	for pid in "${SERVERS[@]}"; do
		server_stop "$pid"
	done
	[ -z "${BP:-}" ] || kill -KILL "$BP" 2>/dev/null || true
	[ -z "${WL:-}" ] || { kill -KILL "$WL"; wait "$WL"; } 2>/dev/null || true
}

# stall_start LOG: a server on a free port that accepts connections and
# never answers (a debuginfod stuck behind a dead proxy), in its own process
# group; it writes a line "conn" to LOG for each connection. Sets PORT.
stall_start() {
	local log=$1 pid

	PORT=$((10000 + RANDOM % 22000))
	setsid python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(16)
print("listening", flush=True)
held = []
while True:
    c, _ = s.accept()
    held.append(c)
    print("conn", flush=True)
' "$PORT" >"$log" 2>&1 </dev/null &
	pid=$!
	SERVERS+=("$pid")
	wait_until grep -q listening "$log"
}

# exited PID: process PID is gone
exited() {
	! kill -0 "$1" 2>/dev/null
}

# stopped_promptly SIG LOG: once the stalling server logged a connection,
# SIG to bpfprof $BP ends it within 20 s, with status 0 (the command had
# ended the run) or 128 + SIG (the signal did). The query may be one made
# while sampling: the signal then ends sampling, and the query is made
# again while the profile is finished; SIG once more, as a user would press
# Ctrl-C again, ends that one.
stopped_promptly() {
	local start n

	wait_until grep -q conn "$2"
	n=$(grep -c conn "$2")
	start=$SECONDS
	kill "-$1" "$BP"
	wait_until new_conn_or_exit "$2" "$n"
	if ! exited "$BP"; then
		kill "-$1" "$BP"
		wait_until exited "$BP"
	fi
	[ $((SECONDS - start)) -lt 20 ]
	local st=0
	wait "$BP" || st=$?
	[ "$st" -eq 0 ] || [ "$st" -eq $((128 + $(kill -l "$1"))) ] ||
		{ echo "bpfprof exited $st" >&2; return 1; }
	BP=
}

# new_conn_or_exit LOG N: the server logged more than N connections, or $BP is gone
new_conn_or_exit() {
	exited "$BP" || [ "$(grep -c conn "$1")" -gt "$2" ]
}

# strip_without_debuglink BINDIR DEBUGDIR: BINDIR/fp-three stripped of every
# symbol and with no .gnu_debuglink; its debug file DEBUGDIR/fp-three.debug
strip_without_debuglink() {
	mkdir -p "$1" "$2"
	objcopy --only-keep-debug "$WORKLOADS/fp-three" "$2/fp-three.debug"
	objcopy --strip-all "$WORKLOADS/fp-three" "$1/fp-three"
	[ "$(readelf -S "$1/fp-three" | grep -c -e ' .symtab' -e gnu_debuglink)" -eq 0 ]
}

# offsets_only FILE: fp-three's own frames are unnamed: no leaf_a, and
# [fp-three+0x...] offsets in >= 90% of its samples (shares, not counts: the
# machine may be busy and give the workload half a CPU)
offsets_only() {
	[ "$(total "$1" 'leaf_a')" -eq 0 ]
	[ "$(total "$1" '^fp-three;')" -ge 100 ]
	[ "$(share "$1" '\[fp-three\+0x' '^fp-three;')" -ge 90 ]
}

# build_id FILE: its build-id in hex
build_id() {
	readelf -n "$1" | awk '/Build ID/ { print $3; exit }'
}

# server_start DIR: a debuginfod scanning DIR (-F), listening on a free port,
# in its own process group; sets PORT and SERVER_LOG, adds the pid to SERVERS.
# A port taken between the check and the bind makes debuginfod exit: try another.
server_start() {
	local dir=$1 try i pid

	for ((try = 0; try < 10; try++)); do
		PORT=$((10000 + RANDOM % 22000)) # below the ephemeral range
		[ -z "$(ss -Htln "sport = :$PORT")" ] || continue
		SERVER_LOG=$BATS_TEST_TMPDIR/debuginfod-$PORT.log
		# -t 0 -g 0: one scan at startup, no rescans or grooming later
		setsid debuginfod -v -F -p "$PORT" -d "$BATS_TEST_TMPDIR/debuginfod-$PORT.sqlite" \
			-t 0 -g 0 -c 1 "$dir" >"$SERVER_LOG" 2>&1 </dev/null 3>&- &
		pid=$!
		SERVERS+=("$pid")
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			if ss -Htlnp "sport = :$PORT" | grep -q "pid=$pid,"; then
				return 0
			fi
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "debuginfod (pid $pid) not listening on port $PORT after 10 s:" >&2
			tail -n 20 "$SERVER_LOG" >&2
			return 1
		fi
		wait "$pid" 2>/dev/null || true
		unset 'SERVERS[-1]' # it exited: its pid may be reused
	done
	echo "could not start debuginfod on a free port in $try tries; last log:" >&2
	tail -n 20 "$SERVER_LOG" >&2
	return 1
}

# server_wait_for ID: until the server on PORT serves the debug file of
# build-id ID (it scans its directory in the background after starting).
# A fresh client cache each try: the client caches a miss for 10 minutes.
server_wait_for() {
	local id=$1 i cache=$BATS_TEST_TMPDIR/poll-cache

	for ((i = 0; i < 300; i++)); do
		rm -rf "$cache"
		if DEBUGINFOD_URLS=http://127.0.0.1:$PORT DEBUGINFOD_CACHE_PATH=$cache \
			DEBUGINFOD_TIMEOUT=5 debuginfod-find debuginfo "$id" >/dev/null 2>&1; then
			rm -rf "$cache"
			return 0
		fi
		sleep 0.1
	done
	echo "debuginfod on port $PORT did not serve build-id $id within 30 s; its log:" >&2
	tail -n 20 "$SERVER_LOG" >&2
	return 1
}

@test "a stripped binary without debuglink gets its names from a debuginfod server" {
	local bin=$BATS_TEST_TMPDIR/bin srv=$BATS_TEST_TMPDIR/srv id asked
	strip_without_debuglink "$bin" "$srv"
	id=$(build_id "$bin/fp-three")
	[ -n "$id" ]
	server_start "$srv"
	server_wait_for "$id"
	# (it logs a request before it answers it)
	grep -q "GET /buildid/$id/debuginfo 200" "$SERVER_LOG"
	asked=$(grep -c "GET /buildid/$id/" "$SERVER_LOG")
	# without DEBUGINFOD_URLS: no names, only offsets
	run env -u DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH="$BATS_TEST_TMPDIR/cache" \
		"$BPFPROF" record -F 999 -o "$OUT" -- "$bin/fp-three" 1
	[ "$status" -eq 0 ]
	offsets_only "$OUT"
	# (the server was not asked: only the polls' requests are in its log)
	[ "$(grep -c "GET /buildid/$id/" "$SERVER_LOG")" -eq "$asked" ]
	# with it: the whole chain by name, fetched into the client cache; and
	# libdebuginfod's progress and verbose output, asked for, are not printed
	run env DEBUGINFOD_URLS="http://127.0.0.1:$PORT" \
		DEBUGINFOD_CACHE_PATH="$BATS_TEST_TMPDIR/cache" \
		DEBUGINFOD_PROGRESS=1 DEBUGINFOD_VERBOSE=1 \
		"$BPFPROF" record -F 999 -o "$OUT" -- "$bin/fp-three" 1
	[ "$status" -eq 0 ]
	refute grep -qiE 'debuginfod|download|http' <<<"$output"
	[ "$(share "$OUT" 'main;run_workload;split;leaf_[abc][; ]' '^fp-three;')" -ge 90 ]
	# (a rare sample may land where even the debug file has no symbol: a PLT stub)
	[ "$(share "$OUT" '\[fp-three\+0x' '^fp-three;')" -le 2 ]
	[ -s "$BATS_TEST_TMPDIR/cache/$id/debuginfo" ]
}

@test "a debuginfod server without the debug file, or none, leaves offsets and no hang" {
	local bin=$BATS_TEST_TMPDIR/bin empty=$BATS_TEST_TMPDIR/empty id start
	strip_without_debuglink "$bin" "$BATS_TEST_TMPDIR/elsewhere"
	id=$(build_id "$bin/fp-three")
	mkdir -p "$empty"
	server_start "$empty"
	start=$SECONDS
	run env DEBUGINFOD_URLS="http://127.0.0.1:$PORT" DEBUGINFOD_TIMEOUT=5 \
		DEBUGINFOD_CACHE_PATH="$BATS_TEST_TMPDIR/cache" \
		"$BPFPROF" record -F 999 -o "$OUT" -- "$bin/fp-three" 1
	[ "$status" -eq 0 ]
	[ $((SECONDS - start)) -lt 15 ]
	offsets_only "$OUT"
	# the server was asked, and said no
	grep -q "GET /buildid/$id/debuginfo 404" "$SERVER_LOG"
	# a server that is not there at all (its port closed): the same
	server_stop "${SERVERS[0]}"
	SERVERS=()
	start=$SECONDS
	run env DEBUGINFOD_URLS="http://127.0.0.1:$PORT" DEBUGINFOD_TIMEOUT=5 \
		DEBUGINFOD_CACHE_PATH="$BATS_TEST_TMPDIR/cache2" \
		"$BPFPROF" record -F 999 -o "$OUT" -- "$bin/fp-three" 1
	[ "$status" -eq 0 ]
	[ $((SECONDS - start)) -lt 15 ]
	offsets_only "$OUT"
}

@test "a stop request while naming frames ends the run at once, with every sample" {
	local bin=$BATS_TEST_TMPDIR/bin log=$BATS_TEST_TMPDIR/stall.log err=$BATS_TEST_TMPDIR/err
	local asked
	strip_without_debuglink "$bin" "$BATS_TEST_TMPDIR/elsewhere"
	stall_start "$log"
	# the command ends sampling; naming its frames then waits on a server
	# that never answers (libdebuginfod would wait DEBUGINFOD_TIMEOUT)
	DEBUGINFOD_URLS="http://127.0.0.1:$PORT" DEBUGINFOD_TIMEOUT=600 \
		DEBUGINFOD_CACHE_PATH="$BATS_TEST_TMPDIR/cache" \
		"$BPFPROF" record -F 999 -o "$OUT" -- "$bin/fp-three" 1 2>"$err" &
	BP=$!
	# Ctrl-C while it waits: the profile is written with what is named
	stopped_promptly INT "$log"
	offsets_only "$OUT"
	grep -q 'samples kept, 0 lost' "$err"
	grep -q 'stopped by a signal while naming frames: .* not read' "$err"
	# a query cut short is not remembered as a miss: the next run asks again
	asked=$(grep -c conn "$log")
	run env DEBUGINFOD_URLS="http://127.0.0.1:$PORT" DEBUGINFOD_TIMEOUT=1 \
		DEBUGINFOD_RETRY_LIMIT=0 DEBUGINFOD_CACHE_PATH="$BATS_TEST_TMPDIR/cache" \
		"$BPFPROF" record -F 999 -o "$OUT" -- "$bin/fp-three" 1
	[ "$status" -eq 0 ]
	[ "$(grep -c conn "$log")" -gt "$asked" ]
}

@test "system-wide: a stop request while naming frames writes the profile at once" {
	local bin=$BATS_TEST_TMPDIR/bin log=$BATS_TEST_TMPDIR/stall.log err=$BATS_TEST_TMPDIR/err
	strip_without_debuglink "$bin" "$BATS_TEST_TMPDIR/elsewhere"
	stall_start "$log"
	"$bin/fp-three" 30 &
	WL=$!
	exec_of "$WL" fp-three
	# -d ends sampling; then naming waits on the server
	DEBUGINFOD_URLS="http://127.0.0.1:$PORT" DEBUGINFOD_TIMEOUT=600 \
		DEBUGINFOD_CACHE_PATH="$BATS_TEST_TMPDIR/cache" \
		"$BPFPROF" record -a -d 1 -F 499 -o "$OUT" 2>"$err" &
	BP=$!
	stopped_promptly TERM "$log"
	[ "$(total "$OUT" '^fp-three;')" -ge 50 ]
	[ "$(total "$OUT" 'leaf_a')" -eq 0 ]
	grep -q 'stopped by a signal while naming frames' "$err"
}
