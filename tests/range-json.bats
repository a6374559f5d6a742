#!/usr/bin/env bats
# bpfprof range -f json, as root, on real perf events and BPF programs: the
# document is valid JSON with every field of man/bpfprof-range.1 (JSON
# OUTPUT) and its types, its numbers add up (instructions to the range,
# the range to the summary line), and it says what the text listing says
# of tests/workloads/range-loops.c (80% of loops() on its HOT line, 20% on
# its COLD line). Shares are asserted with tolerances, never exact counts.
# The usage errors need no root.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_binary
	OUT=$BATS_TEST_TMPDIR/out.json
	ERR=$BATS_TEST_TMPDIR/err.txt
	range_loops_lines
	PIDS=()
}

teardown() {
	stop_workloads
}

# valid FILE [--no-disasm] [--no-source] [--sort=samples]: FILE is one strict
# JSON document (no NaN, no duplicate keys) with every field and its type,
# whose numbers add up; prints what is wrong and fails otherwise.
valid() {
	python3 - "$@" <<'EOF'
import json, re, sys

path, flags = sys.argv[1], set(sys.argv[2:])
disasm, source = '--no-disasm' not in flags, '--no-source' not in flags
by_samples = '--sort=samples' in flags
errors = []

def fail(msg):
    errors.append(msg)

def no_dups(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        fail('duplicate keys: %s' % keys)
    return dict(pairs)

def bad_constant(c):
    raise ValueError('not JSON: %s' % c)

with open(path, encoding='utf-8') as f:
    text = f.read()
doc = json.loads(text, object_pairs_hook=no_dups, parse_constant=bad_constant)
if not text.endswith('}\n'):
    fail('the document does not end with "}" and a newline')

INT, NUM, STR, BOOL, NONE, LIST, DICT = int, (int, float), str, bool, type(None), list, dict
HEX = 'hex'

def check(obj, where, fields):
    if not isinstance(obj, dict):
        fail('%s: not an object' % where)
        return
    if list(obj) != list(fields):
        fail('%s: keys %s, want %s' % (where, list(obj), list(fields)))
    for k, types in fields.items():
        if k not in obj:
            continue
        v = obj[k]
        types = types if isinstance(types, tuple) else (types,)
        ok = False
        for t in types:
            if t == HEX:
                ok = ok or (isinstance(v, str) and re.fullmatch(r'0x[0-9a-f]+', v))
            elif t is INT:
                ok = ok or (isinstance(v, int) and not isinstance(v, bool) and v >= 0)
            elif t == NUM:
                ok = ok or (isinstance(v, (int, float)) and not isinstance(v, bool))
            else:
                ok = ok or isinstance(v, t)
        if not ok:
            fail('%s.%s: %r has the wrong type' % (where, k, v))

check(doc, 'document', {'version': INT, 'duration_s': NUM, 'samples': DICT, 'ranges': LIST})
if doc.get('version') != 1:
    fail('version %r' % doc.get('version'))
s = doc['samples']
check(s, 'samples', {'seen': INT, 'idle': INT, 'filtered': INT, 'targets': INT,
                     'in_ranges': INT, 'outside': INT, 'lost': DICT})
check(s['lost'], 'samples.lost', {'counts_full': INT})
if s['targets'] != s['seen'] - s['idle'] - s['filtered']:
    fail('targets is not seen - idle - filtered')
if s['in_ranges'] + s['outside'] > s['targets']:
    fail('more samples in and outside the ranges than the targets had')

inst_fields = {'address': HEX, 'function': (STR, NONE), 'offset': (INT, NONE),
               'samples': INT, 'percent': NUM}
if source:
    inst_fields.update({'file': (STR, NONE), 'line': (INT, NONE)})
if disasm:
    inst_fields['disasm'] = (STR, NONE)
range_fields = {'arg': STR, 'kind': STR, 'binary': (STR, NONE), 'other_binary': (STR, NONE),
                'symbol': (STR, NONE), 'impl': (STR, NONE), 'start': (HEX, NONE),
                'end': (HEX, NONE), 'bytes': (INT, NONE), 'unmapped': BOOL,
                'samples': INT, 'percent_of_targets': NUM, 'counted_in': INT,
                'processes': LIST, 'no_code': (STR, NONE), 'no_source': (STR, NONE),
                'instructions': LIST}
if source:
    range_fields['source_lines'] = LIST

for i, r in enumerate(doc['ranges']):
    where = 'ranges[%d]' % i
    check(r, where, range_fields)
    if errors:
        break
    n = r['samples']
    insts = r['instructions']
    if sum(x['samples'] for x in insts) != n:
        fail('%s: the instructions have %d samples, the range %d'
             % (where, sum(x['samples'] for x in insts), n))
    if sum(p['samples'] for p in r['processes']) != n:
        fail('%s: the processes have other samples than the range' % where)
    if len(r['processes']) > r['counted_in']:
        fail('%s: more processes with samples than places counted in' % where)
    for j, p in enumerate(r['processes']):
        check(p, '%s.processes[%d]' % (where, j), {'pid': INT, 'comm': (STR, NONE),
                                                   'samples': INT})
    if r['start'] is not None:
        start, end = int(r['start'], 16), int(r['end'], 16)
        if end - start != r['bytes']:
            fail('%s: bytes is not end - start' % where)
    for j, x in enumerate(insts):
        check(x, '%s.instructions[%d]' % (where, j), inst_fields)
        if errors:
            break
        if r['start'] is not None and not start <= int(x['address'], 16) < end:
            fail('%s: instruction %s outside the range' % (where, x['address']))
        if abs(x['percent'] - (100.0 * x['samples'] / n if n else 0)) > 0.006:
            fail('%s: instruction %s: percent %r' % (where, x['address'], x['percent']))
        if (x['function'] is None) != (x['offset'] is None):
            fail('%s: instruction %s: function and offset' % (where, x['address']))
    addrs = [int(x['address'], 16) for x in insts]
    if len(set(addrs)) != len(addrs):
        fail('%s: an address listed twice' % where)
    if by_samples:
        keys = [(-x['samples'], int(x['address'], 16)) for x in insts]
    else:
        keys = addrs
    if keys != sorted(keys):
        fail('%s: instructions not in %s order' % (where, 'samples' if by_samples else 'address'))
    if source:
        lines = r['source_lines']
        for j, l in enumerate(lines):
            check(l, '%s.source_lines[%d]' % (where, j),
                  {'file': STR, 'line': INT, 'samples': INT, 'percent': NUM})
        if [l['samples'] for l in lines] != sorted((l['samples'] for l in lines), reverse=True):
            fail('%s: source lines not hottest first' % where)
        if sum(l['samples'] for l in lines) > n:
            fail('%s: the source lines have more samples than the range' % where)
        for l in lines:
            have = sum(x['samples'] for x in insts
                       if x['file'] == l['file'] and x['line'] == l['line'])
            if have != l['samples']:
                fail('%s: %s:%d has %d samples, its instructions %d'
                     % (where, l['file'], l['line'], l['samples'], have))
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
EOF
}

# jget FILE EXPR: the Python expression EXPR of the document d, printed.
jget() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$1" "$2"
}

