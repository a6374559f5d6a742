#!/usr/bin/env bats
# DWARF (.eh_frame) unwinding of user stacks inside the BPF program (issue
# 5), as root, on real perf events: workloads built without frame pointers
# (gcc -O2 -fomit-frame-pointer, see tests/workloads/unwind-*.c; each file
# says which stacks it must give) and one of Debian's own stripped binaries.
# Stacks are checked whole, from the leaf to libc's start frames, as shares
# of the samples taken in a given function: exact stacks are deterministic,
# so the thresholds only leave room for the first samples of a run (before
# the unwind tables are ready) and rare samples at odd places. Sample counts
# only need to be large enough for the shares to mean something: the
# minimums are a fraction of what 999 Hz gives on an idle machine.
#
# Folded output is root first: comm;_start;__libc_start_main...;
# __libc_start_call_main;main;...;leaf, then kernel frames (_[k]). A walk
# that fell back to frame pointers for some frames is marked with an [fp]
# frame right after the process frame, a cut one with [truncated].

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
}

# record OPTION... -- COMMAND...: bpfprof record at 999 Hz into $OUT; the
# summary is in $output
record() {
	run "$BPFPROF" record -F 999 -o "$OUT" "$@"
	[ "$status" -eq 0 ] || { echo "bpfprof record failed: $output" >&2; return 1; }
	well_formed "$OUT"
}

# chain PREFIX FIRST LAST: "PREFIX01;PREFIX02;...;PREFIXLAST" (two digits)
chain() {
	local s="" i
	for ((i = $2; i <= $3; i++)); do
		s+=$(printf '%s%02d;' "$1" "$i")
	done
	echo "${s%;}"
}

# repeat WORD N: "WORD;WORD;...;" N times (the awk here, mawk, has no {N})
repeat() {
	local s="" i
	for ((i = 0; i < $2; i++)); do
		s+="$1;"
	done
	echo "$s"
}

# ending_in FUNC: the samples whose user stack ends in FUNC (kernel frames may follow)
ending_in() {
	echo ";$1(;[^; ]*_\\[k\\])* [0-9]+\$"
}

@test "1: a 20-deep frameless chain is whole down to main and libc's start frames" {
	record --unwind=dwarf --stats -- "$WORKLOADS/unwind-chain20" 3
	# --stats prints the walk outcomes besides the summary line
	[ "${#lines[@]}" -ge 2 ]
	leaf=';f20( |;)'
	at_least "$(total "$OUT" "$leaf")" 500
	# libc's table is built once ld.so maps it, after the exec: on a loaded
	# machine the first tens of milliseconds stop at main (97% seen then)
	at_least "$(share "$OUT" "^unwind-chain20;$START;main;$(chain f 1 20)( |;)" "$leaf")" 97
}

@test "1b: a child a few milliseconds old unwinds whole by its parent's table, before its own" {
	# each child lives 2 ms of CPU: most of its samples come before bpfprof
	# has read its fork and written its table (48% whole before the fix)
	record -- "$WORKLOADS/unwind-forks" 2
	leaf=';burn( |;)'
	at_least "$(total "$OUT" "$leaf")" 200
	at_least "$(share "$OUT" "^unwind-forks;$START;main;child_main;f1;f2;f3;burn( |;)" "$leaf")" 95
}

@test "2: a qsort comparator's stack goes through libc's frames back into main" {
	record --unwind=dwarf -- "$WORKLOADS/unwind-qsort" 2
	leaf=';cmp_spin( |;)'
	at_least "$(total "$OUT" "$leaf")" 200
	# __qsort_r (or qsort), then msort_with_tmp frames (some inlined), then the comparator
	libc='[^; ]*qsort[^;]*;([^; ]*;)*[^; ]*msort[^;]*'
	at_least "$(share "$OUT" "^unwind-qsort;$START;main;sort_rounds;$libc;cmp_spin( |;)" "$leaf")" 98
}

