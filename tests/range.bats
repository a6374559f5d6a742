#!/usr/bin/env bats
# bpfprof range, as root, on real perf events and BPF programs: the
# per-instruction listing of ranges in workloads with known behaviour
# (tests/workloads/range-loops.c: 80% of loops() on its HOT line, 20% on its
# COLD line), kernel ranges, two processes of one PIE, a libc function, and
# the errors of ranges that cannot be resolved. Shares are asserted with
# tolerances, never exact counts.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.txt
	range_loops_lines
	PIDS=()
}

teardown() {
	stop_workloads
}

# hot_lines FILE: the "hottest source lines" rows of the first range, "PCT COUNT FILE:LINE".
hot_lines() {
	awk '/^  hottest source lines:/ { on = 1; next } on && /^$/ { exit }
		on { sub(/%/, "", $1); print $1, $2, $3 }' "$1"
}

# line_share FILE FILE:LINE: the integer percent of the first range's samples on that line.
line_share() {
	hot_lines "$1" | awk -v want="$2" '$3 == want { printf "%d\n", $1 + 0.5; f = 1 }
		END { if (!f) print 0 }'
}

# samples FILE [N]: the sample count of range N (default 1).
samples() {
	awk -v n="${2:-1}" '/^range [0-9]+:/ { r++ } r == n && /^  [0-9]+ samples, / {
		print $1; exit }' "$1"
}

@test "the hottest source line is the hot loop's, with its known share (80/20)" {
	start range-loops 60
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 2 -o "$OUT" range-loops:loops
	echo "$output"
	cat "$OUT"
	[ "$status" -eq 0 ]
	[ "$(samples "$OUT")" -gt 400 ]
	# the first of the hottest lines is the HOT one
	[ "$(hot_lines "$OUT" | head -1 | cut -d' ' -f3)" = "range-loops.c:$HOT" ]
	within "$(line_share "$OUT" "range-loops.c:$HOT")" 80 5
	within "$(line_share "$OUT" "range-loops.c:$COLD")" 20 5
	# the header names the binary, the function and the process
	grep -q "^  binary: $WORKLOADS/range-loops\$" "$OUT" ||
		grep -q "^  binary: .*/range-loops\$" "$OUT"
	grep -qE '^  symbol: loops, 0x[0-9a-f]+-0x[0-9a-f]+ \([0-9]+ bytes\)$' "$OUT"
	grep -qE "^  counted in 1 process: ${PIDS[0]} range-loops [0-9]+\$" "$OUT"
	# every instruction of loops is listed, with its disassembly; hot ones marked
	grep -qE '^  +0x[0-9a-f]+  loops\+0x0 +[0-9]+ +[0-9.]+%  range-loops.c:[0-9]+  push rbp$' "$OUT"
	grep -qE "^> +0x[0-9a-f]+  loops\+0x[0-9a-f]+ .* range-loops.c:$HOT  " "$OUT"
	grep -qE '^total: [0-9]+ samples in the ranges of [0-9]+ seen' "$OUT"
}

@test "--sort=samples lists the hottest instruction first; --no-disasm, --no-source" {
	start range-loops 60
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 1 --sort=samples -o "$OUT" range-loops:loops
	[ "$status" -eq 0 ]
	# the first row after the column header: the hot loop, marked
	grep -A1 '^ *address  function+offset' "$OUT" | tail -1 |
		grep -qE "^> .* range-loops.c:$HOT  "
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 0.5 --no-disasm --no-source -o "$OUT" \
		range-loops:loops
	[ "$status" -eq 0 ]
	grep -q 'loops+0x0 ' "$OUT"
	refute grep -q 'push rbp' "$OUT"
	refute grep -q 'range-loops.c:' "$OUT"
	refute grep -q 'hottest source lines' "$OUT"
}

@test "a kernel range catches the samples of a syscall-heavy workload" {
	run "$BPFPROF" range -F 999 -o "$OUT" read_zero -- "$WORKLOADS/syscall-heavy" 1.5
	echo "$output"
	cat "$OUT"
	[ "$status" -eq 0 ]
	grep -qE '^range 1: read_zero \(kernel symbol\)$' "$OUT"
	grep -qE '^  kernel: read_zero, 0xffff[0-9a-f]+-0xffff[0-9a-f]+ \([0-9]+ bytes\)$' "$OUT"
	[ "$(samples "$OUT")" -gt 300 ]
	# most of the workload's time is in read_zero (clearing the buffer)
	grep -qE '^  [0-9]+ samples, ([5-9][0-9]|100)\.[0-9]% of the targets' "$OUT"
	grep -qE '^> +0xffff[0-9a-f]+  read_zero\+0x[0-9a-f]+ +[0-9]+' "$OUT"
	# kernel:SYMBOL is the same range
	run "$BPFPROF" range -F 999 -o "$OUT" kernel:read_zero -- "$WORKLOADS/syscall-heavy" 0.5
	[ "$status" -eq 0 ]
	[ "$(samples "$OUT")" -gt 100 ]
}

