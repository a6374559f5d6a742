#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The command-line contract, without root: help, version, and every usage
# error with its exit status (64) and its one line on stderr naming the bad
# value. Nothing here samples: a usage error comes before anything else.
#
# BPFPROF: the binary (default build/src/bpfprof under the repository).

bats_require_minimum_version 1.5.0

load helpers

setup() {
	need_binary
	BIN=$BPFPROF
}

# command_error COMMAND WANT ARG...: `bpfprof COMMAND ARG...` exits 64 with
# exactly one line, on stderr, "bpfprof COMMAND: ..." containing WANT.
command_error() {
	local cmd=$1 want=$2
	shift 2
	run --separate-stderr "$BIN" "$cmd" "$@"
	echo "args: $*"
	echo "status: $status"
	echo "stderr: $stderr"
	echo "stdout: $output"
	[ "$status" -eq 64 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ ${stderr_lines[0]} == "bpfprof $cmd: "* ]]
	[[ $stderr == *"$want"* ]]
}

# usage_error WANT ARG...: command_error for record; range_error: for range.
usage_error() {
	command_error record "$@"
}

range_error() {
	command_error range "$@"
}

# argp_error WANT ARG...: argp's own error (two lines with the hint), exit 64.
argp_error() {
	local want=$1
	shift
	run --separate-stderr "$BIN" record "$@"
	echo "status: $status"
	echo "stderr: $stderr"
	[ "$status" -eq 64 ]
	[ -z "$output" ]
	[[ $stderr == *"$want"* ]]
	[[ $stderr == *"bpfprof record --help"* ]]
}

sysctl_or() {
	cat "/proc/sys/kernel/$1" 2>/dev/null || echo "$2"
}

# --- help and version -------------------------------------------------------

@test "bpfprof --help, -h and help list the commands and point to more help" {
	for arg in --help -h help; do
		run --separate-stderr "$BIN" "$arg"
		[ "$status" -eq 0 ]
		[[ $output == *"Usage: bpfprof COMMAND"* ]]
		[[ $output == *"record"* ]]
		[[ $output == *"bpfprof record --help"* ]]
		[[ $output == *"man bpfprof"* ]]
		[ -z "$stderr" ]
	done
}

@test "bpfprof record --help shows option groups and examples" {
	run --separate-stderr "$BIN" record --help
	[ "$status" -eq 0 ]
	[[ $output == *"Usage: bpfprof record [OPTION...] [-- COMMAND [ARG...]]"* ]]
	[[ $output == *"Targets"* ]]
	[[ $output == *"Sampling:"* ]]
	[[ $output == *"Output:"* ]]
	[[ $output == *"Examples:"* ]]
	[[ $output == *"bpfprof record -d 10 -o out.folded"* ]]
	[[ $output == *"bpfprof record -p 1234 -F 999 -d 5"* ]]
	[[ $output == *"bpfprof record -- make -j2"* ]]
	[[ $output == *"bpfprof record -G system.slice/nginx.service -d 30 --per-pid"* ]]
	# the event list comes from the event table
	[[ $output == *"cpu-clock, task-clock"* ]]
	[[ $output == *"ref-cycles"* ]]
	# bench-only options stay hidden
	[[ $output != *"empty-handler"* ]]
}

@test "bpfprof record -? and --usage" {
	run "$BIN" record '-?'
	[ "$status" -eq 0 ]
	[[ $output == *"Examples:"* ]]
	run "$BIN" record --usage
	[ "$status" -eq 0 ]
	[[ $output == *"Usage: bpfprof record"* ]]
	[[ $output == *"--max-depth=N"* ]]
}

@test "bpfprof --version, -V and version print version, libraries and features" {
	for arg in --version -V version; do
		run --separate-stderr "$BIN" "$arg"
		[ "$status" -eq 0 ]
		[[ ${lines[0]} =~ ^bpfprof\ [0-9]+\.[0-9]+\.[0-9]+ ]]
		[[ ${lines[1]} =~ ^libbpf\ [0-9.]+,\ libelf\ [0-9.]+,\ libdw\ [0-9.]+$ ]]
		[[ ${lines[2]} =~ ^features:\ . ]]
		[ "${#lines[@]}" -eq 3 ]
	done
}

