#!/usr/bin/env bats
# bpfprof list (src/list/, src/kernel/evprobe.c): every event bpfprof can
# name, each opened on this machine to say whether it can be used and why
# not; PATTERNs, --available, -f json, another machine's PMUs (the hidden
# --sysfs-root, on tests/fixtures/pmu-intel and on a hostile one made here),
# libpfm4's names for -e when built with it, and what an unprivileged user
# is told (setpriv to nobody). Root: the probes open
# perf events system-wide, as a run does.
# suite-lock: debugregs (its probe of the breakpoint event takes a debug
# register: beside a suite holding all four it cannot open, ENOSPC)

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	PIDS=()
}

teardown() {
	stop_workloads
}

# no_core_pmu: this machine has no hardware PMU (the development VM)
no_core_pmu() {
	[ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]
}

# line NAME: the text line of event NAME in $output
line() {
	awk -v n="$1" '$1 == n' <<<"$output"
}

# json_check PYTHON: run the Python code on `list -f json`'s array (as ev)
json_check() {
	python3 -c "import json, sys
ev = json.load(sys.stdin)
$1" <<<"$output"
}

@test "list: cpu-clock opens, the breakpoint PMU is there, cycles says why not" {
	run --separate-stderr "$BPFPROF" list
	echo "$output" | head -60
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ $(line cpu-clock) =~ ^cpu-clock\ +\[software\]\ +[a-z] ]]
	[[ $(line cpu-clock) != *"not supported"* ]]
	[[ $(line page-faults) == *"[software]"* ]]
	line 'mem:ADDR[/LEN][:rwx]' | grep -q '\[breakpoint\]'
	line 'mem:ADDR[/LEN][:rwx]' | refute grep -q 'not supported'
	[[ $(line L1-dcache-load-misses) == *"[cache]"* ]]
	if no_core_pmu; then
		[[ $(line cycles) == *"[hardware]  not supported: no hardware PMU"* ]]
		[[ $(line L1-dcache-load-misses) == *"not supported: no hardware PMU"* ]]
	else
		[[ $(line cycles) != *"no hardware PMU"* ]]
	fi
	# every named event of every sysfs PMU of this machine is there
	local pmu ev
	for pmu in /sys/bus/event_source/devices/*/events; do
		for ev in "$pmu"/*; do
			[[ $ev == *.* ]] && continue
			ev=$(basename "$(dirname "$pmu")")/$(basename "$ev")/
			line "$ev" | grep -q '\[pmu\]' || { echo "no $ev"; return 1; }
		done
	done
}

@test "list --available: only what opens; cycles goes where there is no PMU" {
	run --separate-stderr "$BPFPROF" list --available
	echo "$output"
	[ "$status" -eq 0 ]
	line cpu-clock | grep -q '\[software\]'
	line 'mem:ADDR[/LEN][:rwx]' | grep -q '\[breakpoint\]'
	refute grep -qE 'not supported|not permitted|cannot open|not on this machine' <<<"$output"
	if no_core_pmu; then
		[ -z "$(line cycles)" ]
		[ -z "$(line L1-dcache-loads)" ]
		run --separate-stderr "$BPFPROF" list --available cycles
		echo "$stderr"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[[ $stderr == "bpfprof list: no event matching 'cycles' opens on this machine ("*"run without --available to see why)" ]]
	fi
}

@test "list without privileges: the events that exist say not permitted, the rest why not" {
	local paranoid
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	((paranoid >= 1)) || skip "kernel.perf_event_paranoid $paranoid lets anyone open system-wide events"
	stage_for_nobody "$BPFPROF" || skip "user nobody cannot reach $NOBODY"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$NOBODY/bpfprof" list -f json cpu-clock cycles breakpoint
	echo "$output"
	[ "$status" -eq 0 ]
	json_check "
by = {e['name']: e for e in ev}
c = by['cpu-clock']
assert not c['available'] and 'CAP_PERFMON' in c['why'], c
assert not by['mem:ADDR[/LEN][:rwx]']['available']
if $(no_core_pmu && echo True || echo False):
    assert by['cycles']['why'] == 'no hardware PMU', by['cycles']"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$NOBODY/bpfprof" list cpu-clock
	[[ $output == "cpu-clock  [software]  not permitted: needs CAP_PERFMON"* ]]
}

@test "list PATTERN: a glob on whole names, else a part of a name, a kind or a PMU" {
	run --separate-stderr "$BPFPROF" list 'cpu-*'
	echo "$output"
	[ "$status" -eq 0 ]
	[ -n "$(line cpu-clock)" ]
	[ -n "$(line cpu-migrations)" ]
	[ -z "$(line task-clock)" ]
	# every name listed matches the glob
	refute grep -viE '^cpu-' <<<"$output"
	run --separate-stderr "$BPFPROF" list FAULTS
	echo "$output"
	[ "$status" -eq 0 ]
	[ -n "$(line page-faults)" ]
	[ -n "$(line major-faults)" ]
	[ -z "$(line cpu-clock)" ]
	run --separate-stderr "$BPFPROF" list cache breakpoint
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '\[cache\]' <<<"$output")" -ge 20 ]
	[ -n "$(line 'mem:ADDR[/LEN][:rwx]')" ]
	# the rest holds "cache" in its name
	[ -z "$(grep -vE '\[(cache|breakpoint)\]' <<<"$output" | awk 'tolower($1) !~ /cache/')" ]
	refute grep -qE '\[(software|raw)\]' <<<"$output"
}

@test "list PATTERN matching nothing: one line naming it and the nearest names, exit 1" {
	run --separate-stderr "$BPFPROF" list no-such-event
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "bpfprof list: no event matches 'no-such-event'; expected a part of a name, a glob"* ]]
	run --separate-stderr "$BPFPROF" list cpu-clok
	echo "$stderr"
	[ "$status" -eq 1 ]
	[[ $stderr == *"no event matches 'cpu-clok' (did you mean: cpu-clock"* ]]
	run --separate-stderr "$BPFPROF" list -f yaml
	echo "$stderr"
	[ "$status" -eq 64 ]
	[[ $stderr == *"invalid --format 'yaml': expected text or json"* ]]
}

@test "list -f json: an array of {name, kind, pmu, available, why, description}" {
	run --separate-stderr "$BPFPROF" list -f json
	[ "$status" -eq 0 ]
	json_check "
by = {e['name']: e for e in ev}
for e in ev:
    assert set(e) == {'name', 'kind', 'pmu', 'available', 'why', 'description'}, e
    assert e['kind'] in ('software', 'hardware', 'cache', 'raw', 'pmu', 'libpfm4', 'breakpoint'), e
    assert (e['why'] is None) == e['available'], e
    assert (e['pmu'] is None) == (e['kind'] not in ('pmu', 'libpfm4')), e
c = by['cpu-clock']
assert c['kind'] == 'software' and c['available'] and c['description'], c
assert by['mem:ADDR[/LEN][:rwx]']['kind'] == 'breakpoint'
assert by['mem:ADDR[/LEN][:rwx]']['available']
assert by['cycles']['kind'] == 'hardware'
if $(no_core_pmu && echo True || echo False):
    assert not by['cycles']['available'] and by['cycles']['why'] == 'no hardware PMU', by['cycles']
"
	run --separate-stderr "$BPFPROF" list -f json --available 'cpu-*'
	json_check "
assert ev and all(e['available'] and e['name'].startswith('cpu-') for e in ev), ev"
}

@test "list: another machine's PMUs (tests/fixtures/pmu-intel), not on this machine" {
	run --separate-stderr "$BPFPROF" list --sysfs-root "$REPO/tests/fixtures/pmu-intel" pmu
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $(line cpu/mem-loads/) == *"[pmu]  not on this machine  event=0xcd,umask=0x1,ldlat=3" ]]
	[[ $(line msr/tsc/) == *"not on this machine"* ]]
	[[ $(line power/energy-pkg/) == *"(in Joules)" ]]
	[[ $(line hv_24x7/PM_PB_CYC/) == *"chip=?"* ]]
	[[ $(line broken) == *"cannot open: its sysfs files do not parse  format/event: 'config:x'"* ]]
	run --separate-stderr "$BPFPROF" list --sysfs-root "$REPO/tests/fixtures/pmu-intel" -f json msr
	json_check "
names = sorted(e['name'] for e in ev if e['kind'] == 'pmu')
assert names == ['msr/aperf/', 'msr/mperf/', 'msr/tsc/'], names
assert all(e['pmu'] == 'msr' and e['why'] == 'not on this machine' for e in ev if e['kind'] == 'pmu')"
}

@test "list: hostile sysfs names and terms are escaped, in text and in JSON" {
	local root=$BATS_TEST_TMPDIR/pmus pmu evil=$'evil\e]0;owned\a'
	pmu=$root/$evil
	mkdir -p "$pmu/events" "$pmu/format"
	echo 42 >"$pmu/type"
	echo config:0-7 >"$pmu/format/event"
	printf 'event=0x1,\x1b[31mred' >"$pmu/events/$evil"
	run --separate-stderr "$BPFPROF" list --sysfs-root "$root" evil
	echo "$output" | cat -v
	[ "$status" -eq 0 ]
	refute grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$output"
	[[ $output == *'evil\x1b]0;owned\x07/evil\x1b]0;owned\x07/  [pmu]  not on this machine  event=0x1,\x1b[31mred'* ]]
	run --separate-stderr "$BPFPROF" list --sysfs-root "$root" -f json evil
	refute grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$output"
	json_check "
e = [e for e in ev if e['kind'] == 'pmu'][0]
assert e['pmu'] == 'evil\x1b]0;owned\x07', e
assert e['description'] == 'event=0x1,\x1b[31mred', e"
}

@test "list: headings and wrapped descriptions on a terminal, none to a pipe" {
	command -v script >/dev/null || skip "no script(1)"
	run script -qec "stty cols 60; '$BPFPROF' list cpu-clock breakpoint" /dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"Software events:"* ]]
	[[ $output == *"Hardware breakpoints:"* ]]
	# no line is wider than the terminal
	[ "$(tr -d '\r' <<<"$output" | awk '{ if (length > m) m = length } END { print m }')" -le 60 ]
	run "$BPFPROF" list cpu-clock breakpoint
	[ "${#lines[@]}" -eq 2 ]
	refute grep -q 'events:' <<<"$output"
}

@test "-e takes libpfm4's vendor names when built with it (not its generic ones); else none" {
	local out=$BATS_TEST_TMPDIR/out.folded name names
	# libpfm4 would take CPU-CLOCK (any case) for cpu-clock: perf's names are evspec's
	run --separate-stderr "$BPFPROF" record -e CPU-CLOCK -o "$out" -d 1
	[ "$status" -eq 64 ]
	[[ $stderr == *"unknown event 'CPU-CLOCK'"* ]]
	if ! "$BPFPROF" --version | grep -q 'features:.*libpfm4'; then
		# -Dlibpfm=disabled, or no libpfm4-dev: no such events
		run --separate-stderr "$BPFPROF" list libpfm4
		[ "$status" -eq 1 ]
		[[ $stderr == "bpfprof list: no event matches 'libpfm4'"* ]]
		return
	fi
	run --separate-stderr "$BPFPROF" list -f json libpfm4
	[ "$status" -eq 0 ] || skip "libpfm4 detects no PMU on this machine"
	json_check "
assert all('::' in e['name'] and e['pmu'] and e['description'] for e in ev), ev"
	names=$(python3 -c 'import json, sys
for e in json.load(sys.stdin):
    print(e["name"], e["available"])' <<<"$output")
	# the first that needs no unit mask: a run samples it, or says why it cannot
	while read -r name available; do
		run --separate-stderr "$BPFPROF" record -e "$name" -F 499 -o "$out" \
			-- "$WORKLOADS/spinner" 1
		[ "$status" -eq 64 ] || break
		[[ $stderr == *"event '$name': libpfm4: "* ]] # never an unknown event
	done <<<"$names"
	echo "$name $available: $stderr"
	[ "$status" -ne 64 ]
	if [ "$available" = True ]; then
		[ "$status" -eq 0 ]
		well_formed "$out"
	else
		[ "$status" -eq 1 ]
		[[ $stderr == *"event '$name' is not supported"* ]]
		[ ! -e "$out" ]
	fi
}
