#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Frame names, as root: C++ and Rust (legacy and v0 mangling) workloads
# profiled with each --demangle mode. Shares are asserted, never exact counts.
# (awk here may be mawk: no {n} intervals in the regexes given to share.)

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
}

need_rust() {
	[ -x "$WORKLOADS/rust-names-legacy" ] && [ -x "$WORKLOADS/rust-names-v0" ] ||
		skip "the Rust workloads were not built (no rustc)"
}

# Escape a literal frame name for an awk regex.
re() {
	printf '%s' "$1" | sed 's/[][\\.*^$(){}+?|/]/\\&/g'
}

@test "C++: namespace, class template and lambda names, no argument lists by default" {
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/cpp-names" 2
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	local base='^cpp-names;' lambda spin
	lambda=$(re 'ns::run(double)::{lambda(double)#1}::operator()')
	spin=$(re 'ns::Worker<int>::spin')
	[ "$(total "$OUT" "$base")" -gt 400 ]
	# nearly all of it in the template method, called from the lambda in ns::run
	[ "$(share "$OUT" ";main;ns::run;$lambda;$spin( |;)" "$base")" -ge 80 ]
	refute grep -q '_ZN2ns' "$OUT"
	refute grep -qF 'spin(double)' "$OUT"
}

@test "C++: --no-demangle keeps the raw names" {
	run "$BPFPROF" record -F 999 --no-demangle -o "$OUT" -- "$WORKLOADS/cpp-names" 1
	[ "$status" -eq 0 ]
	[ "$(share "$OUT" ';_ZN2ns3runEd;_ZZN2ns3runEdENKUldE_clEd;_ZN2ns6WorkerIiE4spinEd( |;)' '^cpp-names;')" -ge 80 ]
	refute grep -qF 'ns::' "$OUT"
}

@test "C++: --demangle=full keeps the argument lists" {
	run "$BPFPROF" record -F 999 --demangle=full -o "$OUT" -- "$WORKLOADS/cpp-names" 1
	[ "$status" -eq 0 ]
	local spin
	spin=$(re 'ns::run(double)::{lambda(double)#1}::operator()(double) const;ns::Worker<int>::spin(double)')
	[ "$(share "$OUT" ";$spin( |;)" '^cpp-names;')" -ge 80 ]
	# --demangle=none is --no-demangle
	run "$BPFPROF" record -F 999 --demangle=none -o "$OUT" -- "$WORKLOADS/cpp-names" 0.5
	[ "$status" -eq 0 ]
	grep -qF '_ZN2ns6WorkerIiE4spinEd' "$OUT"
}

# rust_names BINARY FORBIDDEN_RE RAW_RE: demangled by default (nothing matches
# FORBIDDEN_RE), raw with --no-demangle (the hot loop matches RAW_RE)
rust_names() {
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/$1" 2
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	local base='^rust-names-'
	[ "$(total "$OUT" "$base")" -gt 400 ]
	[ "$(share "$OUT" ';rust_names::main;rust_names::spin::hot_loop( |;)' "$base")" -ge 80 ]
	[ "$(grep -cE "$2" "$OUT")" -eq 0 ]
	run "$BPFPROF" record -F 999 --no-demangle -o "$OUT" -- "$WORKLOADS/$1" 1
	[ "$status" -eq 0 ]
	[ "$(share "$OUT" ";$3( |;)" "$base")" -ge 80 ]
}

@test "Rust legacy mangling: the hash is dropped" {
	need_rust
	rust_names rust-names-legacy '::h[0-9a-f]{16}|_ZN10rust_names' \
		'_ZN10rust_names4spin8hot_loop17h[0-9a-f]+E'
}

@test "Rust v0 mangling" {
	need_rust
	rust_names rust-names-v0 ';_R[A-Za-z0-9_]+' '_RNvNtCs[A-Za-z0-9_]+_10rust_names4spin8hot_loop'
}