@test "bpfprof record --version and -V print the version" {
	for arg in --version -V; do
		run "$BIN" record "$arg"
		[ "$status" -eq 0 ]
		[[ $output =~ ^bpfprof\ [0-9]+\.[0-9]+ ]]
	done
}

# --- the command line of bpfprof itself -------------------------------------

@test "no arguments: usage on stderr, exit 64" {
	run --separate-stderr "$BIN"
	[ "$status" -eq 64 ]
	[ -z "$output" ]
	[[ $stderr == *"Usage: bpfprof COMMAND"* ]]
}

@test "an unknown command: one line, exit 64" {
	run --separate-stderr "$BIN" foo
	[ "$status" -eq 64 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ "$stderr" = "bpfprof: unknown command 'foo' (expected: record, range, watch, top, report, diff, list)" ]
}

@test "an unknown top-level option: one line, exit 64" {
	run --separate-stderr "$BIN" --frobnicate
	[ "$status" -eq 64 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"'--frobnicate'"* ]]
}

# --- argp's own errors ------------------------------------------------------

@test "record: an unknown option, exit 64" {
	argp_error "'--frobnicate'" --frobnicate
	argp_error "-- 'z'" -z
}

@test "record: an option without its value, exit 64" {
	argp_error "'F'" -F
	argp_error "'--duration'" --duration
}

@test "record: a value given to an option that takes none, exit 64" {
	argp_error "'--quiet'" --quiet=yes
}

# --- numbers ----------------------------------------------------------------

@test "record -F: malformed, zero, above the kernel's limit, overflowing" {
	local max
	max=$(sysctl_or perf_event_max_sample_rate 100000)
	usage_error "invalid --freq '0': expected an integer from 1 to $max" -F 0
	usage_error "invalid --freq 'abc': expected an integer from 1 to $max" -F abc
	usage_error "invalid --freq '$((max + 1))'" -F $((max + 1))
	usage_error "invalid --freq '99999999999999999999'" -F 99999999999999999999
	usage_error "invalid --freq '-5'" --freq=-5
	usage_error "invalid --freq '1.5'" -F 1.5
	usage_error "invalid --freq ''" --freq=
	usage_error "invalid --freq '10k'" -F10k
}

@test "record -c: malformed or zero" {
	usage_error "invalid --period '0': expected an integer from 1 to" -c 0
	usage_error "invalid --period 'x'" --period x
	usage_error "invalid --period '99999999999999999999'" -c 99999999999999999999
}

@test "record -d: zero, negative, malformed, too long" {
	usage_error "invalid --duration '0'" -d 0
	usage_error "invalid --duration '0.0'" -d 0.0
	usage_error "invalid --duration '-1'" -d -1
	usage_error "invalid --duration 'abc'" -d abc
	usage_error "invalid --duration '1e3'" -d 1e3
	usage_error "invalid --duration '10s'" --duration=10s
	usage_error "invalid --duration '99999999999'" -d 99999999999
	usage_error "expected a number of seconds" -d x
}

@test "record --max-depth: 1 up to kernel.perf_event_max_stack" {
	local max
	max=$(sysctl_or perf_event_max_stack 127)
	usage_error "invalid --max-depth '0': expected an integer from 1 to $max" --max-depth 0
	usage_error "invalid --max-depth '$((max + 1))'" --max-depth $((max + 1))
	usage_error "invalid --max-depth 'deep'" --max-depth=deep
}

@test "record --max-stacks: 1 up to 16777216" {
	usage_error "invalid --max-stacks '0': expected an integer from 1 to 16777216" \
		--max-stacks 0
	usage_error "invalid --max-stacks '16777217'" --max-stacks 16777217
	usage_error "invalid --max-stacks 'lots'" --max-stacks lots
}

# --- options that cannot be combined ----------------------------------------

@test "record: -F with -c" {
	usage_error "-F/--freq 99 and -c/--period 1000 cannot be used together" -F 99 -c 1000
}

