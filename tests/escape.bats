#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Names from outside, as root: control bytes (ESC, BEL, 0x88) in perf map
# entries and ELF symbol names reach no output file and no terminal raw;
# hostile perf maps (an entry of impossible size, a map bigger than
# --jit-map-max) neither swallow names nor memory. Shares are asserted,
# never exact counts.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/out.folded
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	# the workloads' perf maps (bpfprof reads them after the exit)
	[ ! -s pid ] || rm -f "/tmp/perf-$(cat pid).map"
}

# raw FILE: the number of lines of FILE with a byte that is not printable ASCII
raw() {
	LC_ALL=C grep -caP '[^\x20-\x7e]' "$1" || true
}

# jit_anon ARGS...: record jit-anon ARGS (see tests/workloads/jit-anon.c) as the
# command, its pid in ./pid (its perf map is /tmp/perf-PID.map); extra
# bpfprof options in JIT_OPTS
jit_anon() {
	run "$BPFPROF" record "${JIT_OPTS[@]}" -F 999 -o "$OUT" -- \
		sh -c "echo \$\$ >pid && exec '$WORKLOADS/jit-anon' $*"
}

@test "JIT names with ESC, BEL and 0x88 from a perf map are escaped in folded output" {
	JIT_OPTS=()
	jit_anon 1.5 hostile
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	[ "$(raw "$OUT")" -eq 0 ]
	grep -qF 'jit\x1b[2J\x07bell\x88end_[j]' "$OUT"
	[ "$(share "$OUT" ';jit.x1b.2J.x07bell.x88end_.j. [0-9]+$' '^jit-anon;')" -ge 50 ]
}

@test "a symbol name with control bytes is escaped in folded output and in the range listing" {
	local name=$'evil\x1b[31m\a\\name\x88' escaped='evil\x1b[31m\x07\\name\x88'
	run "$BPFPROF" record -F 999 -o "$OUT" -- "$WORKLOADS/hostile-names" 1
	[ "$status" -eq 0 ]
	well_formed "$OUT"
	[ "$(raw "$OUT")" -eq 0 ]
	grep -qF ";$escaped " "$OUT"
	[ "$(share "$OUT" ';evil.x1b.31m.x07..name.x88 [0-9]+$' '^hostile-names;')" -ge 50 ]

	local list=$BATS_TEST_TMPDIR/list.txt
	run "$BPFPROF" range -F 999 -o "$list" "hostile-names:$name" -- "$WORKLOADS/hostile-names" 1
	[ "$status" -eq 0 ]
	[ "$(raw "$list")" -eq 0 ]
	[ "$(printf '%s\n' "$output" | raw /dev/stdin)" -eq 0 ]
	grep -qF "  symbol: $escaped, 0x" "$list"
	grep -qE "^>? +0x[0-9a-f]+  evil.x1b.31m.x07..name.x88\+0x[0-9a-f]+ " "$list"
}

@test "an error quoting a name is escaped on the terminal" {
	# (an unknown symbol ends the run when its binary is mapped, issue 14:
	# no listing is written, the error quotes the name)
	local list=$BATS_TEST_TMPDIR/list.txt
	run "$BPFPROF" range -F 999 -o "$list" \
		"hostile-names:"$'no\x1b]0;title\asuch' -- "$WORKLOADS/hostile-names" 0.2
	[ "$status" -eq 64 ]
	[ "$(printf '%s\n' "$output" | raw /dev/stdin)" -eq 0 ]
	[[ "$output" == *"range 'hostile-names:no\x1b]0;title\x07such': unknown symbol 'no\x1b]0;title\x07such' in hostile-names"* ]]
	[ ! -e "$list" ]
}

@test "a perf map entry of size 0xffffffffffffffff does not swallow the other names" {
	JIT_OPTS=()
	jit_anon 1.5 huge
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: JIT map /tmp/perf-$(cat pid).map: 1 entry with an impossible size, cut at the next entry"* ]]
	[ "$(total "$OUT" 'swallow')" -eq 0 ]
	[ "$(share "$OUT" ';jit_hot_\[j\] [0-9]+$' '^jit-anon;')" -ge 50 ]
}

