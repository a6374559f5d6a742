#!/usr/bin/env bats
# pprof output (-f pprof, -o x.pb.gz): Go's own reader (`go tool pprof`,
# Debian's golang-go) reads what bpfprof writes without a warning, with the
# totals of the summary, the stacks of the folded output, each binary a
# mapping with its build-id, the kernel's frames in a kernel mapping, inlined
# calls as extra lines of one location, and hostile names escaped.
# Root for sampling; the refusals need none.

load helpers

setup() {
	need_binary
	command -v go >/dev/null || skip "needs go (Debian's golang-go: go tool pprof)"
	OUT=$BATS_TEST_TMPDIR/out.pb.gz
	ERR=$BATS_TEST_TMPDIR/pprof.err
	# go tool pprof reads a local file: no network, no module, caches of its own
	export HOME=$BATS_TEST_TMPDIR/home GOCACHE=$BATS_TEST_TMPDIR/gocache GOTOOLCHAIN=local
	export GOPROXY=off GOFLAGS= PPROF_TMPDIR=$BATS_TEST_TMPDIR
	mkdir -p "$HOME"
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	stop_workloads
	rm -f "$BATS_TEST_TMPDIR"/pid
}

# pprof ARGS...: go tool pprof ARGS, its stderr in $ERR (appended)
pprof() {
	go tool pprof "$@" 2>>"$ERR"
}

# quiet: go tool pprof said nothing on stderr (no warning, no error)
quiet() {
	[ ! -s "$ERR" ] || { echo "go tool pprof warned:" >&2; cat "$ERR" >&2; return 1; }
}

# kept: the samples the summary line in $output counted
kept() {
	grep -oE '[0-9]+ samples kept' <<<"$output" | grep -oE '^[0-9]+'
}

# raw_total FILE COLUMN: the sum of value COLUMN (1: samples, 2: cpu ns) of -raw's samples
raw_total() {
	pprof -raw "$1" | awk -v c="$2" '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
		s && $0 ~ /^ +[0-9]+( +[0-9]+)?: / { sub(/:.*/, ""); t += $c } END { print t + 0 }'
}

# cum_pct FILE FUNC: FUNC's cumulative share of the samples in -top, an integer percentage
cum_pct() {
	pprof -top -nodecount=100 -sample_index=samples "$1" |
		awk -v f="$2" '$6 == f { sub(/%/, "", $5); printf "%d\n", $5; found = 1 }
			END { if (!found) print 0 }'
}

# traces_folded FILE: -traces as folded lines, "comm;root;...;leaf COUNT", an
# inlined call "name_[i]" (a line of the location before it, toward the leaf)
traces_folded() {
	pprof -traces -sample_index=samples "$1" | awk '
		function flush(  i, s) {
			if (n) {
				s = comm
				for (i = n; i >= 1; i--)
					s = s ";" fr[i]
				print s, count
			}
			n = 0
		}
		/^-+\+-+$/ { flush(); body = 1; next }
		!body { next }
		/^ +[a-z]+: / { if ($1 == "comm:") comm = $2; next }
		/^ +[0-9]+ +[^ ]/ { count = $1; sub(/^ +[0-9]+ +/, ""); fr[++n] = $0; next }
		/^ +[^ ]/ { sub(/^ +/, ""); fr[++n] = $0 }
		END { flush() }' | sed 's/ (inline)/_[i]/g'
}

@test "fp-three as pprof: go tool pprof reads it without a warning, the summary's totals, the leaves' 50/30/20, the call chain in order" {
	need_root
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"profile written to '$OUT'"* ]]
	gzip -t "$OUT"
	samples=$(kept)
	at_least "$samples" 50
	# samples/count and cpu/nanoseconds (count × the period of -F 999)
	pprof -raw "$OUT" >raw
	grep -qx 'samples/count cpu/nanoseconds' raw
	grep -qx 'PeriodType: cpu nanoseconds' raw
	grep -qx 'Period: 1001001' raw
	[ "$(raw_total "$OUT" 1)" -eq "$samples" ]
	[ "$(raw_total "$OUT" 2)" -eq $((samples * 1001001)) ]
	pprof -top -sample_index=samples "$OUT" >top
	grep -qE "Total samples = $samples *\$" top
	pprof -top "$OUT" >top-cpu
	grep -q 'Type: cpu' top-cpu
	# the workload's own split (a loaded machine shifts it a little)
	within "$(cum_pct "$OUT" leaf_a)" 50 12
	within "$(cum_pct "$OUT" leaf_b)" 30 12
	within "$(cum_pct "$OUT" leaf_c)" 20 12
	# the stacks, leaf first in pprof, read back root first: as folded shows them
	traces_folded "$OUT" >folded
	for leaf in leaf_a leaf_b leaf_c; do
		grep -qE "^fp-three;$START;main;run_workload;split;$leaf [0-9]+\$" folded
	done
	# every sample has its comm and no name carries a folded-text suffix
	[ "$(total folded '^fp-three;')" -eq "$samples" ]
	refute grep -qF '_[k]' raw
	# the executable is a mapping with its build-id, named by symbols, files and lines
	id=$(readelf -n "$WORKLOADS/fp-three" | awk '/Build ID:/ { print $3 }')
	grep -E "^[0-9]+: 0x0/0x0/0x0 $WORKLOADS/fp-three $id \[FN\]\[FL\]\[LN\]" raw
	quiet
}

