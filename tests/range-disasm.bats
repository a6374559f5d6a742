#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The instruction column of `bpfprof range` against objdump, instruction by
# instruction, over whole glibc functions full of AVX2, AVX-512 (EVEX) and
# opmask (VEX kmov) code, which capstone 4 printed as (bad) and then fell out
# of step on. The listing is the real one: `bpfprof range -f json` over each
# function of a live process's libc (no sample needs to fall in it: every
# instruction of a range is listed). Root (real BPF, real perf events).

bats_require_minimum_version 1.5.0
load helpers

LIBC=/lib/x86_64-linux-gnu/libc.so.6

setup() {
	need_root
	OUT=$BATS_TEST_TMPDIR/listing.json
	PIDS=()
}

teardown() {
	stop_workloads
}

# same_as_objdump LISTING BINARY: every range of the JSON LISTING against
# `objdump -d -M intel` over the same addresses of BINARY: the same
# instruction starts (so the same lengths: a listed instruction's length is
# the step to the next row, the last one's to the range's end), none of them
# ".byte", and the same mnemonic once both sides are normalised the same way:
#   - lower case; segment, data16/addr32, rex.*, bnd and notrack prefixes
#     dropped (objdump prints them on padding nops and jumps); repz/repnz
#     spelled repe/repne; rep, repe, repne and lock kept;
#   - movabs is mov (objdump's name for a mov of a 64-bit immediate);
#   - a string instruction's size letter dropped when it has no xmm operand
#     (Zydis: "rep movsb", objdump: "rep movs BYTE PTR es:[rdi],...");
#   - "xchg ax,ax" (objdump's name for the two-byte nop 66 90) is nop.
# Prints "SYMBOL: N instructions, N bytes" per range; the mismatches on failure.
same_as_objdump() {
	python3 - "$1" "$2" <<'EOF'
import json, re, subprocess, sys

DROP = {'cs', 'ds', 'es', 'ss', 'fs', 'gs', 'data16', 'addr32', 'bnd', 'notrack'}
SPELL = {'repz': 'repe', 'repnz': 'repne'}
KEEP = {'rep', 'repe', 'repne', 'lock'}
STRING = re.compile(r'^(movs|stos|lods|scas|cmps|ins|outs)[bwdq]$')

def mnemonic(text):
    t = text.lower().strip()
    if re.fullmatch(r'xchg\s+ax,\s*ax', t):
        return 'nop'
    words = t.split()
    out = []
    for i, w in enumerate(words):
        w = SPELL.get(w, w)
        if w in DROP or w.startswith('rex'):
            continue
        if w in KEEP:
            out.append(w)
            continue
        if w == 'movabs':
            w = 'mov'
        if STRING.match(w) and 'xmm' not in ' '.join(words[i + 1:]):
            w = w[:-1]
        out.append(w)
        break
    return ' '.join(out)

listing, binary = sys.argv[1], sys.argv[2]
bad = 0
for r in json.load(open(listing))['ranges']:
    start, end = int(r['start'], 16), int(r['end'], 16)
    rows = r['instructions']
    ours = [(int(x['address'], 16), x['disasm']) for x in rows]
    dump = subprocess.run(['objdump', '-d', '-w', '-M', 'intel',
                           '--start-address=%#x' % start, '--stop-address=%#x' % end,
                           binary], capture_output=True, text=True, check=True).stdout
    theirs = []
    for line in dump.splitlines():
        m = re.match(r'^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$', line)
        if m:
            theirs.append((int(m.group(1), 16), m.group(3)))
    print('%s: %d instructions, %d bytes' % (r['symbol'], len(ours), end - start))
    if not ours or [a for a, _ in ours] != [a for a, _ in theirs]:
        print('  instruction starts differ: %d listed, %d by objdump' %
              (len(ours), len(theirs)))
        for o, t in zip(ours, theirs):
            if o[0] != t[0]:
                print('  first at %#x (objdump: %#x %s)' % (o[0], t[0], t[1]))
                break
        bad += 1
        continue
    for (a, o), (_, t) in zip(ours, theirs):
        if o.startswith('.byte') or mnemonic(o) != mnemonic(t):
            print('  %#x: %r (%s) but objdump %r (%s)' % (a, o, mnemonic(o), t, mnemonic(t)))
            bad += 1
sys.exit(1 if bad else 0)
EOF
}

@test "every instruction of three AVX2/AVX-512 libc functions agrees with objdump" {
	command -v objdump >/dev/null || skip "no objdump (binutils)"
	start spinner 30
	run "$BPFPROF" range -p "${PIDS[0]}" -F 99 -d 0.2 -q -f json -o "$OUT" \
		libc.so.6:__memcmp_evex_movbe libc.so.6:__memmove_avx512_unaligned_erms \
		libc.so.6:__strlen_avx2
	echo "$output"
	if [[ $output == *"has no symbol (install its debug file)"* ]]; then
		skip "no debug file for libc (libc6-dbg) names its AVX-512 variants"
	fi
	[ "$status" -eq 0 ]
	run same_as_objdump "$OUT" "$(readlink -f "$LIBC")"
	echo "$output"
	[ "$status" -eq 0 ]
	# three whole functions, hundreds of instructions between them
	[ "$(grep -c ' instructions, ' <<<"$output")" -eq 3 ]
	[ "$(awk '{ n += $2 } END { print n + 0 }' <<<"$output")" -gt 300 ]
	# the two hottest rows of the issue (perf: vpcmpnequb, kmovd) by name
	grep -q '"disasm": "vpcmpnequb k1 {k2}, ymm18, ymmword ptr \[rdi\]"' "$OUT"
	grep -q '"disasm": "kmovd eax, k1"' "$OUT"
}

# starts BINARY FROM TO: objdump's instruction starts in [FROM, TO), hex, one a line.
starts() {
	objdump -d -w --start-address="$2" --stop-address="$3" "$1" |
		awk '/^ *[0-9a-f]+:\t/ { sub(/:$/, "", $1); print "0x" $1 }'
}

@test "a range that starts inside an instruction is back in step at the next function's start" {
	command -v objdump >/dev/null || skip "no objdump (binutils)"
	local bin=$WORKLOADS/range-loops loops end k want got args=()
	start range-loops 30
	loops=$(nm "$bin" | awk '$3 == "loops" { print "0x" $1 }')
	# the end of loops's sixth instruction: no instruction runs across it
	end=$(starts "$bin" "$loops" $((loops + 64)) | sed -n 7p)
	[ -n "$loops" ] && [ -n "$end" ]
	# from 1 to 8 bytes before loops, in the padding after frame_dummy: some
	# starts decode to instructions that run into loops
	for k in 1 2 3 4 5 6 7 8; do
		args+=("range-loops:$(printf '0x%x-%s' $((loops - k)) "$end")")
	done
	run "$BPFPROF" range -p "${PIDS[0]}" -F 99 -d 0.2 -q -f json -o "$OUT" "${args[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	want=$(starts "$bin" "$loops" "$end" | tr '\n' ' ')
	echo "objdump: $want"
	for k in 0 1 2 3 4 5 6 7; do
		got=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["ranges"][int(sys.argv[2])]
print(" ".join(x["address"] for x in r["instructions"] if int(x["address"], 16) >= int(sys.argv[3], 16)))
' "$OUT" "$k" "$loops")
		echo "range $((k + 1)): $got"
		[ "$got " = "$want" ]
	done
}
