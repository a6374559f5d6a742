#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The top table (-f top, -o FILE.top) and the profile's JSON document (-f
# json, -o FILE.json), as root, on real perf events and real workloads
# (tests/workloads/), from record, range --stacks and watch. Shares are
# the workloads' own (fp-three's 50/30/20 by CPU time), with tolerances;
# watch's counts are exact by construction. Two recordings of setup_file
# serve most tests.
# suite-lock: debugregs (its watch takes a debug register of every CPU its
# workload may run on: not beside a suite holding all four of one CPU's)

bats_require_minimum_version 1.5.0
load helpers

# fp-three for 2 s as a top table (fp.top), and fp-three and syscall-heavy
# for 1 s as JSON (sys.json); what bpfprof printed in fp.err and sys.err
setup_file() {
	[ "$(id -u)" -eq 0 ] || return 0
	local d=$BATS_FILE_TMPDIR
	"$BPFPROF" record -F 999 -o "$d/fp.top" -- "$WORKLOADS/fp-three" 2 \
		2>"$d/fp.err" || echo "exit status $?" >>"$d/fp.err"
	"$BPFPROF" record -F 999 -o "$d/sys.json" -- sh -c \
		"'$WORKLOADS/fp-three' 1 & '$WORKLOADS/syscall-heavy' 1; wait" \
		2>"$d/sys.err" || echo "exit status $?" >>"$d/sys.err"
}

setup() {
	need_root
	TOP=$BATS_FILE_TMPDIR/fp.top
	JSON=$BATS_FILE_TMPDIR/sys.json
	D=$BATS_TEST_TMPDIR
}

# recorded NAME: the recording NAME of setup_file is there, else why not
recorded() {
	[ -s "$BATS_FILE_TMPDIR/$1" ] || { cat "$BATS_FILE_TMPDIR/${1%.*}.err"; false; }
}

# kept FILE: the samples kept, from the summary line bpfprof printed in FILE
kept() {
	sed -nE 's/^bpfprof: ([0-9]+) samples kept, .*/\1/p' "$1"
}

# column TOP NAME N: column N (1 self, 2 self%, 3 total, 4 total%, no
# '%') of the row of function NAME in the table TOP; 0 without one
column() {
	awk -v n="$2" -v c="$3" '!/^#/ && $5 == n { sub(/%$/, "", $c); v = $c }
		END { print v == "" ? 0 : int(v) }' "$1"
}

@test "top: fp-three's leaves split 50/30/20 by self samples, main in every stack, rows sorted" {
	recorded fp.top
	cat "$TOP"
	local kept
	kept=$(kept "$BATS_FILE_TMPDIR/fp.err")
	grep -q "profile written to '$TOP'" "$BATS_FILE_TMPDIR/fp.err"
	# the header: the samples of the summary line
	head -1 "$TOP" | grep -qE "^# $kept samples, [0-9]+ lost, [0-9.]+ s, [0-9]+ CPUs?; [0-9]+ functions$"
	sed -n 2p "$TOP" | grep -qE '^# +self +self% +total +total% +function$'
	at_least "$kept" 100
	local a b c base
	a=$(column "$TOP" leaf_a 1) b=$(column "$TOP" leaf_b 1) c=$(column "$TOP" leaf_c 1)
	base=$((a + b + c))
	at_least "$base" 80
	within $((a * 100 / base)) 50 15
	within $((b * 100 / base)) 30 12
	within $((c * 100 / base)) 20 12
	# a leaf's total holds its self samples and the kernel's under it (the clock read)
	[ "$(column "$TOP" leaf_a 3)" -ge "$a" ]
	# main: in every stack after the exec, no samples of its own
	at_least "$(column "$TOP" main 4)" 95
	[ "$(column "$TOP" main 4)" -le 100 ]
	[ "$(column "$TOP" main 1)" -le $((kept / 50)) ]
	# sorted by self, then total
	awk '!/^#/ { print $1, $3 }' "$TOP" | sort -k1,1nr -k2,2nr -c
	# the self samples of all rows are every sample: each stack has one leaf
	[ "$(awk '!/^#/ { s += $1 } END { print s }' "$TOP")" -eq "$kept" ]
}

