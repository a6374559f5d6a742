#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The house keeps its plan (ARCHITECTURE.md, "The house"): src/ is folders
# by stage, each a static library that sees only the folders below it; the
# libraries with a narrow purpose (libbpf, libdw, Zydis) are included
# only where ARCHITECTURE.md says. These read the sources, so a change that
# breaks the plan fails here even where the build would still link. No root
# needed, no binary needed.

load helpers

setup() {
	SRC=$REPO/src
}

# The layers in the order src/meson.build builds them, lowest first.
layers() {
	sed -n "/^foreach layer : \[/,/\]/p" "$SRC/meson.build" |
		grep -oE "'[a-z]+'" | tr -d "'"
}

# files_including PATTERN: the src/ files with an #include matching PATTERN
# (an extended regular expression for the part inside <> or "").
files_including() {
	grep -rlE "^#[[:space:]]*include[[:space:]]*[<\"]($1)" "$SRC" --include='*.[ch]' |
		sed "s|^$SRC/||" | sort
}

@test "every folder of src/ is a layer in src/meson.build, and every layer a folder" {
	diff <(layers | sort) <(cd "$SRC" && ls -d */ | tr -d / | sort)
}

@test "every folder's meson.build begins by saying what lives there" {
	local d bad=0
	for d in $(layers); do
		if ! head -1 "$SRC/$d/meson.build" | grep -qE "^# $d/: [^ ].{20,}"; then
			echo "src/$d/meson.build: first line is not '# $d/: what lives here'"
			bad=1
		fi
	done
	((bad == 0))
}

@test "a folder includes headers of its own and of folders below it only" {
	python3 - "$SRC" $(layers) <<'EOF'
import os, re, sys
src, order = sys.argv[1], sys.argv[2:]
rank = {d: i for i, d in enumerate(order)}
owner = {}
for d in order:
    for f in os.listdir(os.path.join(src, d)):
        if f.endswith('.h'):
            assert f not in owner, f'{f} in both src/{owner[f]} and src/{d}'
            owner[f] = d
bad = []
for d in order:
    for f in sorted(os.listdir(os.path.join(src, d))):
        if not f.endswith(('.c', '.h')):
            continue
        for n, line in enumerate(open(os.path.join(src, d, f)), 1):
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            if m and m.group(1) in owner and rank[owner[m.group(1)]] > rank[d]:
                bad.append(f'src/{d}/{f}:{n}: includes {m.group(1)} from src/{owner[m.group(1)]}/, a layer above')
print('\n'.join(bad))
sys.exit(1 if bad else 0)
EOF
}

@test "only src/kernel/ includes libbpf or a BPF skeleton" {
	local files
	files=$(files_including 'bpf/|[a-z_]+\.skel\.h')
	echo "$files"
	[ -n "$files" ]
	! grep -v '^kernel/' <<<"$files"
}

@test "only src/symbolize/ and src/cfi/ include libdw" {
	local files
	files=$(files_including 'elfutils/libdw|elfutils/libdwfl|dwarf\.h')
	echo "$files"
	[ -n "$files" ]
	! grep -vE '^(symbolize|cfi)/' <<<"$files"
}

@test "only src/disasm/disasm.c includes Zydis, only src/disasm/ gets its headers, and nothing capstone" {
	local files
	files=$(files_including 'Zydis/|Zycore/')
	echo "$files"
	[ "$files" = disasm/disasm.c ]
	# the folders whose meson.build uses Zydis whole (the others link it only)
	files=$(cd "$SRC" && grep -lE '^layer_uses = .*\bzydis\b' */meson.build)
	echo "$files"
	[ "$files" = disasm/meson.build ]
	[ -z "$(files_including 'capstone/')" ]
}