@test "3: a signal handler's stack goes through the signal frame into the interrupted code" {
	# the signal frame is libc's __restore_rt; its return address is
	# __restore_rt itself, so it may be named from the byte before it
	sigframe='(__restore_rt|\[[^];]*\])'
	local alt
	for alt in "" alt; do # on the interrupted stack, then on an alternate one
		record --unwind=dwarf -- "$WORKLOADS/unwind-signal" 2 $alt
		handler=';on_sigalrm( |;)'
		# the handler runs 5 ms of every 10: about half the samples
		at_least "$(total "$OUT" "$handler")" 200
		at_least "$(share "$OUT" "^unwind-signal;$START;main;interrupted_spin;$sigframe;on_sigalrm( |;)" "$handler")" 97
		# and the samples outside the handler are whole too
		at_least "$(share "$OUT" "^unwind-signal;$START;main;interrupted_spin( |;)" ';interrupted_spin( |;)')" 97
	done
}

@test "4: a library dlopen()ed mid-run gets full stacks once its table is built" {
	# 3.5 s; the 15-deep chain from 2 s on
	record --unwind=auto --stats -- "$WORKLOADS/dlopen-late" 3.5 2
	# the library's table (and the command's own) came while sampling ran
	[[ $output =~ stats:\ ([0-9]+)\ tables\ loaded\ while\ sampling,\ [0-9.]+\ ms\ on\ average ]]
	at_least "${BASH_REMATCH[1]}" 2
	leaf=';chain_15( |;)'
	full="^dlopen-late;$START;main;chain_run;$(chain chain_ 1 15)( |;)"
	flagged='^dlopen-late;(\[truncated\];)?\[fp\];'
	local n whole fp
	n=$(total "$OUT" "$leaf")
	at_least "$n" 300
	whole=$(total "$OUT" "$full")
	fp=$(awk -v l="$leaf" -v f="$flagged" '$0 ~ l && $0 ~ f { s += $NF } END { print s + 0 }' "$OUT")
	# the table-build latency is a small part of the 1.5 s
	at_least $((whole * 100 / n)) 90
	# what is not whole is flagged as a frame-pointer walk
	at_least $(((whole + fp) * 100 / n)) 99
	# the executable's own frames were whole before the dlopen
	at_least "$(share "$OUT" "^dlopen-late;$START;main;before_dlopen( |;)" ';before_dlopen( |;)')" 97
}

@test "4b: a library linked by lld, whose code is not at its file offsets, unwinds whole" {
	# lld starts the text segment in the file page where rodata ends
	# (offset 0x750, address 0x1750): the mapping's first page is rodata's
	cp "$WORKLOADS/dlopen-late" "$BATS_TEST_TMPDIR/"
	cp "$WORKLOADS/libchain15-lld.so" "$BATS_TEST_TMPDIR/libchain15.so"
	record --unwind=dwarf -- "$BATS_TEST_TMPDIR/dlopen-late" 3 1
	local n
	n=$(total "$OUT" ';chain_15( |;)')
	at_least "$n" 200
	# (before: two thirds of all walks stopped "at an address in no known
	# mapping", the table's bias 0x1000 off; none whole). Not all: the
	# samples before the library's table is in (85% whole under ASan at
	# load 4, 97% otherwise)
	at_least "$(share "$OUT" "^dlopen-late;$START;main;chain_run;$(chain chain_ 1 15)( |;)" \
		';chain_15( |;)')" 75
}

@test "5: calls through PLT stubs, lazy and -z now, never break the stack" {
	for w in unwind-plt unwind-plt-now; do
		record --unwind=dwarf -- "$WORKLOADS/$w" 2
		local all
		all=$(total "$OUT" "^$w;")
		at_least "$all" 500
		# every sample of the run (bar the dynamic loader's start) is under call_loop
		at_least "$(share "$OUT" "^$w;$START;main;call_loop( |;)" "^$w;")" 98
		# and plenty of them are in a PLT stub, named as perf names it: the
		# executable's (plt_leaf@plt under call_loop) and the library's
		# (plt_leaf@plt under plt_outer)
		local stub
		for stub in 'plt_leaf@plt' 'plt_outer;plt_leaf@plt'; do
			at_least "$(share "$OUT" "^$w;$START;main;call_loop;$stub(;[^; ]*_\\[k\\])* [0-9]+\$" "^$w;")" 3
		done
	done
}

