#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# bpfprof top, live: as root, on real perf events and a real workload
# (spinner: main -> other_busy_loop). On a terminal (a tmux pane of
# 120x40, read with capture-pane) the hot function is the first row within
# 3 s of bpfprof sampling; q, Ctrl-C and SIGTERM end it, exit 0, with the terminal
# as it was (canonical mode and echo back, the alternate screen left).
# Standard output not a terminal: one plain table a refresh, no escape
# sequence. Conditions are waited for (wait_until), never slept on.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_binary
	cd "$BATS_TEST_TMPDIR"
	# the server's socket in the test's own directory, which bats removes
	SOCK=$BATS_TEST_TMPDIR/tmux.sock
}

teardown() {
	tmux -S "$SOCK" kill-server 2>/dev/null || true
	stop_workloads
}

# pane: what the tmux pane shows now
pane() {
	tmux -S "$SOCK" capture-pane -p
}

# first_row FUNC: the table's first row (after the header's three lines) is FUNC's
first_row() {
	pane | awk 'NR == 4' | grep -qE "%  $1\$"
}

# in_tmux ARGS...: bpfprof top ARGS in a new tmux pane's shell, its pid in
# ./pid; its exit status goes to ./status and the terminal's settings after
# it to ./stty; the pane is $COLS (default 120) wide, 40 high
in_tmux() {
	need_cmd tmux
	tmux -S "$SOCK" new-session -d -x "${COLS:-120}" -y 40 "bash --norc --noprofile"
	tmux -S "$SOCK" send-keys "sh -c 'echo \$\$ >pid; exec \"\$0\" top \"\$@\"' $BPFPROF $*; echo \$? >status; stty -a >stty" Enter
	wait_until test -s pid
	PID=$(cat pid)
	sampling "$PID"
}

need_cmd() {
	command -v "$1" >/dev/null || skip "needs $1"
}

# settled: bpfprof ended and the pane's shell wrote its status and the terminal's settings
settled() {
	[ -s status ] && [ -s stty ]
}

@test "top on a terminal: spinner's loop is the first row within 3 s of sampling; q ends it with 0 and the terminal restored" {
	need_root
	start spinner 60
	in_tmux -p "${PIDS[0]}"
	t0=$(date +%s%N)
	wait_until first_row other_busy_loop
	elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
	pane
	[ "$elapsed_ms" -le 3000 ]
	pane | head -1 | grep -q '^bpfprof top: [0-9]* samples, 0 lost in [0-9.]* s; cpu-clock 99 Hz requested'
	pane | grep -q "^pid ${PIDS[0]}; [0-9]* functions\?; q quits"
	[ "$(tmux -S "$SOCK" display -p '#{alternate_on}')" = 1 ]
	tmux -S "$SOCK" send-keys q
	wait_until settled
	[ "$(cat status)" = 0 ]
	# canonical mode and echo again, the alternate screen left, the cursor shown
	grep -qw icanon stty
	grep -qw echo stty
	refute grep -qw -- -icanon stty
	[ "$(tmux -S "$SOCK" display -p '#{alternate_on}')" = 0 ]
	[ "$(tmux -S "$SOCK" display -p '#{cursor_flag}')" = 1 ]
	refute grep -q other_busy_loop < <(pane)
}

@test "top on a terminal: Ctrl-C ends it with 0 and the terminal restored" {
	need_root
	start spinner 60
	in_tmux -p "${PIDS[0]}" --delay 0.5
	wait_until first_row other_busy_loop
	tmux -S "$SOCK" send-keys C-c
	wait_until settled
	[ "$(cat status)" = 0 ]
	grep -qw icanon stty
	grep -qw echo stty
	[ "$(tmux -S "$SOCK" display -p '#{alternate_on}')" = 0 ]
}

@test "top on a terminal: SIGTERM ends it with 0 and the terminal restored" {
	need_root
	start spinner 60
	in_tmux -p "${PIDS[0]}" --delay 0.5
	wait_until first_row other_busy_loop
	kill -TERM "$PID"
	wait_until settled
	[ "$(cat status)" = 0 ]
	grep -qw icanon stty
	grep -qw echo stty
	[ "$(tmux -S "$SOCK" display -p '#{alternate_on}')" = 0 ]
	[ "$(tmux -S "$SOCK" display -p '#{cursor_flag}')" = 1 ]
}