# line_share FILE FILE:LINE: the integer percent of the first range's samples on that line.
line_share() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(round(sum(l["percent"] for l in d["ranges"][0]["source_lines"]
          if "%s:%d" % (l["file"], l["line"]) == sys.argv[2])))' "$1" "$2"
}

# summary_matches FILE STDERR: the summary line on STDERR has the
# document's totals: "N samples in R ranges, N outside, N lost, N seen".
summary_matches() {
	local want
	want=$(jget "$1" '"%d samples in %d range%s, %d outside, %d lost, %d seen" % (
		d["samples"]["in_ranges"], len(d["ranges"]), "" if len(d["ranges"]) == 1 else "s",
		d["samples"]["outside"], sum(d["samples"]["lost"].values()), d["samples"]["seen"])')
	echo "want in the summary: $want"
	grep -qF "bpfprof range: $want, " "$2"
}

@test "-f json: a valid document; the hottest line is the hot loop's (80/20)" {
	need_root
	start range-loops 30
	local status=0
	"$BPFPROF" range -p "${PIDS[0]}" -F 2999 -d 2 -f json -o - range-loops:loops >"$OUT" 2>"$ERR" ||
		status=$?
	cat "$ERR"
	cat "$OUT"
	[ "$status" -eq 0 ]
	refute grep -q 'runtime error' "$ERR" # UBSan, in a sanitized build
	valid "$OUT"
	summary_matches "$OUT" "$ERR"
	[ "$(jget "$OUT" 'len(d["ranges"])')" -eq 1 ]
	# enough for the shares below, even with the CPUs shared with other work
	[ "$(jget "$OUT" 'd["ranges"][0]["samples"]')" -gt 400 ]
	[ "$(jget "$OUT" 'd["ranges"][0]["arg"]')" = range-loops:loops ]
	[ "$(jget "$OUT" 'd["ranges"][0]["kind"]')" = "symbol in a binary" ]
	[[ $(jget "$OUT" 'd["ranges"][0]["binary"]') == */range-loops ]]
	[ "$(jget "$OUT" 'd["ranges"][0]["symbol"]')" = loops ]
	# the workload ran on its own CPU: nearly all the target's samples are in loops
	[ "$(jget "$OUT" 'round(d["ranges"][0]["percent_of_targets"])')" -gt 70 ]
	# the process and its samples
	[ "$(jget "$OUT" 'd["ranges"][0]["processes"][0]["pid"]')" -eq "${PIDS[0]}" ]
	[ "$(jget "$OUT" 'd["ranges"][0]["processes"][0]["comm"]')" = range-loops ]
	# the first of the source lines is the HOT one, with the known shares
	[ "$(jget "$OUT" '"%s:%d" % (lambda l: (l["file"], l["line"]))(
		d["ranges"][0]["source_lines"][0])')" = "range-loops.c:$HOT" ]
	within "$(line_share "$OUT" "range-loops.c:$HOT")" 80 5
	within "$(line_share "$OUT" "range-loops.c:$COLD")" 20 5
	# every instruction of loops is listed from its first byte, decoded
	[ "$(jget "$OUT" 'd["ranges"][0]["instructions"][0]["address"] == d["ranges"][0]["start"]')" = True ]
	[ "$(jget "$OUT" 'd["ranges"][0]["instructions"][0]["disasm"]')" = "push rbp" ]
	[ "$(jget "$OUT" 'd["ranges"][0]["instructions"][0]["offset"]')" -eq 0 ]
	# the hottest instruction is on the HOT line
	[ "$(jget "$OUT" 'max(d["ranges"][0]["instructions"], key=lambda x: x["samples"])["line"]')" \
		-eq "$HOT" ]
}