@test "6: a thread inside a read() loop shows kernel frames under the whole user chain" {
	record --unwind=dwarf -- "$WORKLOADS/unwind-syscall" 2
	kernel='^unwind-syscall;.*;entry_SYSCALL_64[a-z_]*_\[k\]'
	# most of the time is spent in the kernel
	at_least "$(total "$OUT" "$kernel")" 300
	at_least "$(share "$OUT" "^unwind-syscall;$START;main;read_loop;read_chunk;[^;]*read;entry_SYSCALL_64[a-z_]*_\\[k\\];" "$kernel")" 98
	[ "$(total "$OUT" "^unwind-syscall;$START;main;read_loop;read_chunk;[^;]*read;entry_SYSCALL_64[a-z_]*_\\[k\\];.*read_zero_\\[k\\]")" -gt 200 ]
}

@test "7: a thread's stack ends at the thread start routine" {
	record --unwind=dwarf -- "$WORKLOADS/unwind-threads" 2
	leaf=';spin_inner( |;)'
	thread='^unwind-threads;(__)?clone3[^;]*;start_thread;thread_main;spin_outer;spin_inner( |;)'
	main="^unwind-threads;$START;main;spin_outer;spin_inner( |;)"
	at_least "$(total "$OUT" "$leaf")" 500
	# about half each (two busy threads), and nothing else
	at_least "$(share "$OUT" "$thread" "$leaf")" 25
	at_least "$(share "$OUT" "$main" "$leaf")" 25
	at_least $(($(share "$OUT" "$thread" "$leaf") + $(share "$OUT" "$main" "$leaf"))) 97
}

@test "8: a 100 KiB frame, alloca and realigned stacks unwind, in every function" {
	record --unwind=dwarf -- "$WORKLOADS/unwind-frames" 2
	local path="" f
	for f in big_frame with_alloca realign_local realign_drap frames_leaf; do
		path+=";$f"
		# samples taken in f itself (not in what it calls): each function's own
		# CFA rule, so every frame from main down (above main, libc's start
		# frames: test 1's; their table may come late on a loaded machine)
		at_least "$(total "$OUT" "$(ending_in "$f")")" 20
		at_least "$(share "$OUT" "^unwind-frames;([^ ]*;)?main$path(;[^; ]*_\\[k\\])* [0-9]+\$" "$(ending_in "$f")")" 97
	done
}

@test "9: frame-pointer code calling frameless libc, which calls back, unwinds whole" {
	record --unwind=auto -- "$WORKLOADS/unwind-fp" 2
	leaf=';fp_cmp_work( |;)'
	libc='[^; ]*qsort[^;]*;([^; ]*;)*[^; ]*msort[^;]*'
	at_least "$(total "$OUT" "$leaf")" 200
	at_least "$(share "$OUT" "^unwind-fp;$START;main;fp_sort_rounds;$libc;fp_cmp;fp_cmp_work( |;)" "$leaf")" 98
}

@test "10: 500-deep recursion is cut at --max-depth, marked truncated, and every sample counts" {
	record --unwind=dwarf --max-depth=100 -- "$WORKLOADS/unwind-recurse" 2
	local kept
	[[ $output =~ ([0-9]+)\ samples\ kept,\ 0\ lost ]]
	kept=${BASH_REMATCH[1]}
	# every kept sample is in the output, truncated ones included
	[ "$(total "$OUT")" -eq "$kept" ]
	leaf=';spin_leaf( |;)'
	at_least "$(total "$OUT" "$leaf")" 200
	# the innermost 100 frames: 99 recurse and the leaf
	at_least "$(share "$OUT" "^unwind-recurse;\\[truncated\\];$(repeat recurse 99)spin_leaf( |;)" "$leaf")" 98
}