@test "without -o the listing goes to bpfprof-range.txt; the command keeps its stdout and exit status" {
	mkdir "$BATS_TEST_TMPDIR/wd"
	cd "$BATS_TEST_TMPDIR/wd"
	run --separate-stderr "$BPFPROF" range -F 999 read_zero -- \
		sh -c 'echo COMMAND-OUTPUT; "$0" 0.5; exit 3' "$WORKLOADS/syscall-heavy"
	echo "$stderr"
	[ "$status" -eq 3 ]
	[ "$output" = COMMAND-OUTPUT ]
	[[ $stderr == *" Hz effective on the busiest CPU; listing written to 'bpfprof-range.txt'" ]]
	grep -qE '^range 1: read_zero \(kernel symbol\)$' bpfprof-range.txt
	[ "$(samples bpfprof-range.txt)" -gt 10 ]
	# -f json: its own default name
	run --separate-stderr "$BPFPROF" range -q -F 999 -f json read_zero -- "$WORKLOADS/syscall-heavy" 0.3
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' bpfprof-range.json
	[ "$(ls -A | sort | tr '\n' ' ')" = "bpfprof-range.json bpfprof-range.txt " ]
}

@test "two processes of one PIE, at different load addresses, count into one range" {
	start range-loops 60
	start range-loops 60
	local a b
	a=$(awk '/r-xp .*range-loops$/ { print $1; exit }' "/proc/${PIDS[0]}/maps")
	b=$(awk '/r-xp .*range-loops$/ { print $1; exit }' "/proc/${PIDS[1]}/maps")
	echo "load addresses: $a $b"
	[ -n "$a" ]
	[ "$a" != "$b" ]
	run "$BPFPROF" range -p "${PIDS[0]},${PIDS[1]}" -F 999 -d 1.5 -o "$OUT" range-loops:loops
	echo "$output"
	cat "$OUT"
	[ "$status" -eq 0 ]
	local line n0 n1
	line=$(grep '^  counted in 2 processes: ' "$OUT")
	n0=$(echo "$line" | grep -oE "${PIDS[0]} range-loops [0-9]+" | awk '{ print $3 }')
	n1=$(echo "$line" | grep -oE "${PIDS[1]} range-loops [0-9]+" | awk '{ print $3 }')
	# both count, as much as each other (the two spin alike: a loaded
	# machine gives them less time, not less than each other)
	[ "$((n0 + n1))" -gt 300 ]
	[ "$((n0 * 4))" -ge "$((n0 + n1))" ]
	[ "$((n1 * 4))" -ge "$((n0 + n1))" ]
	# one listing in ELF addresses: the two sum up there
	[ "$(samples "$OUT")" -eq $((n0 + n1)) ]
	within "$(line_share "$OUT" "range-loops.c:$HOT")" 80 5
}

@test "a libc range (memset, an IFUNC) catches samples" {
	start range-loops 60
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 1.5 -o "$OUT" libc.so.6:memset
	echo "$output"
	cat "$OUT" 2>/dev/null || true
	if [[ $output == *"has no symbol (install its debug file)"* ]]; then
		skip "no debug file for libc (libc6-dbg) names memset's implementation"
	fi
	[ "$status" -eq 0 ]
	grep -qE '^  binary: /.*/libc\.so\.6$' "$OUT"
	grep -qE '^  symbol: memset \(an IFUNC; here it selects __memset_[a-z0-9_]+\), ' "$OUT"
	[ "$(samples "$OUT")" -gt 10 ]
	grep -qE '^> +0x[0-9a-f]+  __memset_[a-z0-9_]+\+0x[0-9a-f]+ ' "$OUT"
	# and a plain libc function the same way, by its path
	local libc
	libc=$(awk '/r-xp .*libc\.so\.6$/ { print $6; exit }' "/proc/${PIDS[0]}/maps")
	run "$BPFPROF" range -p "${PIDS[0]}" -F 99 -d 0.2 -o "$OUT" "$libc:rand_r"
	[ "$status" -eq 0 ]
	grep -qE '^  symbol: rand_r, 0x[0-9a-f]+-0x[0-9a-f]+ ' "$OUT"
}

