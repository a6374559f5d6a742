#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""cfi-agreement BPFPROF FILE: compare the unwind table of
`bpfprof debug-cfi --no-cache FILE` with binutils'
`readelf --debug-dump=frames-interp` at every row readelf prints.

For each FDE's rows (LOC CFA ... rbp ... ra), the bpfprof row in force at
LOC must have the same CFA rule and rbp rule. readelf prints an expression
as `exp`; the expression itself is taken from `readelf --debug-dump=frames`
(the FDE's DW_CFA_def_cfa_expression / DW_CFA_expression r6) and mapped to
bpfprof's shapes (plt, *(reg+off), else invalid). Also checked: a `none`
row where an FDE ends and no other begins, and that bpfprof has no row
boundary readelf lacks. .eh_frame wins where .debug_frame covers the same
code, FDEs outside executable segments are left out, as bpfprof does.
Prints the counts and every mismatch (the first 20); exit 1 on any."""
import bisect
import re
import subprocess
import sys

REGS = ['rax', 'rdx', 'rcx', 'rbx', 'rsi', 'rdi', 'rbp', 'rsp',
        'r8', 'r9', 'r10', 'r11', 'r12', 'r13', 'r14', 'r15']
HEADER = re.compile(r'^([0-9a-f]{8,16}) [0-9a-f]+ ([0-9a-f]+) (CIE|FDE)(.*)$')
PLT = re.compile(r'DW_OP_breg7 \(rsp\): (-?\d+); DW_OP_breg16 \(rip\): 0; DW_OP_lit15; '
                 r'DW_OP_and; DW_OP_lit(\d+); DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus$')
DEREF = re.compile(r'DW_OP_breg(\d+) \(\w+\): (-?\d+); DW_OP_deref$')
RBP_EXP = re.compile(r'DW_OP_breg6 \(rbp\): (-?\d+)$')


def readelf(*args):
    # the file alone: following its debuglink makes readelf fail without one
    return subprocess.run(['readelf', '--debug-dump=no-follow-links', *args],
                          capture_output=True, text=True, check=True).stdout


def sections(text):
    """Yield (section name, [entries]); an entry is a dict per CIE/FDE."""
    name, entries, cur = None, [], None
    for line in text.splitlines():
        m = re.match(r'Contents of the (\S+) section', line)
        if m:
            if name:
                yield name, entries
            name, entries, cur = m.group(1), [], None
            continue
        m = HEADER.match(line)
        if m:
            cur = {'off': int(m.group(1), 16), 'kind': m.group(3), 'rest': m.group(4),
                   'lines': []}
            if cur['kind'] == 'FDE':
                cur['cie'] = int(re.search(r'cie=([0-9a-f]+)', line).group(1), 16)
                lo, hi = re.search(r'pc=([0-9a-f]+)\.\.([0-9a-f]+)', line).groups()
                cur['pc'] = (int(lo, 16), int(hi, 16))
            else:
                m2 = re.search(r'"([^"]*)"', line)
                cur['aug'] = m2.group(1) if m2 else ''
            entries.append(cur)
        elif cur is not None and line.strip():
            cur['lines'].append(line)
    if name:
        yield name, entries


def interp_rows(entry):
    """[(loc, {column: value})] of an entry's table."""
    rows, cols = [], None
    for line in entry['lines']:
        f = line.split()
        if f[0] == 'LOC':
            cols = f[1:]
        elif cols and re.fullmatch(r'[0-9a-f]+', f[0]):
            vals = []  # "r10 (r10)": a rule in another register is two words
            for w in f[1:]:
                if w.startswith('(') and vals:
                    vals[-1] += ' ' + w
                else:
                    vals.append(w)
            rows.append((int(f[0], 16), dict(zip(cols, vals))))
    return rows


def raw_exprs(entry):
    """The CFA expressions and rbp expressions an entry's instructions set."""
    cfa, rbp, undef = set(), set(), False
    for line in entry['lines']:
        line = line.strip()
        if line.startswith('DW_CFA_def_cfa_expression'):
            cfa.add(line[line.index('(') + 1:-1])
        elif line.startswith('DW_CFA_expression: r6 (rbp)'):
            rbp.add(line[len('DW_CFA_expression: r6 (rbp) ('):-1])
        elif line.startswith('DW_CFA_undefined: r6 '):
            undef = True
    return cfa, rbp, undef


def cfa_rule(value, exprs):
    """bpfprof's spellings of readelf's CFA column (a set: exp may be several)."""
    if value == 'exp':
        out = set()
        for e in exprs or {''}:
            m, d = PLT.match(e), DEREF.match(e)
            if m and int(m.group(2)) <= 15:
                out.add('cfa=plt(rsp%+d,%d)' % (int(m.group(1)), int(m.group(2))))
            elif d and int(d.group(1)) <= 15:
                out.add('cfa=*(%s%+d)' % (REGS[int(d.group(1))], int(d.group(2))))
            else:
                out.add('invalid')
        return out
    m = re.fullmatch(r'(\w+)([+-]\d+)', value)
    if not m or m.group(1) not in REGS or not -2**31 <= int(m.group(2)) < 2**31:
        return {'invalid'}
    return {'cfa=%s%+d' % (m.group(1), int(m.group(2)))}


def rbp_rule(value, exprs, undef):
    if value is None or value == 's':
        return {'rbp=same'}
    if value == 'u':  # readelf's mark for "not saved yet" as for DW_CFA_undefined
        return {'rbp=same', 'rbp=undef'} if undef else {'rbp=same'}
    m = re.fullmatch(r'c([+-]\d+)', value)
    if m:
        return {'rbp=cfa%+d' % int(m.group(1))} if -2**15 <= int(m.group(1)) < 2**15 \
            else {'rbp=undef'}
    if value == 'exp':
        out = set()
        for e in exprs or {''}:
            m = RBP_EXP.match(e)
            out.add('rbp=*(rbp%+d)' % int(m.group(1)) if m else 'rbp=undef')
        return out
    return {'rbp=undef'}  # in another register, val_offset, val_expression


def expected(row, cie, exprs):
    """The set of bpfprof row texts (without the address) readelf's row allows."""
    cols = row
    if 'S' in cie['aug']:
        return {'signal'}
    if cols.get('ra') == 'u':
        return {'end'}
    if cols.get('ra') != 'c-8':
        return {'invalid'}
    cfas = cfa_rule(cols['CFA'], exprs[0])
    out = set()
    for c in cfas:
        if c == 'invalid':
            out.add(c)
        else:
            out |= {c + ' ' + r for r in rbp_rule(cols.get('rbp'), exprs[1], exprs[2])}
    return out


def kind(rule):
    """A row's CFA rule type: rsp, rbp, reg, plt, deref, signal, end, invalid, none."""
    m = re.match(r'cfa=(\w+)[+-]', rule)
    if m:
        return m.group(1) if m.group(1) in ('rsp', 'rbp') else 'reg'
    return 'plt' if rule.startswith('cfa=plt') else \
        'deref' if rule.startswith('cfa=*') else rule


def text_segments(path):
    segs = []
    for line in readelf('-lW', path).splitlines():
        f = line.split()
        if f and f[0] == 'LOAD' and 'E' in f[6:-1]:
            segs.append((int(f[2], 16), int(f[2], 16) + int(f[5], 16)))
    return segs


def main():
    bpfprof, path = sys.argv[1], sys.argv[2]
    dump = subprocess.run([bpfprof, 'debug-cfi', '--no-cache', path], capture_output=True,
                          text=True, check=True).stdout
    ours = []
    for line in dump.splitlines():
        addr, rule = line.split(' ', 1)
        ours.append((int(addr, 16), rule))
    addrs = [a for a, _ in ours]

    def in_force(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return ours[i][1] if i >= 0 else 'none'

    segs = text_segments(path)
    raw = {name: {e['off']: e for e in ents} for name, ents in sections(readelf('--debug-dump=frames', path))}
    fdes = []  # (start, end, section, entry, cie)
    for name, ents in sections(readelf('--debug-dump=frames-interp', path)):
        cies = {e['off']: e for e in ents if e['kind'] == 'CIE'}
        for e in ents:
            if e['kind'] != 'FDE' or e['pc'][0] >= e['pc'][1]:
                continue
            if segs and not any(lo <= e['pc'][0] and e['pc'][1] <= hi for lo, hi in segs):
                continue
            fdes.append((e['pc'][0], e['pc'][1], name, e, cies[e['cie']]))
    eh = sorted((s, t) for s, t, n, _, _ in fdes if n == '.eh_frame')

    def covered_by_eh(lo, hi):
        i = bisect.bisect_right(eh, (lo, 2**64)) - 1
        return any(s < hi and lo < t for s, t in eh[max(i, 0):i + 2])

    fdes = [f for f in fdes if f[2] == '.eh_frame' or not covered_by_eh(f[0], f[1])]
    fdes.sort(key=lambda f: f[0])
    starts = {f[0] for f in fdes}
    bounds, kinds = set(), {}
    compared, bad = 0, []
    for start, end, name, e, cie in fdes:
        r = raw[name][e['off']]
        # expressions the FDE or its CIE set (readelf's `exp` does not say which)
        fe, ce = raw_exprs(r), raw_exprs(raw[name][cie['off']])
        exprs = (fe[0] | ce[0], fe[1] | ce[1], fe[2] or ce[2])
        rows = interp_rows(e) or [(start, interp_rows(cie)[-1][1])]
        for loc, cols in rows:
            if not start <= loc < end:
                continue
            bounds.add(loc)
            want, got = expected(cols, cie, exprs), in_force(loc)
            compared += 1
            kinds[kind(got)] = kinds.get(kind(got), 0) + 1
            if got not in want:
                bad.append('%#x: bpfprof "%s", readelf %s -> %s' %
                           (loc, got, ' '.join('%s=%s' % kv for kv in cols.items()),
                            ' or '.join(sorted(want))))
        if end not in starts:
            compared += 1
            if in_force(end) != 'none':
                bad.append('%#x: bpfprof "%s" where an FDE ends and none begins' %
                           (end, in_force(end)))
    extra = [a for a, rule in ours if rule != 'none' and a not in bounds]
    for a in extra:
        bad.append('%#x: bpfprof starts a row "%s" where readelf has none' % (a, in_force(a)))
    print('%s: %d FDEs, %d readelf rows and FDE ends compared, %d bpfprof rows, '
          '%d disagree' % (path, len(fdes), compared, len(ours), len(bad)))
    print('rows compared by rule: ' + ' '.join('%s=%d' % kv for kv in sorted(kinds.items())))
    for b in bad[:20]:
        print('mismatch ' + b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