@test "record: -U with -K" {
	usage_error "-U/--user-only and -K/--kernel-only cannot be used together" -U -K
}

@test "record: -a with -p or -t" {
	usage_error "-a/--all-cpus cannot be used with -p/--pid" -a -p $$
	usage_error "-a/--all-cpus cannot be used with -t/--tid" -t $$ -a
}

# --- targets ----------------------------------------------------------------

@test "record -p: a process that does not exist" {
	local pid
	pid=$(($(sysctl_or pid_max 4194304) + 1))
	usage_error "no process with pid $pid" -p "$pid"
	usage_error "no process with pid $pid" -p "$$,$pid"
	usage_error "no process with pid 0" -p 0
}

@test "record -p: malformed lists" {
	usage_error "invalid --pid 'x': expected a comma-separated list of process ids" -p x
	usage_error "invalid --pid '1,'" -p 1,
	usage_error "invalid --pid ''" --pid=
	usage_error "invalid --pid '1-3'" -p 1-3
	usage_error "invalid --pid '99999999999999999999'" -p 99999999999999999999
}

@test "record -p: a thread that is not a process names its process" {
	local task tid pid
	for task in /proc/[0-9]*/task/[0-9]*; do
		tid=${task##*/}
		pid=${task#/proc/}
		pid=${pid%%/*}
		[ "$tid" != "$pid" ] && break
		tid=
	done
	[ -n "$tid" ] || skip "no multi-threaded process is running"
	usage_error "pid $tid is a thread of process $pid: use -t $tid or -p $pid" -p "$tid"
}

@test "record -t: a thread that does not exist, malformed lists" {
	local tid
	tid=$(($(sysctl_or pid_max 4194304) + 1))
	usage_error "no thread with tid $tid" -t "$tid"
	usage_error "invalid --tid 'main': expected a comma-separated list of thread ids" -t main
	usage_error "invalid --tid '1,,2'" --tid 1,,2
}

@test "record -C: CPUs that are not online" {
	local online last
	online=$(cat /sys/devices/system/cpu/online)
	last=${online##*[,-]}
	usage_error "CPU $((last + 1)) is not online (online: $online)" -C $((last + 1))
	usage_error "CPU $((last + 1)) is not online (online: $online)" -C "0-$((last + 1))"
	usage_error "CPU 99999999999999999999 is not online" -C 99999999999999999999
}

@test "record -C: malformed lists" {
	usage_error "invalid --cpu '0,,1': expected CPU numbers and ranges like 0,2-3" -C 0,,1
	usage_error "invalid --cpu 'a'" -C a
	usage_error "invalid --cpu '0-1-2'" -C 0-1-2
	usage_error "invalid --cpu '-1'" --cpu=-1
	usage_error "invalid --cpu '0-'" --cpu=0-
	usage_error "invalid --cpu ''" --cpu=
	usage_error "invalid --cpu '1-0'" -C 1-0
	usage_error "invalid --cpu '99999-0'" -C 99999-0
	usage_error "invalid --cpu '0,99999x'" -C 0,99999x
}

@test "record -G: a cgroup that does not exist names the path and the mount" {
	usage_error "'no-such-cgroup-$$'" -G "no-such-cgroup-$$"
	grep -qw cgroup2 /proc/self/mountinfo || skip "no cgroup2 mount"
	usage_error "no cgroup 'no-such-cgroup-$$' in the cgroup2 hierarchy at /" \
		-G "no-such-cgroup-$$"
	usage_error "no cgroup '../../../etc'" --cgroup=../../../etc
	usage_error "invalid --cgroup 'cgroup.procs': Not a directory" -G cgroup.procs
}

# --- sampling and output ----------------------------------------------------

@test "record -e: an unknown event names the nearest known ones, else the forms an event takes" {
	usage_error "unknown event 'foo': expected an event name (cpu-clock, cycles, ...)" -e foo
	usage_error "unknown event 'CPU-CLOCK'" --event=CPU-CLOCK
	usage_error "unknown event 'cpu-clok' (did you mean: cpu-clock" -e cpu-clok
	usage_error "empty event" --event=
}

@test "record -f: an unknown format" {
	usage_error "invalid --format 'x': expected folded, pprof, svg, top, json" --format=x -o out.folded
}

@test "record --demangle: an unknown mode" {
	usage_error "invalid --demangle 'long': expected short, full, none" --demangle=long
	usage_error "invalid --demangle '': expected short, full, none" --demangle ''
	usage_error "invalid --demangle 'FULL': expected short, full, none" --demangle FULL
}

@test "-o and --stacks: an extension of a format bpfprof does not write is refused, the formats listed" {
	local mark=$BATS_TEST_TMPDIR/ran d=$BATS_TEST_TMPDIR
	local folded="a profile is written as folded (.folded, the default), pprof (.pb.gz), svg (.svg), top (.top) or json (.json)"
	local listing="a listing is written as text (the default) or json (.json)"
	usage_error "invalid --output '$d/out.html': .html is an HTML page, a format bpfprof does not write; $folded" \
		-o "$d/out.html" -- touch "$mark"
	usage_error "invalid --output '$d/out.pb': .pb is uncompressed protobuf (pprof is written gzipped, as .pb.gz), a format bpfprof does not write; $folded" \
		-o "$d/out.pb" -- touch "$mark"
	usage_error "invalid --output '$d/perf.data': .data is perf's perf.data, a format bpfprof does not write; $folded" \
		-o "$d/perf.data" -- touch "$mark"
	usage_error "invalid --output 'OUT.PPROF': .pprof is pprof" -o OUT.PPROF -- touch "$mark"
	usage_error "invalid --output 'x.folded.gz': .gz is gzip-compressed data" -o x.folded.gz
	range_error "invalid --output 'x.folded': .folded is bpfprof's folded format for a profile, not a listing; $listing" \
		-o x.folded vfs_read -- touch "$mark"
	range_error "invalid --output 'x.svg': .svg is bpfprof's svg format for a profile, not a listing; $listing" \
		-o x.svg vfs_read
	range_error "invalid --output 'x.TOP': .top is bpfprof's top format for a profile, not a listing; $listing" \
		-o x.TOP vfs_read
	range_error "invalid --stacks 'x.pb': .pb is uncompressed protobuf (pprof is written gzipped, as .pb.gz), a format bpfprof does not write; $folded" \
		--stacks x.pb vfs_read
	[ ! -e "$mark" ]
	[ ! -e "$d/out.html" ] && [ ! -e "$d/out.pb" ] && [ ! -e "$d/perf.data" ]
}

@test "-o: an image, a document or an .svgz is refused rather than given folded text" {
	local mark=$BATS_TEST_TMPDIR/ran d=$BATS_TEST_TMPDIR f e
	local folded="a profile is written as folded (.folded, the default), pprof (.pb.gz), svg (.svg), top (.top) or json (.json)"
	usage_error "invalid --output '$d/flame.png': .png is a PNG image, a format bpfprof does not write; $folded" \
		-o "$d/flame.png" -- touch "$mark"
	usage_error "invalid --output '$d/p.svgz': .svgz is a gzip-compressed SVG (svg is written uncompressed, as .svg), a format bpfprof does not write; $folded" \
		-o "$d/p.svgz" -- touch "$mark"
	usage_error "invalid --output '$d/p.pdf': .pdf is a PDF document, a format bpfprof does not write; $folded" \
		-o "$d/p.pdf" -- touch "$mark"
	for f in x.JPG x.jpeg x.gif x.webp x.bmp x.tif x.tiff x.ps x.eps x.dot x.zip x.lz4; do
		e=${f#x.}
		usage_error "invalid --output '$f': .${e,,} is " -o "$f" -- touch "$mark"
	done
	usage_error "invalid --output 'p-%n.png': .png is a PNG image" --interval 1 -o 'p-%n.png' -- touch "$mark"
	command_error report "invalid --output 'flame.png': .png is a PNG image" -o flame.png in.folded
	range_error "invalid --stacks 'x.pdf': .pdf is a PDF document" --stacks x.pdf vfs_read
	[ ! -e "$mark" ]
	[ ! -e "$d/flame.png" ] && [ ! -e "$d/p.svgz" ] && [ ! -e "$d/p.pdf" ]
}

@test "-F max is the kernel's kernel.perf_event_max_sample_rate" {
	local max
	max=$(sysctl_or perf_event_max_sample_rate 100000)
	# the conflict with -c shows the rate -F max stands for, before anything samples
	usage_error "-F/--freq $max and -c/--period 7 cannot be used together" -F max -c 7
	range_error "-F/--freq $max and -c/--period 7 cannot be used together" -F max -c 7 vfs_read
	usage_error "invalid --freq 'MAX': expected an integer from 1 to $max, or max" -F MAX
}

@test "record --call-graph: perf's fp, dwarf, dwarf,SIZE and lbr; anything else is refused" {
	usage_error "invalid --call-graph 'lbr,1': expected fp, dwarf, dwarf,SIZE or lbr (perf's spellings of --unwind)" \
		--call-graph=lbr,1
	usage_error "invalid --call-graph 'dwarf,'" --call-graph=dwarf,
	usage_error "invalid --call-graph 'auto'" --call-graph auto
	# accepted: the error is the later one
	for m in fp dwarf dwarf,8192 lbr; do
		usage_error "-U/--user-only and -K/--kernel-only" --call-graph=$m -U -K
	done
	usage_error "-U/--user-only and -K/--kernel-only" -g -U -K
	# record's: range has no stacks to unwind unless --stacks, and no --unwind
	run --separate-stderr "$BIN" range --call-graph=fp vfs_read
	[ "$status" -eq 64 ]
	[[ $stderr == *"unrecognized option '--call-graph=fp'"* ]]
	run --separate-stderr "$BIN" range -g vfs_read
	[ "$status" -eq 64 ]
	[[ $stderr == *"invalid option -- 'g'"* ]]
}

@test "--unwind, --unwind-memory, --no-unwind-hold: record's, top's, range's (with --stacks) and watch's" {
	local cmd args
	for cmd in record top range watch; do
		args=()
		[ "$cmd" = range ] && args=(--stacks "$BATS_TEST_TMPDIR/s.folded" vfs_read)
		[ "$cmd" = watch ] && args=(counter)
		command_error "$cmd" "invalid --unwind 'bogus': expected auto, dwarf, fp" \
			--unwind=bogus "${args[@]}"
		command_error "$cmd" "invalid --unwind 'FP': expected auto, dwarf, fp" \
			--unwind FP "${args[@]}"
		command_error "$cmd" "invalid --unwind-memory '1K': expected a size from 64K to" \
			--unwind-memory=1K "${args[@]}"
		# accepted: the error is the later one
		for m in auto dwarf fp; do
			command_error "$cmd" "invalid --freq '0'" --unwind=$m --unwind-memory=64M \
				--no-unwind-hold -F 0 "${args[@]}"
		done
	done
	# range unwinds the stacks of --stacks only
	range_error "--unwind is for the stacks --stacks writes: expected --stacks FILE with it" \
		--unwind=fp vfs_read
	range_error "--no-unwind-hold is for the stacks --stacks writes" --no-unwind-hold vfs_read
	"$BIN" top --help | grep -q -- '--unwind=MODE'
	"$BIN" range --help | grep -q -- '--unwind-memory=SIZE'
	"$BIN" watch --help | grep -q -- '--no-unwind-hold'
}

# --- ordering ---------------------------------------------------------------

@test "a usage error is reported before the command runs" {
	local mark=$BATS_TEST_TMPDIR/ran
	usage_error "invalid --freq '0'" -F 0 -- touch "$mark"
	[ ! -e "$mark" ]
	usage_error "unknown event 'nope'" -e nope touch "$mark"
	[ ! -e "$mark" ]
}

@test "the options after the command belong to the command" {
	local mark=$BATS_TEST_TMPDIR/ran
	# -F 0 after COMMAND is COMMAND's argument; the error is the earlier one
	usage_error "unknown event 'nope'" -e nope -- touch "$mark" -F 0
	usage_error "unknown event 'nope'" -e nope touch "$mark" -F 0
}

@test "usage errors need no privileges" {
	[ "$(id -u)" -eq 0 ] || skip "already unprivileged: covered by the other tests"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) not installed"
	stage_for_nobody "$BIN" || skip "user nobody cannot reach $NOBODY"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NOBODY/bpfprof" record -F 0 -d 1
	[ "$status" -eq 64 ]
	[ "$stderr" = "bpfprof record: invalid --freq '0': expected an integer from 1 to $(sysctl_or perf_event_max_sample_rate 100000), or max" ]
}

# --- bpfprof range ----------------------------------------------------------

@test "bpfprof range --help shows the RANGE forms, option groups and examples" {
	run --separate-stderr "$BIN" range --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ $output == *"Usage: bpfprof range [OPTION...] RANGE... [-- COMMAND [ARG...]]"* ]]
	[[ $output == *"Targets"* ]]
	[[ $output == *"Sampling:"* ]]
	[[ $output == *"Output:"* ]]
	[[ $output == *"kernel:0xSTART-0xEND"* ]]
	[[ $output == *"BINARY:SYMBOL"* ]]
	[[ $output == *"--sort=ORDER"* ]]
	[[ $output == *"--no-disasm"* ]]
	[[ $output == *"Examples:"* ]]
	# the shared options, the event list with them; none of record's own
	[[ $output == *"--pid=PID"* ]]
	[[ $output == *"cpu-clock, task-clock"* ]]
	[[ $output != *"--max-stacks"* ]]
	[[ $output != *"--per-pid"* ]]
}

@test "bpfprof --help lists range" {
	run "$BIN" --help
	[ "$status" -eq 0 ]
	[[ $output == *"  range "* ]]
	[[ $output == *"man bpfprof-range"* ]]
}

@test "range: no RANGE at all" {
	range_error "no RANGE given: expected at least one, e.g. kernel:vfs_read"
	range_error "no RANGE given" -d 1 -F 99
	# what follows -- is the command, not a range
	range_error "no RANGE given" -- 0x2-0x1
}

@test "range: malformed ranges name the value and what is wrong" {
	range_error "invalid range '0x2000-0x1000': the end address is not above the start" \
		0x2000-0x1000
	range_error "invalid range '0x1000+0': the range is empty" 0x1000+0
	range_error "invalid range 'kernel:0x10-0x10': the range is empty" kernel:0x10-0x10
	range_error "invalid range 'libc.so.6:': the symbol name is empty" libc.so.6:
	range_error "invalid range ':memset': the binary name is empty" :memset
	range_error "invalid range '': the range is empty" ''
	range_error "invalid range '0x1000-0x2000x': junk after the end of the range" \
		0x1000-0x2000x
	range_error "invalid range 'foo/bar': not a kernel symbol name" foo/bar
	range_error "invalid range 'prog:0x10-': the end address is missing" prog:0x10-
}

@test "range: a malformed range after a good one, before the command runs" {
	local mark=$BATS_TEST_TMPDIR/ran
	range_error "invalid range '0x3-0x1'" kernel:vfs_read 0x3-0x1 -- touch "$mark"
	[ ! -e "$mark" ]
}

@test "range --sort: address or samples" {
	range_error "invalid --sort 'hot': expected address, samples" --sort=hot vfs_read
	range_error "invalid --sort '': expected address, samples" --sort= vfs_read
}

@test "range: the shared options are checked as in record" {
	range_error "invalid --freq '0': expected an integer from 1 to" -F 0 vfs_read
	range_error "-F/--freq 99 and -c/--period 1000 cannot be used together" \
		-F 99 -c 1000 vfs_read
	range_error "unknown event 'nope'" -e nope vfs_read
	range_error "invalid --duration 'x'" -d x vfs_read
	range_error "-a/--all-cpus cannot be used with -p/--pid" -a -p $$ vfs_read
	range_error "invalid --demangle 'long'" --demangle=long vfs_read
}

@test "range: record-only options are unknown" {
	run --separate-stderr "$BIN" range --max-stacks 10 vfs_read
	[ "$status" -eq 64 ]
	[[ $stderr == *"--max-stacks"* ]]
	[[ $stderr == *"bpfprof range --help"* ]]
}