@test "top --limit=N writes N rows; --limit needs the top format, and a count" {
	run --separate-stderr "$BPFPROF" record -F 999 -f top --limit=2 -o "$D/out" -- \
		"$WORKLOADS/fp-three" 0.5
	echo "$stderr"
	cat "$D/out"
	[ "$status" -eq 0 ]
	head -1 "$D/out" | grep -qE '^# [0-9]+ samples, .*; [0-9]+ functions, the first 2 shown \(--limit\)$'
	[ "$(grep -vc '^#' "$D/out")" -eq 2 ]
	run --separate-stderr "$BPFPROF" record --limit 3 -o "$D/x.folded" -- true
	[ "$status" -eq 64 ]
	[ "$stderr" = "bpfprof record: --limit is an option of the top format, not of folded: add -f top or -o FILE.top" ]
	run --separate-stderr "$BPFPROF" record --limit 0 -o "$D/x.top" -- true
	[ "$status" -eq 64 ]
	[[ $stderr == "bpfprof record: invalid --limit '0': expected an integer from 1 to "* ]]
	run --separate-stderr "$BPFPROF" watch --limit 3 -o "$D/x.svg" counter -- true
	[ "$status" -eq 64 ]
	[[ $stderr == *"--limit is an option of the top format, not of svg: add -f top or -o FILE.top"* ]]
	[ ! -e "$D/x.folded" ] && [ ! -e "$D/x.top" ] && [ ! -e "$D/x.svg" ]
}

@test "top: a recursive function counts once a stack, not once a frame" {
	run --separate-stderr "$BPFPROF" record -F 999 --max-depth 40 -o "$D/rec.top" -- \
		"$WORKLOADS/unwind-recurse" 1
	echo "$stderr"
	head -20 "$D/rec.top"
	[ "$status" -eq 0 ]
	# 39 recurse frames a stack under [truncated], each stack counted once
	at_least "$(column "$D/rec.top" recurse 4)" 90
	[ "$(column "$D/rec.top" recurse 4)" -le 100 ]
	at_least "$(column "$D/rec.top" spin_leaf 2)" 90
}