@test "absolute addresses count in the one target process" {
	start range-loops 60
	local pid=${PIDS[0]} start pgoff vaddr size lo hi
	read -r start pgoff < <(awk '/r-xp .*range-loops$/ { split($1, a, "-"); print a[1], $3; exit }' \
		"/proc/$pid/maps")
	read -r vaddr size < <(nm -S "$WORKLOADS/range-loops" | awk '$4 == "loops" { print $1, $2 }')
	# the text segment's p_offset equals its p_vaddr in these binaries
	lo=$(printf '0x%x' $((0x$start - 0x$pgoff + 0x$vaddr)))
	hi=$(printf '0x%x' $((lo + 0x$size)))
	run "$BPFPROF" range -p "$pid" -F 999 -d 1 -o "$OUT" "$lo-$hi"
	echo "$output"
	cat "$OUT"
	[ "$status" -eq 0 ]
	[ "$(samples "$OUT")" -gt 250 ]
	# listed at absolute addresses, named and with lines through the mapping
	grep -qE "^  +$lo  loops\\+0x0 " "$OUT"
	within "$(line_share "$OUT" "range-loops.c:$HOT")" 80 5
	# without exactly one target process they mean nothing
	run --separate-stderr "$BPFPROF" range -d 0.1 -o "$OUT" "$lo-$hi"
	[ "$status" -eq 64 ]
	[ "$stderr" = "bpfprof range: range '$lo-$hi': absolute user addresses need exactly one target process (-p PID, or -- COMMAND)" ]
}

@test "an address no symbol covers reads (no symbol) in the function column" {
	# the padding after loops(): the range runs past its st_size up to clear()
	local vaddr size end next
	read -r vaddr size < <(nm -S "$WORKLOADS/range-loops" | awk '$4 == "loops" { print $1, $2 }')
	next=0x$(nm "$WORKLOADS/range-loops" | awk '$3 == "clear" { print $1 }')
	end=$((0x$vaddr + 0x$size))
	[ "$end" -lt "$((next))" ]
	run "$BPFPROF" range -F 99 -o "$OUT" "range-loops:$(printf '0x%x' $((end - 4)))-$next" \
		-- "$WORKLOADS/range-loops" 0.2
	echo "$output"
	cat "$OUT"
	[ "$status" -eq 0 ]
	grep -qE "^ +0x[0-9a-f]+  loops\+0x[0-9a-f]+ " "$OUT"
	grep -qE "^ +$(printf '0x%x' "$end")  \(no symbol\) +0 " "$OUT"
	refute grep -qE '^ +0x[0-9a-f]+  \? ' "$OUT"
}

@test "a binary no target maps: a warning naming it, a header and 0 samples" {
	start range-loops 60
	run --separate-stderr "$BPFPROF" range -p "${PIDS[0]}" -F 99 -d 0.3 -o "$OUT" \
		libnope.so.9:foo range-loops:loops
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "bpfprof range: warning: range 'libnope.so.9:foo': no target process maps libnope.so.9 yet; it counts from when one does" ]
	# and at the end: it never appeared
	[[ $stderr == *"range 'libnope.so.9:foo': no target process mapped libnope.so.9 during the run"* ]]
	grep -q '^range 1: libnope.so.9:foo (symbol in a binary)$' "$OUT"
	grep -q '^  not counted: no target process mapped it' "$OUT"
	[ "$(samples "$OUT" 1)" -eq 0 ]
	[ "$(samples "$OUT" 2)" -gt 0 ]
}