@test "top with standard output not a terminal: a plain table a refresh, the hot function first, no escape sequence" {
	need_root
	start spinner 60
	run "$BPFPROF" top -p "${PIDS[0]}" -d 2.6 --limit 3
	echo "$output"
	[ "$status" -eq 0 ]
	# a refresh at 1 s and at 2 s (2.6 s from the start of sampling: one
	# more only when the start took more than 0.6 s)
	n=$(grep -c '^bpfprof top: [0-9]* samples, 0 lost in [0-9.]* s' <<<"$output")
	at_least "$n" 2
	[ "$(grep -c '^  self%' <<<"$output")" -eq "$n" ]
	[ "$(awk '/^  self%/ { getline; print $NF }' <<<"$output" | sort -u)" = other_busy_loop ]
	# --limit 3: at most 3 rows a table, then a blank line
	[ "$(awk '/^bpfprof top:/ { r = -2; next } /^$/ { if (r > m) m = r; next } { r++ } END { print m }' <<<"$output")" -le 3 ]
	refute grep -q $'\033' <<<"$output"
}

@test "top -o FILE: the plain tables in FILE, whole at the end, and a line on stderr; a FILE that cannot be written is a usage error" {
	need_root
	start spinner 60
	run --separate-stderr "$BPFPROF" top -p "${PIDS[0]}" -d 1.6 --limit 2 -o tables.txt
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ "$stderr" =~ ^bpfprof\ top:\ [0-9]+\ refresh(es)?\ of\ 1\ s(\ \(the\ last\ [0-9.]+\ s\))?,\ [0-9]+\ samples,\ 0\ lost.*\;\ tables\ written\ to\ \'tables.txt\'$ ]]
	at_least "$(grep -c '^bpfprof top:' tables.txt)" 1
	[ "$(awk '/^  self%/ { getline; print $NF }' tables.txt | sort -u)" = other_busy_loop ]
	refute grep -q $'\033' tables.txt
	run -64 "$BPFPROF" top -o nodir/tables.txt -d 1
	[[ "$output" == *"cannot write 'nodir/tables.txt'"* ]]
}

@test "top -o FILE for less than --delay: one table of the whole run, not an empty file" {
	need_root
	start spinner 60
	run --separate-stderr "$BPFPROF" top -p "${PIDS[0]}" -d 0.6 --delay 5 -o short.txt
	echo "$stderr"
	cat short.txt
	[ "$status" -eq 0 ]
	# the end's table, as record --interval writes its last interval
	[ "$(grep -c '^bpfprof top:' short.txt)" -eq 1 ]
	[[ "$stderr" =~ ^bpfprof\ top:\ 1\ refresh\ of\ 5\ s\ \(the\ last\ 0\.[0-9]+\ s\),\ ([0-9]+)\ samples ]]
	local n=${BASH_REMATCH[1]}
	at_least "$n" 20
	grep -qE "^bpfprof top: $n samples, 0 lost in 0\.[0-9]+ s;" short.txt
	[ "$(awk '/^  self%/ { getline; print $NF }' short.txt)" = other_busy_loop ]
}

@test "top: a bad --delay or --limit is a usage error naming the value" {
	run -64 "$BPFPROF" top --delay 0
	[[ "$output" == *"invalid --delay '0': expected seconds from 0.1 to 3600"* ]]
	run -64 "$BPFPROF" top --delay often
	[[ "$output" == *"invalid --delay 'often'"* ]]
	run -64 "$BPFPROF" top --limit 0
	[[ "$output" == *"invalid --limit '0'"* ]]
}

# faults_top ARGS...: bpfprof top of cpu-clock and page-faults (every 4th)
# on multievent's faults mode, standard output not a terminal
faults_top() {
	start multievent 60 faults
	run --separate-stderr "$BPFPROF" top -e cpu-clock -e page-faults/period=4/ \
		-p "${PIDS[0]}" "$@"
	echo "status $status, stdout: $output, stderr: $stderr"
	[ "$status" -eq 0 ]
}

# event_line EVENT: top's end line of EVENT in $stderr
event_line() {
	grep -F "bpfprof top: $1: " <<<"$stderr"
}