@test "11: Debian's stripped, frameless xz gets stacks down to its entry point and libc's start" {
	command -v xz >/dev/null || skip "no xz (xz-utils)"
	local xz input
	xz=$(readlink -f "$(command -v xz)")
	# ~4 MiB, half random (base64) and half text: about 2.5 s of xz -9
	input=$BATS_TEST_TMPDIR/input
	{ head -c 1500000 /dev/urandom | base64; seq 1 250000; } >"$input"
	record --unwind=auto -- xz -9 -T1 -k -f "$input"
	at_least "$(total "$OUT" '^xz;')" 500
	# the most common outermost four frames, and their share of xz's samples
	local top count
	read -r count top < <(awk '$0 ~ /^xz;/ {
			n = split($0, f, ";"); k = f[2] ";" f[3] ";" f[4] ";" f[5]
			sub(/ [0-9]+$/, "", k); c[k] += $NF; t += $NF
		} END { for (k in c) if (c[k] > best) { best = c[k]; b = k }
			print int(best * 100 / t), b }' "$OUT")
	echo "outermost: $top ($count%)" >&2
	at_least "$count" 95
	# _start (named only with a debug file), libc's start, main
	local re='^(_start|\[xz\+0x([0-9a-f]+)\]);__libc_start_main[^;]*;__libc_start_call_main;(main|\[xz\+0x[0-9a-f]+\])$'
	[[ $top =~ $re ]]
	# an unnamed _start is at the ELF entry point (text offsets are addresses in xz)
	if [ -n "${BASH_REMATCH[2]}" ]; then
		local entry
		entry=$(readelf -h "$xz" | awk '/Entry point/ { print $NF }')
		at_least $((0x${BASH_REMATCH[2]})) $((entry))
		at_least $((entry + 0x40)) $((0x${BASH_REMATCH[2]}))
	fi
}

@test "--unwind=fp walks frame pointers only: whole in fp code, short in frameless code" {
	# fp-three keeps frame pointers (clang): the walk reaches main
	record --unwind=fp -- "$WORKLOADS/fp-three" 1
	[ "$(total "$OUT" '^fp-three;')" -gt 200 ]
	[ "$(share "$OUT" ';main;run_workload;split;leaf_[abc]( |;)' '^fp-three;')" -ge 95 ]
	refute grep -q '^fp-three;_start;' "$OUT"
	# the frameless chain: no frame pointers, so f20's callers are lost
	record --unwind=fp -- "$WORKLOADS/unwind-chain20" 1
	[ "$(total "$OUT" 'f20( |;)')" -gt 200 ]
	[ "$(share "$OUT" ";main;$(chain f 1 20)( |;)" 'f20( |;)')" -le 5 ]
	# --unwind=dwarf: the same chain whole, with no frame-pointer steps.
	# (3 s: the samples of the first milliseconds, before libc's table is
	# loaded, stop in libc, about 1% of a 1 s run under ASan, as before the
	# drains while sampling)
	record --unwind=dwarf --stats -- "$WORKLOADS/unwind-chain20" 3
	[ "$(share "$OUT" "^unwind-chain20;$START;main;$(chain f 1 20)( |;)" 'f20( |;)')" -ge 99 ]
	refute grep -q '\[fp\]' "$OUT"
	[[ $output == *"by DWARF tables only (--unwind=dwarf)"* ]]
}

# rows FILE: the rows of FILE's unwind table
rows() {
	"$BPFPROF" debug-cfi --stats --no-cache "$1" | awk '/^rows:/ { print $2 }'
}