@test "a library loaded with dlopen after the start gets its range resolved" {
	# dlopen-late: 1 s in before_dlopen, then libchain15.so's chain_15 spins
	run --separate-stderr "$BPFPROF" range -F 999 -o "$OUT" libchain15.so:chain_15 \
		-- "$WORKLOADS/dlopen-late" 3 1
	echo "$stderr"
	cat "$OUT"
	[ "$status" -eq 0 ]
	grep -q '^  binary: .*/libchain15.so$' "$OUT"
	grep -qE '^  symbol: chain_15, 0x[0-9a-f]+-0x[0-9a-f]+ ' "$OUT"
	grep -qE '^  counted in 1 process: [0-9]+ dlopen-late [0-9]+$' "$OUT"
	# about 2 of the 3 s are in chain_15 (placed within milliseconds of the
	# dlopen): its share of the samples is the share of CPU time the
	# workload says it spent there
	local in all before chain
	in=$(samples "$OUT")
	all=$(awk '/^  [0-9]+ samples, .* of the targets/ { print $(NF) }' "$OUT")
	[[ $output =~ cpu:\ before_dlopen\ ([0-9.]+)\ s,\ chain_run\ ([0-9.]+)\ s ]]
	before=${BASH_REMATCH[1]/./} chain=${BASH_REMATCH[2]/./}
	[ "$in" -gt 500 ]
	within $(( in * 100 / all )) $(( 10#$chain * 100 / (10#$before + 10#$chain) )) 5
	refute grep -q 'during the run' <<<"$stderr"
}

@test "a library dlopen()ed by a -p target, given by path, is placed when it appears" {
	start dlopen-late 4 1.5
	run --separate-stderr "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 2.5 -o "$OUT" \
		"$WORKLOADS/libchain15.so:chain_15"
	echo "$stderr"
	cat "$OUT"
	[ "$status" -eq 0 ]
	# by path, the symbol is checked before sampling: no warning about it
	[ "$(samples "$OUT")" -gt 300 ]
	grep -qE "^  counted in 1 process: ${PIDS[0]} dlopen-late [0-9]+\$" "$OUT"
}

@test "a command's own binary and its children's count, by file name" {
	run --separate-stderr "$BPFPROF" range -F 999 -o "$OUT" range-loops:loops \
		-- sh -c "'$WORKLOADS/range-loops' 2 & '$WORKLOADS/range-loops' 2; wait"
	echo "$stderr"
	cat "$OUT"
	[ "$status" -eq 0 ]
	# two processes of the PIE, both exec'd after the start
	grep -qE '^  counted in 2 processes: [0-9]+ range-loops [0-9]+, [0-9]+ range-loops [0-9]+$' "$OUT"
	# nearly all of the targets' samples are in loops (a shell and two
	# exec's are the rest), however busy the machine is
	local in all
	in=$(samples "$OUT")
	all=$(awk '/^  [0-9]+ samples, .* of the targets/ { print $(NF) }' "$OUT")
	[ "$in" -gt 400 ]
	[ $(( in * 100 / all )) -ge 85 ]
	within "$(line_share "$OUT" "range-loops.c:$HOT")" 80 5
}

@test "children forked on one CPU and exec'd on the other are all counted" {
	# online CPUs, not this process's affinity: it pins its processes itself
	[ "$(nproc --all)" -ge 2 ] || skip "needs 2 CPUs"
	# A child's FORK record lands in CPU 1's side-band ring, its exec and
	# mappings in CPU 0's. With both CPUs busy and bpfprof at nice 19 it
	# reads late, finds both waiting, and must take them in time order:
	# read ring by ring, the exec comes before the fork, the child is
	# unknown then, and its range is never placed (6 to 18 of 20 counted
	# in half the runs).
	# The spinners keep both CPUs busy while the children run, and are
	# ended with them: bpfprof at nice 19 beside them would take tens of
	# seconds to write its listing.
	local spin=$WORKLOADS/spinner
	for round in 1 2 3; do
		run --separate-stderr nice -n 19 "$BPFPROF" range -F 199 -o "$OUT" \
			range-loops:loops -- nice -n -5 taskset -c 1 sh -c \
			"taskset -c 0 '$spin' 60 & a=\$!; taskset -c 1 '$spin' 60 & b=\$!
			 for i in \$(seq 20); do taskset -c 0 '$WORKLOADS/range-loops' 0.1 & c=\"\$c \$!\"; done
			 wait \$c; kill \$a \$b"
		echo "$stderr"
		cat "$OUT"
		[ "$status" -eq 0 ]
		grep -qE '^  counted in 20 processes: ' "$OUT"
	done
}

@test "a PLT stub by name: NAME@plt, in the executable and in a library" {
	# unwind-plt spends half its CPU time calling the empty plt_leaf through
	# its own PLT, and half in plt_outer calling it through the library's
	run --separate-stderr "$BPFPROF" range -F 999 -o "$OUT" "unwind-plt:plt_leaf@plt" \
		"$WORKLOADS/libunwind-plt.so:plt_leaf@plt" -- "$WORKLOADS/unwind-plt" 2
	echo "$stderr"
	cat "$OUT"
	[ "$status" -eq 0 ]
	# a stub is 16 bytes: the indirect jmp, push, jmp of a lazy PLT entry;
	# the same name in two binaries is each binary's own stub
	grep -qE "^  binary: .*/unwind-plt\$" "$OUT"
	grep -qE "^  binary: .*/libunwind-plt\.so\$" "$OUT"
	[ "$(grep -cE '^  symbol: plt_leaf@plt, 0x[0-9a-f]+-0x[0-9a-f]+ \(16 bytes\)$' "$OUT")" -eq 2 ]
	grep -qE '^>? +0x[0-9a-f]+ +plt_leaf@plt\+0x0 +[0-9]+ .*jmp' "$OUT"
	# each stub takes a few percent of the time at least (each is a fifth
	# or so of its phase's loop, each phase half the time)
	local all
	all=$(awk '/^  [0-9]+ samples, .* of the targets/ { print $(NF); exit }' "$OUT")
	[ $(( $(samples "$OUT" 1) * 100 / all )) -ge 2 ]
	[ $(( $(samples "$OUT" 2) * 100 / all )) -ge 2 ]
	# a stub the binary does not have is an unknown symbol, like any other
	range_fails "unknown symbol 'nope@plt' in $WORKLOADS/unwind-plt; no function there has a name near it" \
		"$WORKLOADS/unwind-plt:nope@plt" -- "$WORKLOADS/unwind-plt" 1
}

@test "a by-name range whose symbol is missing in the binary mapped later: exit 64 then, naming the nearest symbols" {
	# dlopen-late maps libchain15.so after 0.5 s and would run for 20: the
	# run ends when the library is mapped, the command with it, and no
	# listing is written
	run --separate-stderr "$BPFPROF" range -F 999 -o "$OUT" libchain15.so:chain_16 \
		range-loops:loops -- "$WORKLOADS/dlopen-late" 20 0.5
	echo "$stderr"
	[ "$status" -eq 64 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ ${stderr_lines[0]} =~ ^bpfprof\ range:\ range\ \'libchain15\.so:chain_16\':\ unknown\ symbol\ \'chain_16\'\ in\ libchain15\.so\;\ nearest\ names\ there:\ chain_06,\ chain_10,\ chain_11,\ chain_12,\ chain_13\ \(.*/libchain15\.so,\ just\ mapped\ by\ process\ [0-9]+\)$ ]]
	[ ! -e "$OUT" ]
	# the same name given before sampling, where the library is mapped
	start dlopen-late 20 0
	wait_until grep -q libchain15 "/proc/${PIDS[0]}/maps"
	run --separate-stderr "$BPFPROF" range -p "${PIDS[0]}" -d 1 -o "$OUT" libchain15.so:chain_16
	[ "$status" -eq 64 ]
	[[ $stderr == "bpfprof range: unknown symbol 'chain_16' in libchain15.so; nearest names there: chain_06, chain_10, chain_11, chain_12, chain_13" ]]
}

@test "libc's memcpy: the variant this CPU runs, in a note and the header; no warning for a command's library" {
	run --separate-stderr "$BPFPROF" range -F 999 -o "$OUT" libc.so.6:memcpy -- \
		"$WORKLOADS/range-loops" 0.3
	echo "$stderr"
	cat "$OUT"
	[ "$status" -eq 0 ]
	# two symbol versions, the default one an IFUNC: the code it selects here
	[[ $stderr =~ note:\ range\ \'libc\.so\.6:memcpy\':\ 2\ functions\ are\ named\ memcpy\ in\ libc\.so\.6\;\ the\ default\ one\ runs\ (__mem[a-z0-9_]+)\ on\ this\ CPU ]]
	local impl=${BASH_REMATCH[1]}
	grep -q "^  symbol: memcpy (an IFUNC; here it selects $impl), 0x" "$OUT"
	# the command maps libc right after its exec: nothing to warn about
	[[ $stderr != *"no target process maps"* ]]
	[[ $stderr != *ambiguous* ]]
}

@test "--stacks writes the stacks of the in-range samples, a frame per range" {
	local st=$BATS_TEST_TMPDIR/st.folded
	run --separate-stderr "$BPFPROF" range -F 999 -o "$OUT" --stacks "$st" \
		range-loops:loops range-loops:clear -- "$WORKLOADS/range-loops" 2
	echo "$stderr"
	cat "$st"
	[ "$status" -eq 0 ]
	well_formed "$st"
	# every stack starts with its range, then the frame-pointer chain to the leaf
	[ "$(total "$st")" -eq "$(( $(samples "$OUT" 1) + $(samples "$OUT" 2) ))" ]
	[ "$(total "$st" '^range-loops;\[range-loops:loops\];.*main;loops ')" -ge \
		$(( $(samples "$OUT" 1) * 95 / 100 )) ]
	refute grep -vE '^range-loops;\[range-loops:(loops|clear)\];' "$st"
	# one range: no range frame
	run --separate-stderr "$BPFPROF" range -F 999 -o "$OUT" --stacks "$st" \
		range-loops:loops -- "$WORKLOADS/range-loops" 1
	[ "$status" -eq 0 ]
	[ "$(share "$st" ';main;loops ' .)" -ge 95 ]
	refute grep -q '\[range' "$st"
}

@test "--stacks drains the stack maps while sampling: many distinct stacks, none lost" {
	# paths: 65,536 call paths, all ending in spin; at 19,999 Hz the stack
	# maps (16,384 counts at default settings) fill several times over
	local st=$BATS_TEST_TMPDIR/st.folded
	run --separate-stderr "$BPFPROF" range -F 19999 -o "$OUT" --stacks "$st" \
		paths:spin -- "$WORKLOADS/paths" 8
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ $stderr != *"have no stack"* ]]
	kept=$(grep -oE ';a[0-9]+;b[0-9]+;c[0-9]+;d[0-9]+( |;)' "$st" | sort -u | wc -l)
	echo "distinct paths in the stacks: $kept; samples in range $(samples "$OUT" 1)"
	# more than the maps hold at once (16,384 counts), and every in-range
	# sample has its stack
	[ "$kept" -gt 16384 ]
	[ "$(total "$st")" -eq "$(samples "$OUT" 1)" ]
}

@test "--stacks to an unwritable file: exit 64 before sampling" {
	run --separate-stderr "$BPFPROF" range -d 0.1 --stacks /nonexistent/dir/x.folded vfs_read
	[ "$status" -eq 64 ]
	[[ $stderr == "bpfprof range: cannot write '/nonexistent/dir/x.folded': "* ]]
}

# range_fails WANT ARG...: exit 64, nothing on stdout, one line on stderr naming it.
range_fails() {
	local want=$1
	shift
	run --separate-stderr "$BPFPROF" range -d 0.1 "$@"
	echo "status: $status"
	echo "stderr: $stderr"
	[ "$status" -eq 64 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ "$stderr" = "bpfprof range: $want" ]
}

@test "ranges that cannot be resolved: exit 64 and one line naming them, before sampling" {
	start range-loops 60
	local p=${PIDS[0]}
	range_fails "unknown symbol 'no_such_function' in libc.so.6; no function there has a name near it" \
		-p "$p" libc.so.6:no_such_function
	range_fails "unknown symbol 'nope' in range-loops; no function there has a name near it" \
		-p "$p" range-loops:nope
	range_fails "unknown symbol 'loop' in $WORKLOADS/range-loops; nearest names there: loops" \
		"$WORKLOADS/range-loops:loop"
	range_fails "no binary '/nonexistent/libfoo.so': No such file or directory" \
		/nonexistent/libfoo.so:foo
	range_fails "unknown kernel symbol 'no_such_kernel_function'" no_such_kernel_function
	range_fails "binary '/etc/hostname' is not an ELF file" /etc/hostname:main
	range_fails "range 'kernel:0x1000-0x2000': not a kernel address (expected 0xffff800000000000 or above)" \
		kernel:0x1000-0x2000
	# reversed and empty ones are refused by the command line already
	range_fails "invalid range '0x2000-0x1000': the end address is not above the start" \
		0x2000-0x1000
	range_fails "invalid range 'kernel:0xffffffff81000000+0': the range is empty" \
		kernel:0xffffffff81000000+0
	# no output file is left behind
	run "$BPFPROF" range -d 0.1 -o "$OUT" libc.so.6:no_such_function
	[ "$status" -eq 64 ]
	[ ! -e "$OUT" ]
}

@test "record is unchanged: no range map is filled, every sample is kept" {
	run "$BPFPROF" record -F 999 -o "$BATS_TEST_TMPDIR/r.folded" -- "$WORKLOADS/range-loops" 1
	[ "$status" -eq 0 ]
	[[ $output =~ samples\ kept,\ 0\ lost ]]
	[ "$(total "$BATS_TEST_TMPDIR/r.folded" 'main;loops')" -gt 250 ]
}
