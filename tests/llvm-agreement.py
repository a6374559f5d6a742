#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""llvm-agreement BPFPROF FILE: symbolize every instruction address of FILE
(from objdump) with `bpfprof debug-symbolize --demangle=full` and with
`llvm-symbolizer --inlining`, and print the percentage (integer) of
addresses where both give the same inline chain: function names, source
base names and lines. Addresses llvm-symbolizer gives to `_init` that
bpfprof names as PLT stubs (NAME@plt, .plt: outside _init's section) or
leaves unnamed are not counted; a line 0 is an unknown location for both."""
import os
import subprocess
import sys

bpfprof, obj = sys.argv[1], sys.argv[2]
dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', obj], capture_output=True,
                     text=True, check=True).stdout
addrs = []
for line in dis.splitlines():
    head = line.split(':', 1)[0].strip()
    if line.startswith(' ') and ':' in line and all(c in '0123456789abcdef' for c in head):
        addrs.append('0x' + head)
data = '\n'.join(addrs) + '\n'


def run(cmd):
    return subprocess.run(cmd, input=data, capture_output=True, text=True, check=True).stdout


def frame(name, path, line):
    line = int(line) if line.isdigit() else 0
    return (name, os.path.basename(path) if line else '??', line)


def chains(text, llvm):
    out = []
    for block in text.split('\n\n'):
        lines = [l for l in block.split('\n') if l]
        if not lines:
            continue
        if llvm:  # FUNCTION / FILE:LINE:COLUMN pairs
            out.append([frame(lines[i], *lines[i + 1].rsplit(':', 2)[:2])
                        for i in range(0, len(lines), 2)])
        else:  # FUNCTION<TAB>FILE:LINE
            out.append([frame(l.split('\t')[0], *l.split('\t')[1].rsplit(':', 1))
                        for l in lines])
    return out


ours = chains(run([bpfprof, 'debug-symbolize', '--demangle=full', obj]), False)
theirs = chains(run(['llvm-symbolizer', '--inlining', '--obj=' + obj]), True)
if len(ours) != len(theirs) or len(ours) != len(addrs):
    sys.exit(f'{len(addrs)} addresses, {len(ours)} answers from bpfprof, '
             f'{len(theirs)} from llvm-symbolizer')
counted = agree = 0
for a, x, y in zip(addrs, ours, theirs):
    if y[0][0] == '_init' and (x[0][0] in ('??', '.plt') or x[0][0].endswith('@plt')):
        continue
    counted += 1
    if x == y:
        agree += 1
    elif counted - agree <= 3:
        print(f'# {a}: bpfprof {x}, llvm-symbolizer {y}', file=sys.stderr)
print(agree * 100 // max(counted, 1))