@test "JIT frames are named from the process's perf map, with _[j]" {
	command -v node >/dev/null || skip "node not installed (Debian nodejs)"
	cd "$BATS_TEST_TMPDIR" # node may leave V8 logs in its working directory
	# node's pid (the shell execs it) names its map: removed after the run
	run "$BPFPROF" record -F 999 -o "$OUT" -- sh -c "echo \$\$ >node.pid && exec node --perf-basic-prof '$REPO/tests/workloads/jit-hot.js' 2"
	rm -f "/tmp/perf-$(cat node.pid).map"
	[ "$status" -eq 0 ]
	# hotFunction runs most of the time, as JIT code named by /tmp/perf-PID.map
	[ "$(share "$OUT" ';[^;]*hotFunction[^;]*_\[j\] [0-9]+$' '^node;')" -ge 50 ]
}

@test "JIT code in shared anonymous memory (/dev/zero (deleted)) is named from the perf map" {
	cd "$BATS_TEST_TMPDIR"
	# MAP_SHARED | MAP_ANONYMOUS code, named jit_hot in the workload's perf map
	run "$BPFPROF" record -F 999 -o "$OUT" -- sh -c "echo \$\$ >jit.pid && exec '$WORKLOADS/jit-shared' 1.5"
	rm -f "/tmp/perf-$(cat jit.pid).map"
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	[ "$(total "$OUT" '^jit-shared;')" -gt 100 ]
	[ "$(share "$OUT" ';jit_hot_\[j\] [0-9]+$' '^jit-shared;')" -ge 50 ]
	[ "$(total "$OUT" '\[zero\+0x')" -eq 0 ]
}

@test "a JIT map in a container's own /tmp is read while it runs, and names frames after it is gone" {
	command -v node >/dev/null || skip "node not installed (Debian nodejs)"
	command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
	cd "$BATS_TEST_TMPDIR"
	"$BPFPROF" record -a --per-pid -F 999 -d 5 -o "$OUT" 2>"$BATS_TEST_TMPDIR/err" &
	local prof=$!
	sampling "$prof"
	# node in its own mount namespace with a private /tmp: its perf map exists only
	# there, and is gone with the namespace, seconds before the run ends. The
	# script is copied in through an fd (the repository may itself be under /tmp).
	# unshare and sh exec, so node keeps the pid: only its samples are counted.
	unshare -m --propagation private sh -c "exec 3<'$REPO/tests/workloads/jit-hot.js' &&
		mount -t tmpfs none /tmp && cat <&3 >/tmp/jit-hot.js && cd /tmp &&
		exec node --perf-basic-prof /tmp/jit-hot.js 2" &
	local node=$!
	wait "$node"
	wait "$prof"
	[ "$(total "$OUT" "^node-$node;")" -gt 300 ]
	[ "$(share "$OUT" ';[^;]*hotFunction[^;]*_\[j\] [0-9]+$' "^node-$node;")" -ge 50 ]
}

@test "a JIT map owned by another user is refused, with a warning" {
	command -v node >/dev/null || skip "node not installed (Debian nodejs)"
	cd "$BATS_TEST_TMPDIR"
	node --perf-basic-prof "$REPO/tests/workloads/jit-hot.js" 3 &
	local pid=$!
	local i
	for i in $(seq 50); do
		[ -s "/tmp/perf-$pid.map" ] && break
		sleep 0.1
	done
	chown 65534:65534 "/tmp/perf-$pid.map"
	run "$BPFPROF" record -p "$pid" -F 999 -d 1.5 -o "$OUT"
	wait "$pid" || true
	rm -f "/tmp/perf-$pid.map"
	[ "$status" -eq 0 ]
	[[ "$output" == *"refused the JIT map /tmp/perf-$pid.map"* ]]
	[ "$(total "$OUT" '_\[j\]')" -eq 0 ]
	[ "$(total "$OUT" 'hotFunction')" -eq 0 ]
}