@test "json: one document, the summary's samples, every loss counter, stacks of frames with kinds, files, lines and binaries" {
	recorded sys.json
	python3 -m json.tool "$JSON" >/dev/null
	grep -q "profile written to '$JSON'" "$BATS_FILE_TMPDIR/sys.err"
	leaf_a=$(grep -n '^__attribute__((noinline)) void leaf_a(void)$' "$REPO/tests/workloads/fp-three.c" | cut -d: -f1)
	python3 - "$JSON" "$(kept "$BATS_FILE_TMPDIR/sys.err")" "$leaf_a" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
kept = int(sys.argv[2])
frames, procs, bins, stacks = d['frames'], d['processes'], d['binaries'], d['stacks']
assert d['version'] == 1
assert d['event'] == 'cpu-clock' and d['frequency_hz'] == 999 and d['period'] is None
assert d['period_ns'] == 1001001 and d['cpus'] >= 1 and d['duration_s'] > 0.5
assert d['target'].startswith('sh -c'), d['target']
# the totals: the summary's, and the stacks'
assert d['samples'] == kept == d['counters']['kept'] == sum(s['count'] for s in stacks), \
    (d['samples'], kept, d['counters'])
assert kept >= 100, kept
lost = d['lost']
for k in ('samples', 'stacks_map_full', 'counts_map_full', 'no_scratch', 'range_stacks',
          'forks_not_followed', 'watch_unknown_address', 'watch_ip_or_value',
          'sideband_records'):
    assert isinstance(lost[k], int), k
assert lost['samples'] == lost['stacks_map_full'] + lost['counts_map_full'] + lost['no_scratch']
for k in ('seen', 'idle', 'filtered', 'user_stack_unreadable', 'truncated'):
    assert isinstance(d['counters'][k], int), k
# every index points into its table; each table holds only what is used
for s in stacks:
    assert s['count'] > 0 and s['frames'] and 0 <= s['process'] < len(procs)
    assert all(0 <= i < len(frames) for i in s['frames'])
assert {i for s in stacks for i in s['frames']} == set(range(len(frames)))
for f in frames:
    assert f['kind'] in ('user', 'kernel', 'inline', 'jit', 'mark'), f
    assert f['binary'] is None or 0 <= f['binary'] < len(bins), f
    assert (f['file'] is None) == (f['line'] is None), f
comms = {p['comm'] for p in procs}
assert {'fp-three', 'syscall-heavy'} <= comms, comms
assert all(p['pid'] is None and p['tid'] is None for p in procs), procs

def names(s):
    return [frames[i]['name'] for i in s['frames']]

def samples(pred):
    return sum(s['count'] for s in stacks if pred(s))

# fp-three's leaves split 50/30/20 (stacks holding each)
leaf = {n: samples(lambda s: n in names(s)) for n in ('leaf_a', 'leaf_b', 'leaf_c')}
base = sum(leaf.values())
print('leaves', leaf)
assert base >= 80, leaf
assert abs(leaf['leaf_a'] * 100 // base - 50) <= 15, leaf
assert abs(leaf['leaf_b'] * 100 // base - 30) <= 12, leaf
assert abs(leaf['leaf_c'] * 100 // base - 20) <= 12, leaf
# a user frame: its source file and line (json keeps lines without --lines), its binary
la = [f for f in frames if f['name'] == 'leaf_a'][0]
assert la['kind'] == 'user' and la['file'].endswith('fp-three.c') and la['line'] > 0, la
# its function's start (DWARF's declaration line); a C name has no system_name
assert la['start_line'] == int(sys.argv[3]) and 'system_name' not in la, la
assert bins[la['binary']]['path'].endswith('/fp-three'), bins[la['binary']]
# syscall-heavy: most of its samples in kernel frames under do_syscalls, in the kernel's binary
def kernel_below(s, fn):
    n = names(s)
    return fn in n and any(frames[i]['kind'] == 'kernel' for i in s['frames'][n.index(fn):])
sys_all = samples(lambda s: 'do_syscalls' in names(s))
sys_kernel = samples(lambda s: kernel_below(s, 'do_syscalls'))
print('do_syscalls', sys_all, 'in the kernel', sys_kernel)
assert sys_all >= 80 and sys_kernel * 2 >= sys_all, (sys_all, sys_kernel)
kf = [f for f in frames if f['kind'] == 'kernel']
assert kf and all(f['binary'] is not None and bins[f['binary']]['path'] == '[kernel.kallsyms]'
                  for f in kf), kf[:3]
assert not any(f['name'].endswith('_[k]') for f in frames)
EOF
}

@test "range -o FILE.json --stacks FILE.json: a listing and a profile; watch -f top: exact counts" {
	run --separate-stderr "$BPFPROF" range -F 999 -o "$D/listing.json" --stacks "$D/stacks.json" \
		range-loops:loops -- "$WORKLOADS/range-loops" 1
	echo "$stderr"
	[ "$status" -eq 0 ]
	python3 - "$D/listing.json" "$D/stacks.json" <<'EOF'
import json, sys
listing, prof = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
in_range = listing['ranges'][0]['samples']
frames = prof['frames']
print('in range', in_range, 'stacks', sum(s['count'] for s in prof['stacks']))
assert in_range >= 100, in_range
# the stacks of the samples in the range: every one holds loops
assert prof['samples'] + prof['lost']['range_stacks'] == in_range
assert all(any(frames[i]['name'] == 'loops' for i in s['frames']) for s in prof['stacks'])
assert prof['event'] is None and prof['binaries']
EOF
	run --separate-stderr "$BPFPROF" watch -f top -o "$D/w.top" counter -- \
		"$WORKLOADS/watchme" basic 1000
	echo "$stderr"
	cat "$D/w.top"
	[ "$status" -eq 0 ]
	head -1 "$D/w.top" | grep -qE '^# 4000 samples, 0 lost, '
	grep -qE '^ +3000  75\.00% +3000  75\.00%  bump_three$' "$D/w.top"
	grep -qE '^ +1000  25\.00% +1000  25\.00%  bump_one$' "$D/w.top"
	grep -qE '^ +0   0\.00% +4000 100\.00%  main$' "$D/w.top"
}