@test "top of two events, not a terminal: the other event's column headed by its whole name, its shares under it" {
	need_root
	faults_top -d 2.6 --limit 3
	n=$(grep -c '^bpfprof top: [0-9]* cpu-clock, [0-9]* page-faults/period=4/ samples, 0 lost in' <<<"$output")
	at_least "$n" 2
	# the column names: page-faults's whole, as wide as its name
	[ "$(grep -cx '  self%       self  total%  page-faults/period=4/  function' <<<"$output")" -eq "$n" ]
	# each row's share ends under the name's last character
	awk '/^  self%/ { end = index($0, "page-faults/period=4/") + 20; next }
		/^ *[0-9.]+%/ { rows++; if (substr($0, end, 1) != "%" || substr($0, end + 1, 2) != "  ") bad++ }
		END { exit !(rows >= 2 && !bad) }' <<<"$output"
}

@test "top of two events: its end line a line per event as record's summary, each event's samples those its tables showed" {
	need_root
	faults_top -d 3.6 --limit 2
	# the run's line: both events' samples, its rate left to the events' lines
	[[ ${stderr_lines[0]} =~ ^bpfprof\ top:\ ([0-9]+)\ refreshes\ of\ 1\ s(\ \(the\ last\ ([0-9.]+)\ s\))?,\ [0-9]+\ samples,\ 0\ lost,\ [0-9.]+\ s$ ]]
	refreshes=${BASH_REMATCH[1]}
	# the refreshes' seconds: 1 each, the end's shorter one its own
	seconds=$(awk -v n="$refreshes" -v last="${BASH_REMATCH[3]}" \
		'BEGIN { print last == "" ? n : n - 1 + last }')
	at_least "$refreshes" 2
	[ "${#stderr_lines[@]}" -eq 3 ]
	[[ $(event_line cpu-clock) =~ ^bpfprof\ top:\ cpu-clock:\ ([0-9]+)\ samples\ kept,\ 0\ lost,\ effective\ rate\ ([0-9]+)\.[0-9]\ Hz\ on\ the\ busiest\ CPU$ ]]
	cpu=${BASH_REMATCH[1]} hz=${BASH_REMATCH[2]}
	[[ $(event_line page-faults/period=4/) =~ ^bpfprof\ top:\ page-faults/period=4/:\ ([0-9]+)\ samples\ kept,\ 0\ lost,\ effective\ rate\ ([0-9]+)\.[0-9]\ samples\ per\ second$ ]]
	faults=${BASH_REMATCH[1]} per_s=${BASH_REMATCH[2]}
	# each event's samples are what its tables counted (a sample taken as a
	# window ends may be shown in the next one: a few apart)
	read -r shown_cpu shown_faults < <(awk '/^bpfprof top: [0-9]+ cpu-clock, / { c += $3; f += $5 }
		END { print c, f }' <<<"$output")
	at_least "$shown_cpu" $((refreshes * 20))
	at_least "$shown_faults" $((refreshes * 100))
	within "$cpu" "$shown_cpu" $((shown_cpu / 50 + 3))
	within "$faults" "$shown_faults" $((shown_faults / 50 + 3))
	# a clock event's rate is the busiest CPU's (99 Hz asked), the other's
	# its samples over the refreshes' seconds
	[ "$hz" -ge 50 ] && [ "$hz" -le 150 ]
	expect=$(awk -v f="$faults" -v s="$seconds" 'BEGIN { printf "%d", f / s }')
	within "$per_s" "$expect" $((expect / 5 + 1))
}

@test "top of two events on a terminal: the column headed by the event's whole name where it fits, cut where the function would not" {
	need_root
	start multievent 60 faults
	in_tmux -e cpu-clock -e page-faults/period=4/ -p "${PIDS[0]}" --delay 0.5
	wait_until first_row compute
	pane
	pane | grep -qx '  self%       self  total%  page-faults/period=4/  function'
	tmux -S "$SOCK" send-keys q
	wait_until settled
	[ "$(cat status)" = 0 ]
	# 60 columns: the event's column leaves the function 20 (28 for self%,
	# self and total%, the rest its name and two spaces)
	tmux -S "$SOCK" kill-server
	rm -f pid status stty
	COLS=60 in_tmux -e cpu-clock -e page-faults/period=4/ -p "${PIDS[0]}" --delay 0.5
	wait_until first_row compute
	pane
	pane | grep -qx '  self%       self  total%  page-fault  function'
	tmux -S "$SOCK" send-keys q
	wait_until settled
}