@test "the modes stand side by side: none includes or links another mode's folder" {
	# What two modes share lives in a library below them (stacks/, disasm/).
	python3 - "$SRC" record range watch top report list <<'EOF'
import os, re, sys
src, modes = sys.argv[1], sys.argv[2:]
owner = {f: d for d in modes for f in os.listdir(os.path.join(src, d)) if f.endswith('.h')}
bad = []
for d in modes:
    for f in sorted(os.listdir(os.path.join(src, d))):
        if not f.endswith(('.c', '.h')):
            continue
        for n, line in enumerate(open(os.path.join(src, d, f)), 1):
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            if m and owner.get(m.group(1), d) != d:
                bad.append(f'src/{d}/{f}:{n}: includes {m.group(1)} of src/{owner[m.group(1)]}/')
    for m in re.finditer(r'\b([a-z]+)_dep\b', open(os.path.join(src, d, 'meson.build')).read()):
        if m.group(1) in modes and m.group(1) != d:
            bad.append(f'src/{d}/meson.build: uses {m.group(1)}_dep, another mode')
print('\n'.join(bad))
sys.exit(1 if bad else 0)
EOF
}

@test "only src/kernel/pfmevents.c includes libpfm4" {
	local files
	files=$(files_including 'perfmon/')
	echo "$files"
	[ "$files" = kernel/pfmevents.c ]
}

@test "no folder below src/cli/ includes a command-line header" {
	local files
	files=$(files_including 'cli[a-z-]*\.h|argp\.h')
	echo "$files"
	[ -n "$files" ]
	! grep -v '^cli/' <<<"$files"
}

@test "the BPF side and user space share exactly one header, bpf/bpfprof.h" {
	local shared
	# headers of bpf/ that a user-space file includes
	shared=$(for h in "$REPO"/bpf/*.h; do
		if grep -rqE "^#[[:space:]]*include[[:space:]]*\"$(basename "$h")\"" "$SRC"; then
			basename "$h"
		fi
	done)
	[ "$shared" = bpfprof.h ]
}

# The rule, for every function defined at file scope in src/**/*.c whose
# name is object__verb (the object is what comes before the first "__";
# objects compare lowercase with "_" and "-" removed, so watch_set__add
# belongs to watchset.c and cli_output__x to cli-output.c):
#  - an exported (not static) function lives in the file of its object;
#  - a static one may name an object private to its file (row__, svg__),
#    but not the object of another file of src/ (record__ outside record.c).
# ALLOW lists "folder/file.c object: reason" for the exceptions.
@test "exported object__verb functions live in the file of their object" {
	local -a ALLOW=()
	python3 - "$SRC" "${ALLOW[@]}" <<'EOF2'
import os, re, sys
src, allow = sys.argv[1], {a.split(':')[0]: a for a in sys.argv[2:]}
key = lambda s: re.sub(r'[-_]', '', s).lower()
def strip(text):
    # comments, strings and characters, then preprocessor lines
    text = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: ' ' if m.group(0)[0] == '/' else '""', text, flags=re.S)
    return re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', '', text, flags=re.M)
def definitions(text):
    # (name, static) of each function defined at file scope
    depth, start = 0, 0
    for i, c in enumerate(text):
        if c == '{':
            head = text[start:i]
            names = [n for n in re.findall(r'\b(\w+)\s*\(', head) if n != '__attribute__']
            if depth == 0 and names and re.search(r'\)\s*$', head) and '=' not in head:
                yield names[0], re.search(r'\bstatic\b', head.split(names[0])[0]) is not None
            depth += 1
        elif c == '}':
            depth -= 1
            start = i + 1 if depth == 0 else start
        elif c == ';' and depth == 0:
            start = i + 1
files = sorted(os.path.relpath(os.path.join(r, f), src)
               for r, _, fs in os.walk(src) for f in fs if f.endswith('.c'))
objects = {key(os.path.basename(f)[:-2]) for f in files}
bad, used = [], set()
for f in files:
    own = key(os.path.basename(f)[:-2])
    for name, static in definitions(strip(open(os.path.join(src, f)).read())):
        obj = name.split('__')[0]
        if name.startswith('_') or '__' not in name or key(obj) == own:
            continue
        if static and key(obj) not in objects:
            continue
        if f'{f} {obj}' in allow:
            used.add(f'{f} {obj}')
            continue
        what = 'static' if static else 'exported'
        bad.append(f'src/{f}: {what} {name}() is of object {obj}, not of {os.path.basename(f)}')
bad += [f'ALLOW "{a}" matches nothing' for a in sorted(set(allow) - used)]
print('\n'.join(bad))
sys.exit(1 if bad else 0)
EOF2
}
