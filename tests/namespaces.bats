#!/usr/bin/env bats
# Binaries the host cannot open by path: one deleted while it runs, and one
# that exists only inside the target's own mount namespace. Both must
# symbolize, because bpfprof opens mapped files through /proc/PID/map_files
# (and /proc/PID/root) while the process lives.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
}

@test "a binary deleted while it runs still symbolizes" {
	local bin=$BATS_TEST_TMPDIR/doomed
	cp "$WORKLOADS/fp-three" "$bin"
	"$bin" 3 &
	local pid=$!
	exec_of "$pid" doomed
	rm "$bin"
	run "$BPFPROF" record -p "$pid" -F 999 -d 1.5 -o "$OUT"
	wait "$pid" || true
	[ "$status" -eq 0 ]
	[ ! -e "$bin" ]
	[ "$(share "$OUT" 'main;run_workload;split;leaf_[abc][; ]' '^doomed;')" -ge 90 ]
}

@test "a binary that exists only in the target's mount namespace symbolizes" {
	command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
	local dir=$BATS_TEST_TMPDIR/private
	mkdir "$dir"
	# inside a new mount namespace, a tmpfs over $dir holds the binary; the host's $dir stays empty
	unshare -m --propagation private sh -c \
		"mount -t tmpfs none '$dir' && cp '$WORKLOADS/fp-three' '$dir/hidden' && exec '$dir/hidden' 3" &
	local pid=$!
	# unshare and sh exec: the process itself becomes the workload
	local target
	target=$(exec_of "$pid" hidden)
	[ ! -e "$dir/hidden" ] # the host cannot see it
	run "$BPFPROF" record -p "$target" -F 999 -d 1.5 -o "$OUT"
	wait "$pid" || true
	[ "$status" -eq 0 ]
	[ "$(share "$OUT" 'main;run_workload;split;leaf_[abc][; ]' '^hidden;')" -ge 90 ]
}

@test "a process started in another mount namespace during a system-wide run symbolizes" {
	command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
	local dir=$BATS_TEST_TMPDIR/private
	mkdir "$dir"
	"$BPFPROF" record -a --per-pid -F 999 -d 3 -o "$OUT" 2>"$BATS_TEST_TMPDIR/err" &
	local prof=$!
	sampling "$prof"
	unshare -m --propagation private sh -c \
		"mount -t tmpfs none '$dir' && cp '$WORKLOADS/fp-three' '$dir/hidden2' && exec '$dir/hidden2' 1" &
	local pid=$!
	wait "$pid"
	wait "$prof"
	# a loaded machine gives it a fraction of a CPU: a share, over a few samples
	[ "$(total "$OUT" "^hidden2-$pid;")" -gt 60 ]
	[ "$(share "$OUT" 'main;run_workload;split;leaf_[abc][; ]' "^hidden2-$pid;")" -ge 90 ]
}

@test "a container's debug file, only in its own /usr/lib/debug, names its stripped binary" {
	command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
	local dir=$BATS_TEST_TMPDIR/private id
	mkdir "$dir"
	objcopy --only-keep-debug "$WORKLOADS/fp-three" "$BATS_TEST_TMPDIR/fp-three.debug"
	objcopy --strip-all "$WORKLOADS/fp-three" "$BATS_TEST_TMPDIR/stripped"
	id=$(readelf -n "$WORKLOADS/fp-three" | awk '/Build ID/ { print $3 }')
	# inside the namespace: the binary on a private tmpfs, and a private tmpfs over
	# /usr/lib/debug holding its debug file; the host sees neither
	unshare -m --propagation private sh -c "
		mount -t tmpfs none '$dir' && mount -t tmpfs none /usr/lib/debug &&
		mkdir -p /usr/lib/debug/.build-id/${id:0:2} &&
		cp '$BATS_TEST_TMPDIR/fp-three.debug' /usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug &&
		cp '$BATS_TEST_TMPDIR/stripped' '$dir/hidden3' && exec '$dir/hidden3' 3" &
	local pid=$! target
	target=$(exec_of "$pid" hidden3)
	[ ! -e "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]
	run "$BPFPROF" record -p "$target" -F 999 -d 1.5 -o "$OUT"
	wait "$pid" || true
	[ "$status" -eq 0 ]
	[ "$(share "$OUT" 'main;run_workload;split;leaf_[abc][; ]' '^hidden3;')" -ge 90 ]
}