# maxrss ARGS...: jit_anon ARGS under /usr/bin/time; bpfprof's peak RSS in KiB
# in $RSS
maxrss() {
	run /usr/bin/time -f 'maxrss %M' -o "$BATS_TEST_TMPDIR/time" "$BPFPROF" record \
		"${JIT_OPTS[@]}" -F 999 -o "$OUT" -- sh -c "echo \$\$ >pid && exec '$WORKLOADS/jit-anon' $*"
	RSS=$(awk '/^maxrss/ { print $2 }' "$BATS_TEST_TMPDIR/time")
}

@test "a perf map bigger than --jit-map-max is read up to it, with a warning, in bounded memory" {
	command -v /usr/bin/time >/dev/null || skip "GNU time not installed (Debian time)"
	JIT_OPTS=(--jit-map-max=1M)
	maxrss 1 huge
	[ "$status" -eq 0 ]
	local small=$RSS
	rm -f "/tmp/perf-$(cat pid).map"
	# 32 MiB of filler entries, then the code's: read whole, that is > 64 MiB of RSS
	maxrss 1.5 big=32
	[ "$status" -eq 0 ]
	[[ "$output" =~ "warning: JIT map /tmp/perf-$(cat pid).map larger than --jit-map-max: "([0-9]+)" bytes not read" ]]
	(( BASH_REMATCH[1] > 30 << 20 ))
	# the code's entry came after the cap: its frames (1.5 s of them, after
	# the map is written) are addresses
	[ "$(total "$OUT" 'jit_hot')" -eq 0 ]
	[ "$(total "$OUT" ';\[anon\+0x[0-9a-f]+\] [0-9]+$')" -ge 300 ]
	echo "peak RSS: $small KiB with a small map, $RSS KiB with 32 MiB capped at 1 MiB"
	(( RSS - small < 24 << 10 ))
}

@test "--jit-map-max takes sizes from 4K to 4G" {
	run "$BPFPROF" record --jit-map-max=2K -- true
	[ "$status" -eq 64 ]
	[[ "$output" == *"invalid --jit-map-max '2K': expected a size from 4K to 4G, e.g. 64M"* ]]
	run "$BPFPROF" range --jit-map-max=lots -p 1 kernel:schedule
	[ "$status" -eq 64 ]
	[[ "$output" == *"invalid --jit-map-max 'lots'"* ]]
}

# no_raw FILE: FILE holds no control byte but newlines (ESC, BEL, DEL, CR...)
no_raw() {
	! LC_ALL=C grep -qaP '[\x00-\x09\x0b-\x1f\x7f]' "$1"
}

# refused WANT ARGS...: bpfprof ARGS is a usage error whose stderr quotes
# WANT (escaped) and holds no raw control byte
refused() {
	local want=$1 err=$BATS_TEST_TMPDIR/err
	shift
	run -64 --separate-stderr "$BPFPROF" "$@"
	printf '%s\n' "$stderr" >"$err"
	cat -v "$err"
	no_raw "$err"
	grep -qF -- "$want" "$err"
}

@test "errors quoting the user's input escape its control bytes: options, events, names, locations, ranges" {
	local esc=$'\e[31m' bel=$'\a' w=$WORKLOADS/watchme
	refused "invalid --if 'value == 1\\x1b[31m'" watch --if "value == 1$esc" counter -- "$w" basic 1
	refused "unknown event 'cpu\\x1b[31m\\x07'" record -e "cpu$esc$bel" -- true
	refused "invalid --output 'p\\x1b[31m.data'" record -o "p$esc.data" -- true
	refused "invalid --pid '1\\x1b[31m'" record -p "1$esc"
	refused "invalid --duration '1\\x0d'" record -d $'1\r' -- true
	refused "invalid range 'x\\x1b[31m'" range "x$esc" -- true
	refused "unrecognized option '--\\x1b[31m'" record "--$esc" -- true
	refused "unknown command 'r\\x1b[31m'" "r$esc"
	# a symbol is looked up once the command is forked: the session's error
	refused "location 'cou\\x1b[31mnter': no symbol 'cou\\x1b[31mnter'" \
		watch -o "$OUT" "cou${esc}nter" -- "$w" basic 1
	[ ! -e "$OUT" ]
}