@test "-o NAME.json writes the document; -f text still writes text" {
	need_root
	start range-loops 30
	run --separate-stderr "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 1 -o "$OUT" \
		range-loops:loops
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	valid "$OUT"
	[ "$(jget "$OUT" 'd["ranges"][0]["samples"]')" -gt 100 ]
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 0.3 -q -f text -o "$OUT" range-loops:loops
	[ "$status" -eq 0 ]
	head -1 "$OUT" | grep -q '^range 1: range-loops:loops (symbol in a binary)$'
	# and -f json to a file of any name
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 0.3 -q -f json -o "$OUT.txt" \
		range-loops:loops
	[ "$status" -eq 0 ]
	valid "$OUT.txt"
}

@test "-f json --sort=samples: hottest instruction first; --no-disasm, --no-source" {
	need_root
	start range-loops 30
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 1 -q --sort=samples -o "$OUT" \
		range-loops:loops
	[ "$status" -eq 0 ]
	valid "$OUT" --sort=samples
	[ "$(jget "$OUT" 'd["ranges"][0]["instructions"][0]["line"]')" -eq "$HOT" ]
	[ "$(jget "$OUT" 'd["ranges"][0]["instructions"][0]["percent"] >= 5')" = True ]
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 0.5 -q --no-disasm -o "$OUT" \
		range-loops:loops
	[ "$status" -eq 0 ]
	valid "$OUT" --no-disasm
	refute grep -q '"disasm"' "$OUT"
	refute grep -q 'push rbp' "$OUT"
	grep -q '"line": ' "$OUT"
	run "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 0.5 -q --no-disasm --no-source -o "$OUT" \
		range-loops:loops
	[ "$status" -eq 0 ]
	valid "$OUT" --no-disasm --no-source
	refute grep -qE '"(file|line|source_lines|disasm)"' "$OUT"
	[ "$(jget "$OUT" 'd["ranges"][0]["instructions"][0]["function"]')" = loops ]
}