@test "tables evicted least recently sampled first when --unwind-memory holds one of two" {
	local w=$WORKLOADS/unwind-evict lib base a b one mem s
	# the tables of the executable, ld.so, libc (and a little for the vDSO)
	base=$(($(rows "$w") + 256))
	for lib in $(ldd "$w" | awk '/libc\.so|ld-linux/ { print $(NF - 1) }'); do
		base=$((base + $(rows "$lib")))
	done
	a=$(rows "$WORKLOADS/libevict-a.so")
	b=$(rows "$WORKLOADS/libevict-b.so")
	one=$((a > b ? a : b))
	# rows take 7/8 of the budget, 12 bytes each: room for the base and
	# one library and a half, so each phase's library evicts the other's
	mem=$(((base + one * 3 / 2) * 12 * 8 / 7))
	# four phases of 2 s: a, b, a, b
	record --unwind-memory="$mem" --stats -- "$w" 2 4
	[[ $output =~ stats:\ tables:\ ([0-9]+)\ evicted\ \(least\ recently\ sampled\),\ ([0-9]+)\ loaded\ again ]]
	at_least "${BASH_REMATCH[1]}" 3
	at_least "${BASH_REMATCH[2]}" 2
	for s in a b; do
		at_least "$(total "$OUT" "evict_${s}_leaf( |;)")" 400
		# whole for most of each phase: the other library's table made way,
		# its own came within a tick or two (0.5 s each)
		at_least "$(share "$OUT" "^unwind-evict;$START;main;run_phases;evict_${s}_outer;evict_${s}_mid;evict_${s}_leaf( |;)" "evict_${s}_leaf( |;)")" 30
	done
	# with room for both, nothing is evicted and the stacks are whole (but
	# for a table read from the cache while the first phase ran: four phases)
	record --stats -- "$w" 0.5 4
	[[ $output =~ stats:\ tables:\ 0\ evicted ]]
	for s in a b; do
		at_least "$(share "$OUT" "^unwind-evict;$START;main;run_phases;evict_${s}_outer;evict_${s}_mid;evict_${s}_leaf( |;)" "evict_${s}_leaf( |;)")" 95
	done
}

@test "a process's mapping table holds twice the most mappings a target has at the start" {
	# 700 extra executable mappings, made before bpfprof starts (-p)
	"$WORKLOADS/unwind-maps" 4 700 &
	local pid=$! i
	for ((i = 0; i < 50; i++)); do
		[ "$(grep -c ' r-xp ' "/proc/$pid/maps")" -gt 700 ] && break
		sleep 0.1
	done
	run "$BPFPROF" record -F 999 --stats -p "$pid" -d 2 -o "$OUT"
	wait "$pid"
	[ "$status" -eq 0 ]
	[[ $output =~ up\ to\ ([0-9]+)\ executable\ mappings\ a\ process\;\ 0\ processes\ had\ more ]]
	at_least "${BASH_REMATCH[1]}" 1400
	at_least "$(share "$OUT" "^unwind-maps;$START;main;spin_maps( |;)" 'spin_maps( |;)')" 97
	# made after the start: the table holds 512, and the cut is counted
	record --stats -- "$WORKLOADS/unwind-maps" 1 700
	[[ $output =~ up\ to\ 512\ executable\ mappings\ a\ process\;\ 1\ processes\ had\ more ]]
}

@test "--unwind and --unwind-memory reject bad values in one line" {
	run "$BPFPROF" record --unwind=lbr -d 0.1
	[ "$status" -eq 64 ]
	[ "$output" = "bpfprof record: invalid --unwind 'lbr': expected auto, dwarf, fp" ]
	run "$BPFPROF" record --unwind-memory=12Q -d 0.1
	[ "$status" -eq 64 ]
	[ "$output" = "bpfprof record: invalid --unwind-memory '12Q': expected a size from 64K to 4G, e.g. 64M" ]
	# a budget too small for libc's table (28k rows), not for the workload's:
	# counted; the stacks are whole down to main, and libc's start frames,
	# frameless and without a table, are lost
	record --unwind-memory=64K --stats -- "$WORKLOADS/unwind-chain20" 1
	[[ $output =~ \ ([1-9][0-9]*)\ did\ not\ fit\ \(--unwind-memory\) ]]
	[ "$(total "$OUT" 'f20( |;)')" -gt 200 ]
	[ "$(share "$OUT" ";main;$(chain f 1 20)( |;)" 'f20( |;)')" -ge 95 ]
	[ "$(share "$OUT" ";$START;" 'f20( |;)')" -le 5 ]
}
