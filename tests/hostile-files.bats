#!/usr/bin/env bats
# Files another user controls, read by bpfprof as root: a debug file that
# never ends or is a FIFO, a mapped file's path swapped for a FIFO, a
# container's symlinks to host files, an xz bomb in .gnu_debugdata. Each
# run must end promptly (also on SIGINT) with its profile written, read
# nothing outside the container's root, and stay small.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	T=$BATS_TEST_TMPDIR
	OUT=$T/out.folded
}

teardown() {
	stop_workloads
	[ -z "${PROF:-}" ] || kill -9 "$PROF" 2>/dev/null || true
	[ -z "${HOSTDIR:-}" ] || rm -rf "$HOSTDIR"
}

# gone PID: process PID has exited (a zombie counts: it is not waited for yet)
gone() {
	[ ! -e "/proc/$1" ] || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# finish: SIGINT to bpfprof $PROF (a child of the test's shell), which must
# then exit with status 0; it is killed (and the test fails) when it is
# still there after 30 s. Its stderr ($T/err) is shown.
finish() {
	local pid=$PROF status=0

	PROF=
	kill -INT "$pid" 2>/dev/null || true
	wait_until gone "$pid" || { kill -9 "$pid"; echo "bpfprof ignored SIGINT for 30 s" >&2; return 1; }
	wait "$pid" || status=$?
	cat "$T/err"
	[ "$status" -eq 0 ]
}

# cpu_ticks PID: the CPU time PID has used, in clock ticks (utime + stime)
cpu_ticks() {
	awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# ran_more PID TICKS: PID has used more CPU time than TICKS, and 20 ticks more
ran_more() {
	[ "$(cpu_ticks "$1")" -ge $(($2 + 20)) ]
}

# sampled_a_while PID: sampling runs (bpfprof $PROF in its loop) while the
# target PID spends 0.2 s on a CPU: a SIGINT then has samples to write
sampled_a_while() {
	local base
	sampling "$PROF"
	base=$(cpu_ticks "$1")
	wait_until ran_more "$1" "$base"
}

# stripped NAME: $T/NAME, fp-three without symbols, whose .gnu_debuglink names NAME.debug
stripped() {
	objcopy --only-keep-debug "$WORKLOADS/fp-three" "$T/$1.debug"
	objcopy --strip-all --add-gnu-debuglink="$T/$1.debug" "$WORKLOADS/fp-three" "$T/$1"
}

# run_bg PROG ARG...: a workload outside $WORKLOADS, in the background (PIDS), once it runs
run_bg() {
	"$@" &
	PIDS+=($!)
	exec_of "$!" "$(basename "$1")" >/dev/null
}

# nomapfiles_bg ARG...: bpfprof ARG... in the background (its pid in PROF), without
# CAP_SYS_ADMIN and CAP_CHECKPOINT_RESTORE: /proc/PID/map_files is closed to it, so
# it opens mapped files by path (the background subshell execs: $! is bpfprof)
nomapfiles_bg() {
	exec setpriv --bounding-set=-sys_admin,-checkpoint_restore --inh-caps=-all "$BPFPROF" "$@"
}

# container ROOT: a root directory for chroot with the host's /usr (bound in by the namespace)
container() {
	mkdir -p "$1/usr" "$1/proc" "$1/dev" "$1/w"
	ln -s usr/lib "$1/lib"
	ln -s usr/lib64 "$1/lib64"
	ln -s usr/bin "$1/bin"
}

@test "a debuglink to /dev/zero: SIGINT ends the run at once, the profile is written" {
	stripped zeroed
	ln -sf /dev/zero "$T/zeroed.debug"
	run_bg "$T/zeroed" 30
	"$BPFPROF" record -p "${PIDS[0]}" -F 999 -o "$OUT" 2>"$T/err" &
	PROF=$!
	sampled_a_while "${PIDS[0]}"
	finish
	[ "$(total "$OUT" '^zeroed;')" -gt 0 ]
	grep -q "refused.*zeroed.debug: not a regular file" "$T/err"
}

@test "a FIFO at the debuglink's path or at a build-id path is refused, not waited on" {
	local id
	stripped piped
	rm "$T/piped.debug"
	mkfifo "$T/piped.debug"
	id=$(readelf -n "$T/piped" | awk '/Build ID/ { print $3 }')
	mkdir -p "$T/dbg/.build-id/${id:0:2}"
	mkfifo "$T/dbg/.build-id/${id:0:2}/${id:2}.debug"
	run_bg "$T/piped" 30
	"$BPFPROF" record -p "${PIDS[0]}" -F 999 --debug-dir "$T/dbg" -o "$OUT" 2>"$T/err" &
	PROF=$!
	sampled_a_while "${PIDS[0]}"
	finish
	[ "$(total "$OUT" '^piped;')" -gt 0 ]
	grep -q "refused .*/[0-9a-f]*\.debug: not a regular file" "$T/err"
}

@test "a mapped file whose path became a symlink to a FIFO (no map_files) is not waited on" {
	command -v setpriv >/dev/null || skip "setpriv (util-linux) not installed"
	cp "$WORKLOADS/fp-three" "$T/victim"
	mkfifo "$T/fifo"
	nomapfiles_bg record -a --per-pid -F 999 -o "$OUT" 2>"$T/err" &
	PROF=$!
	sampling "$PROF"
	# bpfprof reads the exec's mapping only once the path is a symlink to the FIFO
	kill -STOP "$PROF"
	run_bg "$T/victim" 2
	ln -s "$T/fifo" "$T/link"
	mv -f "$T/link" "$T/victim"
	kill -CONT "$PROF"
	wait "${PIDS[0]}"
	finish
	[ "$(total "$OUT" "^victim-${PIDS[0]};")" -gt 0 ]
}

@test "a container's mapped path, a symlink to an absolute host path, is resolved inside the container" {
	command -v setpriv >/dev/null || skip "setpriv (util-linux) not installed"
	command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
	local root=$T/root pid
	container "$root"
	cp "$WORKLOADS/fp-three" "$root/w/victim"
	# the host file: the same build-id, names the container never had
	mkdir "$T/host"
	objcopy --redefine-sym leaf_a=HOSTLEAK_a --redefine-sym leaf_b=HOSTLEAK_b \
		--redefine-sym leaf_c=HOSTLEAK_c --redefine-sym split=HOSTLEAK_split \
		"$root/w/victim" "$T/host/victim"
	[ ! -e "$root$T/host/victim" ]
	nomapfiles_bg record -a --per-pid -F 999 -o "$OUT" 2>"$T/err" &
	PROF=$!
	sampling "$PROF"
	kill -STOP "$PROF"
	unshare -m --propagation private sh -c \
		"mount --bind /usr '$root/usr' && exec chroot '$root' /w/victim 2" &
	pid=$!
	PIDS+=($pid)
	exec_of "$pid" victim >/dev/null
	# inside the container, /w/victim is now a symlink to the host file's path
	ln -s "$T/host/victim" "$root/w/link"
	mv -f "$root/w/link" "$root/w/victim"
	kill -CONT "$PROF"
	wait "$pid"
	finish
	[ "$(total "$OUT" HOSTLEAK)" -eq 0 ]
	[ "$(total "$OUT" "^victim-$pid;")" -gt 300 ]
}

@test "a container whose /tmp is a symlink to a host directory: its JIT map is its own" {
	command -v node >/dev/null || skip "node not installed (Debian nodejs)"
	command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
	local root=$T/root pid
	container "$root"
	cp "$REPO/tests/workloads/jit-hot.js" "$root/w/"
	# not under /tmp: the container's /tmp is the symlink
	HOSTDIR=$(mktemp -d /var/tmp/bpfprof-hostile.XXXXXX)
	ln -s "$HOSTDIR" "$root/tmp"
	mkdir -p "$root$HOSTDIR"
	unshare -m --propagation private sh -c \
		"mount --bind /usr '$root/usr' && mount -t proc proc '$root/proc' &&
		 mount --rbind /dev '$root/dev' && exec chroot '$root' node --perf-basic-prof /w/jit-hot.js 3" &
	pid=$!
	PIDS+=($pid)
	# the host's directory of that name: a map for the same pid, covering everything
	printf '1000 7ffffffff000 HOSTLEAK_jit\n' >"$HOSTDIR/perf-$pid.map"
	exec_of "$pid" node >/dev/null
	wait_until [ -s "$root$HOSTDIR/perf-$pid.map" ]
	run "$BPFPROF" record -p "$pid" -F 999 -d 1.5 -o "$OUT"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(total "$OUT" HOSTLEAK)" -eq 0 ]
	[ "$(share "$OUT" ';[^;]*hotFunction[^;]*_\[j\] [0-9]+$' '^node;')" -ge 50 ]
}

@test "an xz bomb in .gnu_debugdata is refused with a warning, memory stays small" {
	local rss
	# 512 MiB of zeros in 80 KB
	head -c 512M /dev/zero | xz -0 -T1 >"$T/bomb.xz"
	objcopy --strip-all "$WORKLOADS/fp-three" "$T/plain"
	objcopy --add-section .gnu_debugdata="$T/bomb.xz" "$T/plain" "$T/bombed"
	run_bg "$T/bombed" 30
	/usr/bin/time -f 'maxrss %M' -o "$T/time" \
		"$BPFPROF" record -p "${PIDS[0]}" -F 999 -d 1 -o "$OUT" 2>"$T/err"
	cat "$T/err" "$T/time"
	[ "$(total "$OUT" '^bombed;')" -gt 0 ]
	rss=$(awk '/^maxrss/ { print $2 }' "$T/time")
	# kilobytes: far below the 512 MiB the bomb holds
	[ "$rss" -lt $((256 * 1024)) ]
	grep -q "refused .*bombed: its MiniDebugInfo (.gnu_debugdata) decompresses past" "$T/err"
}