@test "-f json, a kernel range: addresses above 2^53 exact as hex strings" {
	need_root
	local want
	want=$(awk '$3 == "read_zero" { print "0x" $1; exit }' /proc/kallsyms)
	run --separate-stderr "$BPFPROF" range -F 2999 -f json -o - read_zero -- \
		"$WORKLOADS/syscall-heavy" 1
	echo "$stderr"
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	valid "$OUT"
	[ "$(jget "$OUT" 'd["ranges"][0]["kind"]')" = "kernel symbol" ]
	[ "$(jget "$OUT" 'd["ranges"][0]["binary"]')" = None ]
	[ "$(jget "$OUT" 'd["ranges"][0]["start"]')" = "$want" ]
	[ "$(jget "$OUT" 'int(d["ranges"][0]["start"], 16) >= 0xffff800000000000')" = True ]
	[ "$(jget "$OUT" 'd["ranges"][0]["samples"]')" -gt 100 ]
	# counted in the kernel: pid 0, no comm
	[ "$(jget "$OUT" 'd["ranges"][0]["processes"][0]["pid"]')" -eq 0 ]
	[ "$(jget "$OUT" 'd["ranges"][0]["processes"][0]["comm"]')" = None ]
	[ "$(jget "$OUT" 'max(d["ranges"][0]["instructions"], key=lambda x: x["samples"])["function"]')" \
		= read_zero ]
}

@test "-f json, two ranges, one that no target maps: unmapped, 0 samples, no instructions" {
	need_root
	start range-loops 30
	run --separate-stderr "$BPFPROF" range -p "${PIDS[0]}" -F 999 -d 0.5 -o "$OUT" \
		range-loops:loops libnope.so.9:foo
	echo "$stderr"
	[ "$status" -eq 0 ]
	valid "$OUT"
	[ "$(jget "$OUT" 'len(d["ranges"])')" -eq 2 ]
	[ "$(jget "$OUT" 'd["ranges"][1]["arg"]')" = libnope.so.9:foo ]
	[ "$(jget "$OUT" 'd["ranges"][1]["unmapped"]')" = True ]
	[ "$(jget "$OUT" 'd["ranges"][1]["samples"]')" -eq 0 ]
	[ "$(jget "$OUT" 'd["ranges"][1]["instructions"]')" = "[]" ]
	[ "$(jget "$OUT" 'd["ranges"][0]["samples"]')" -gt 20 ]
}

@test "-f: an unknown format is a one-line usage error (exit 64)" {
	local args
	for args in "-f xml" "--format=yaml" "-f folded" "-f JSON -o $OUT"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$BPFPROF" range $args -d 0.1 read_zero
		echo "args: $args, status: $status, stderr: $stderr"
		[ "$status" -eq 64 ]
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ ${stderr_lines[0]} == "bpfprof range: invalid --format '"*"': expected text, json" ]]
	done
	[ ! -e "$OUT" ]
}