@test "pprof and folded from two runs of fp-three: the same stacks, the same split" {
	need_root
	run "$BPFPROF" record -F 999 -o out.folded -- "$WORKLOADS/fp-three" 0.8
	[ "$status" -eq 0 ]
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.8
	[ "$status" -eq 0 ]
	traces_folded "$OUT" >from-pprof
	for leaf in leaf_a leaf_b leaf_c; do
		stack="^fp-three;$START;main;run_workload;split;$leaf [0-9]+\$"
		grep -qE "$stack" out.folded
		grep -qE "$stack" from-pprof
		within "$(share from-pprof ";$leaf [0-9]+\$" '^fp-three;')" \
			"$(share out.folded ";$leaf [0-9]+\$" '^fp-three;')" 15
	done
	quiet
}

@test "kernel frames are in the kernel's mapping (with its build-id), with their names as they are" {
	need_root
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/syscall-heavy" 0.7
	[ "$status" -eq 0 ]
	pprof -raw "$OUT" >raw
	kmap=$(awk '/^Mappings/ { m = 1 } m && $3 == "[kernel.kallsyms]" { sub(/:/, "", $1); print $1 }' raw)
	[ -n "$kmap" ]
	# with the running kernel's build-id, as its notes have it
	kid=$(awk '/^Mappings/ { m = 1 } m && $3 == "[kernel.kallsyms]" { print $4 }' raw)
	[[ $kid =~ ^[0-9a-f]{40}$ ]]
	od -An -tx1 -v /sys/kernel/notes | tr -d ' \n' | grep -q "$kid"
	# the read's kernel frames sit in it, under do_syscalls in the executable's
	grep -qE "^ +[0-9]+: 0x0 M=$kmap (entry_SYSCALL_64[a-z_]*|do_syscall_64|read_zero|ksys_read) " raw
	refute grep -qE "M=$kmap [^ ]*_\[k\]" raw
	traces_folded "$OUT" >folded
	[ "$(share folded ';main;do_syscalls;(entry_SYSCALL_64|do_syscall_64)' '^syscall-heavy;')" -ge 50 ]
	quiet
}

@test "inlined calls are extra lines of one location, the innermost first" {
	need_root
	src=$REPO/tests/workloads/inline-chain.c
	hot=$(grep -n '/\* HOT_LOOP \*/' "$src" | cut -d: -f1)
	inner=$(grep -n '/\* CALL_INNER \*/' "$src" | cut -d: -f1)
	outer=$(grep -n '/\* CALL_OUTER \*/' "$src" | cut -d: -f1)
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/inline-chain" 0.7
	[ "$status" -eq 0 ]
	pprof -raw "$OUT" >raw
	# "N: 0x0 M=1 inner_mix FILE:LINE" and the next two lines of the same location
	grep -A2 -E "^ +[0-9]+: 0x0 M=[0-9]+ inner_mix [^ ]*inline-chain.c:$hot " raw >loc
	sed -n 2p loc | grep -qE "^ +outer_step [^ ]*inline-chain.c:$inner "
	sed -n 3p loc | grep -qE "^ +hot_caller [^ ]*inline-chain.c:$outer "
	# the executable's mapping says it has inline frames
	grep -qE "^[0-9]+: .*/inline-chain [0-9a-f]+ .*\[IN\]" raw
	traces_folded "$OUT" >folded
	[ "$(share folded ';run_workload;hot_caller;outer_step_\[i\];inner_mix_\[i\] [0-9]+$' '^inline-chain;')" -ge 70 ]
	quiet
}

@test "functions: the mangled name as system_name, the start line of the definition; report keeps both" {
	need_root
	src=$REPO/tests/workloads/cpp-names.cpp
	spin=$(grep -n '^template <typename T> T Worker<T>::spin(double seconds)$' "$src" | cut -d: -f1)
	main=$(grep -n '^int main(' "$src" | cut -d: -f1)
	isrc=$REPO/tests/workloads/inline-chain.c
	mix=$(grep -n ' inner_mix(unsigned long x)$' "$isrc" | cut -d: -f1)
	[ -n "$spin" ] && [ -n "$main" ] && [ -n "$mix" ]
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/cpp-names" 0.5
	[ "$status" -eq 0 ]
	run "$BPFPROF" record -F 999 -o inline.pb.gz -- "$WORKLOADS/inline-chain" 0.5
	[ "$status" -eq 0 ]
	for f in "$OUT" inline.pb.gz; do
		run "$BPFPROF" report -o "back-${f##*/}" "$f"
		[ "$status" -eq 0 ]
	done
	for f in "$OUT" "back-${OUT##*/}"; do
		pprof -raw "$f" >raw
		# -raw: "NAME FILE:LINE s=START" and "(SYSTEM_NAME)" where it differs
		grep -E "^ +[0-9]+: 0x0 M=[0-9]+ ns::Worker<int>::spin [^ ]*cpp-names.cpp:[0-9]+ s=$spin\(_ZN2ns6WorkerIiE4spinEd\)$" raw
		grep -E "^ +[0-9]+: 0x0 M=[0-9]+ main [^ ]*cpp-names.cpp:[0-9]+ s=$main$" raw
	done
	for f in inline.pb.gz back-inline.pb.gz; do
		pprof -raw "$f" >raw
		# an inlined call's start line is its own function's
		grep -E "^ +[0-9]+: 0x0 M=[0-9]+ inner_mix [^ ]*inline-chain.c:[0-9]+ s=$mix$" raw
	done
	quiet
}

@test "a JIT's frames are in an anonymous mapping, its hostile name escaped" {
	need_root
	run "$BPFPROF" record -F 999 -o "$OUT" -- \
		sh -c "echo \$\$ >pid && exec '$WORKLOADS/jit-anon' 0.7 hostile"
	rm -f "/tmp/perf-$(cat pid).map"
	[ "$status" -eq 0 ]
	pprof -raw "$OUT" >raw
	amap=$(awk '/^Mappings/ { m = 1 } m && $3 == "[anon]" { sub(/:/, "", $1); print $1 }' raw)
	[ -n "$amap" ]
	# ESC, BEL and a raw 0x88 written as folded output writes them: valid UTF-8, no control bytes
	grep -qF "M=$amap jit\\x1b[2J\\x07bell\\x88end " raw
	[ "$(LC_ALL=C grep -caP '[^\x09\x0a\x20-\x7e]' raw || true)" -eq 0 ]
	refute grep -qF '_[j]' raw
	quiet
}

@test "--per-thread labels each sample with its pid and tid, --per-pid with its pid" {
	need_root
	run "$BPFPROF" record --per-thread -F 999 -o "$OUT" -- "$WORKLOADS/threads" 0.5
	[ "$status" -eq 0 ]
	pprof -raw "$OUT" >raw
	grep -qE '^ +pid:\[[0-9]+\] tid:\[[0-9]+\]$' raw
	# the workload's threads: more than one tid under one pid
	[ "$(grep -oE 'tid:\[[0-9]+\]' raw | sort -u | wc -l)" -ge 2 ]
	[ "$(grep -oE 'pid:\[[0-9]+\]' raw | sort -u | wc -l)" -eq 1 ]
	run "$BPFPROF" record --per-pid -F 999 -o "$OUT" -- "$WORKLOADS/fp-three" 0.3
	[ "$status" -eq 0 ]
	pprof -raw "$OUT" >raw
	grep -qE '^ +pid:\[[0-9]+\]$' raw
	refute grep -q 'tid:' raw
	quiet
}

@test "-f pprof goes to a pipe, never to a terminal; .pb.gz implies it, .pb and .pprof are refused" {
	run "$BPFPROF" record --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"pprof"* ]]
	run "$BPFPROF" record -o x.pb -- true
	[ "$status" -eq 64 ]
	[[ "$output" == *"invalid --output 'x.pb': .pb is uncompressed protobuf"*"pprof (.pb.gz)"* ]]
	run "$BPFPROF" record -o x.pprof -- true
	[ "$status" -eq 64 ]
	[[ "$output" == *"-f pprof"* ]]
	# a terminal: script(1) gives the command one
	run script -qec "'$BPFPROF' record -f pprof -o - -- true" /dev/null
	[ "$status" -eq 64 ]
	[[ "$output" == *"invalid --output '-': pprof is binary data and standard output is a terminal"* ]]
}

@test "-f pprof -o - writes gzipped pprof to a pipe" {
	need_root
	"$BPFPROF" record -q -F 499 -f pprof -o - -- "$WORKLOADS/fp-three" 0.3 | cat >piped.pb.gz
	gzip -t piped.pb.gz
	pprof -top -sample_index=samples piped.pb.gz >top
	cat top
	grep -q 'leaf_a' top
	quiet
}
