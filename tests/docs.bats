#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `bpfprof record --help`, `range --help`, `watch --help`, `top --help`, `list --help`, ..., their man pages and
# the bash, zsh and fish completions list the same long options per command
# (hidden ones excluded: they are in none), the same event names and
# formats, and each file is valid for its tool. No root needed.
#
# BPFPROF: the binary (default build/src/bpfprof under the repository).

bats_require_minimum_version 1.5.0

load helpers

setup() {
	need_binary
	BIN=$BPFPROF
	MAN=$REPO/man/bpfprof-record.1
	RANGE_MAN=$REPO/man/bpfprof-range.1
	WATCH_MAN=$REPO/man/bpfprof-watch.1
	TOP_MAN=$REPO/man/bpfprof-top.1
	BASH_COMP=$REPO/completions/bpfprof.bash
	ZSH_COMP=$REPO/completions/_bpfprof
	FISH_COMP=$REPO/completions/bpfprof.fish
}

# Long options, one a line, sorted and unique, read from stdin.
long_opts() {
	grep -oE -- '--[a-z][a-z-]*' | sed 's/-*$//' | sort -u
}

# help_opts [COMMAND]: the long options of `bpfprof COMMAND --help` (record).
help_opts() {
	"$BIN" "${1:-record}" --help | long_opts
}

# The man source writes a hyphen as \-.
man_opts() {
	sed 's/\\-/-/g' "${1:-$MAN}" | long_opts
}

# bash_opts COMMAND: the words of its _bpfprof_COMMAND_{arg,flag}_opts lists.
bash_opts() {
	awk -v re="^_bpfprof_$1_(arg|flag)_opts=" '$0 ~ re { on = 1 } on { print }
		on && /'"'"'$/ && !/='"'"'$/ { on = 0 }' "$BASH_COMP" | long_opts
}

# zsh_opts COMMAND: the shared specs and those of its _bpfprof_COMMAND function
# (report and diff: their own shared specs).
zsh_opts() {
	local shared=shared
	[[ $1 == report || $1 == diff ]] && shared=report
	[[ $1 == list ]] && shared=none
	awk -v fn="^_bpfprof_$1\\(\\) \\{" -v sh="^_bpfprof_${shared}_opts=\\(" '$0 ~ sh { on = 1 }
		$0 ~ fn { on = 1 } on { print } on && /^[)}]$/ { on = 0 }' "$ZSH_COMP" |
		long_opts
}

# fish_opts COMMAND: fish spells them "-l name" in the complete commands
# for that command ($rec, $rng) or for both ($both).
fish_opts() {
	local var shared=both
	case $1 in
	record) var=rec ;;
	range) var=rng ;;
	watch) var=wat ;;
	top) var=top ;;
	report) var=rpt shared=rep ;;
	diff) var=dif shared=rep ;;
	list) var=lst shared=lst ;;
	esac
	grep -E "^complete .* -n \\\$($var|$shared) " "$FISH_COMP" |
		grep -oE -- ' -l [a-z][a-z-]*' | sed 's/^ -l /--/' | sort -u
}

# bash_complete SCRIPT: run SCRIPT's `comp WORD...` lines with the bash
# completion loaded; each prints the completions of its last word.
bash_complete() {
	run bash -c '
		source "$1"
		comp() {
			COMP_WORDS=("$@")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			COMPREPLY=()
			_bpfprof
			echo "${COMPREPLY[*]}"
		}
		eval "$2"
	' _ "$BASH_COMP" "$1"
}

# fish_complete LINE...: fish's completions of each command line, one
# output line each (its candidates, space-separated).
fish_complete() {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -c 'source $argv[1]
		for l in $argv[2..-1]
			echo (complete -C "$l" | cut -f1)
		end' "$FISH_COMP" "$@"
}

# same_set NAME LIST_A LIST_B: fail with the difference.
same_set() {
	if [ "$2" != "$3" ]; then
		echo "$1 differs from --help (< --help, > $1):"
		diff <(echo "$2") <(echo "$3") || true
		return 1
	fi
}

@test "--help lists the options (sanity check of the parsing below)" {
	local opts
	opts=$(help_opts)
	echo "$opts"
	[ "$(echo "$opts" | wc -l)" -ge 20 ]
	[[ $opts == *--all-cpus* ]]
	[[ $opts == *--max-stacks* ]]
	[[ $opts == *--per-thread* ]]
}

@test "hidden options appear nowhere" {
	"$BIN" record --help | refute grep -q -- --empty-handler
	sed 's/\\-/-/g' "$MAN" | refute grep -q -- --empty-handler
	refute grep -q -- empty-handler "$BASH_COMP" "$ZSH_COMP" "$FISH_COMP"
}

@test "the man pages list the options of --help" {
	same_set man/bpfprof-record.1 "$(help_opts record)" "$(man_opts "$MAN")"
	same_set man/bpfprof-range.1 "$(help_opts range)" "$(man_opts "$RANGE_MAN")"
	same_set man/bpfprof-watch.1 "$(help_opts watch)" "$(man_opts "$WATCH_MAN")"
	same_set man/bpfprof-top.1 "$(help_opts top)" "$(man_opts "$TOP_MAN")"
	same_set man/bpfprof-report.1 "$(help_opts report)" "$(man_opts "$REPO/man/bpfprof-report.1")"
	same_set man/bpfprof-diff.1 "$(help_opts diff)" "$(man_opts "$REPO/man/bpfprof-diff.1")"
	same_set man/bpfprof-list.1 "$(help_opts list)" "$(man_opts "$REPO/man/bpfprof-list.1")"
}

@test "the bash completion lists the options of --help" {
	same_set "completions/bpfprof.bash (record)" "$(help_opts record)" "$(bash_opts record)"
	same_set "completions/bpfprof.bash (range)" "$(help_opts range)" "$(bash_opts range)"
	same_set "completions/bpfprof.bash (watch)" "$(help_opts watch)" "$(bash_opts watch)"
	same_set "completions/bpfprof.bash (top)" "$(help_opts top)" "$(bash_opts top)"
	same_set "completions/bpfprof.bash (report)" "$(help_opts report)" "$(bash_opts report)"
	same_set "completions/bpfprof.bash (diff)" "$(help_opts diff)" "$(bash_opts diff)"
	same_set "completions/bpfprof.bash (list)" "$(help_opts list)" "$(bash_opts list)"
	# and nothing else
	same_set completions/bpfprof.bash \
		"$( (help_opts record; help_opts range; help_opts watch; help_opts top; help_opts report
			help_opts diff; help_opts list) | sort -u)" \
		"$(long_opts <"$BASH_COMP")"
}

@test "the zsh completion lists the options of --help" {
	same_set "completions/_bpfprof (record)" "$(help_opts record)" "$(zsh_opts record)"
	same_set "completions/_bpfprof (range)" "$(help_opts range)" "$(zsh_opts range)"
	same_set "completions/_bpfprof (watch)" "$(help_opts watch)" "$(zsh_opts watch)"
	same_set "completions/_bpfprof (top)" "$(help_opts top)" "$(zsh_opts top)"
	same_set "completions/_bpfprof (report)" "$(help_opts report)" "$(zsh_opts report)"
	same_set "completions/_bpfprof (diff)" "$(help_opts diff)" "$(zsh_opts diff)"
	same_set "completions/_bpfprof (list)" "$(help_opts list)" "$(zsh_opts list)"
}

@test "the fish completion lists the options of --help" {
	same_set "completions/bpfprof.fish (record)" "$(help_opts record)" "$(fish_opts record)"
	same_set "completions/bpfprof.fish (range)" "$(help_opts range)" "$(fish_opts range)"
	same_set "completions/bpfprof.fish (watch)" "$(help_opts watch)" "$(fish_opts watch)"
	same_set "completions/bpfprof.fish (top)" "$(help_opts top)" "$(fish_opts top)"
	same_set "completions/bpfprof.fish (report)" "$(help_opts report)" "$(fish_opts report)"
	same_set "completions/bpfprof.fish (diff)" "$(help_opts diff)" "$(fish_opts diff)"
	same_set "completions/bpfprof.fish (list)" "$(help_opts list)" "$(fish_opts list)"
}

@test "the man pages document each option with its short form as in --help" {
	local cmd short long
	# "  -a, --all-cpus  ..." in --help -> ".BR \-a ", " \-\-all\-cpus" in the page
	for cmd in record range watch top; do
		while read -r short long; do
			grep -qF -- ".BR \\-$short \", \" \\-\\-${long//-/\\-}" \
				"$REPO/man/bpfprof-$cmd.1" || {
				echo "man page of $cmd: no '-$short, --$long'"
				return 1
			}
		done < <("$BIN" "$cmd" --help |
			sed -nE 's/^ +-([a-zA-Z?]), --([a-z-]+).*/\1 \2/p')
	done
}

@test "every event name of --help is in the man page and the completions" {
	local events ev
	events=$("$BIN" record --help | tr -s ' \n' ' ' |
		sed -nE 's/.*one of: ([a-z, -]+[a-z]).*/\1/p' | tr -d ',')
	[ -n "$events" ]
	for ev in $events; do
		for f in "$BASH_COMP" "$ZSH_COMP" "$FISH_COMP"; do
			grep -qw -- "$ev" "$f" || {
				echo "$f: no event $ev"
				return 1
			}
		done
		sed 's/\\-/-/g' "$MAN" | grep -qw -- "$ev" || {
			echo "man page: no event $ev"
			return 1
		}
	done
}

@test "bash completion: valid syntax" {
	bash -n "$BASH_COMP"
}

@test "bash completion: subcommands, options, events, formats, the command" {
	bash_complete '
		comp bpfprof re
		comp bpfprof record --max-s
		comp bpfprof record -e cache-r
		comp bpfprof record --event = task
		comp bpfprof record -f fo
		comp bpfprof record -d 5 -- bas
		comp bpfprof record -d 5 bas
		comp bpfprof report --va
		comp bpfprof diff -f s'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "record report" ]
	[ "${lines[7]}" = --value ]
	[ "${lines[8]}" = svg ]
	[ "${lines[1]}" = --max-stacks ]
	[ "${lines[2]}" = cache-references ]
	[ "${lines[3]}" = task-clock ]
	[ "${lines[4]}" = folded ]
	[[ " ${lines[5]} " == *" bash "* ]]
	[[ " ${lines[6]} " == *" bash "* ]]
}

@test "bash completion: range options, --sort values, the command after --" {
	bash_complete '
		comp bpfprof ra
		comp bpfprof range --no-d
		comp bpfprof range --sort = s
		comp bpfprof range -e cache-r
		comp bpfprof range vfs_read -- bas
		comp bpfprof range --max-s'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = range ]
	[ "${lines[1]}" = "--no-demangle --no-disasm" ]
	[ "${lines[2]}" = samples ]
	[ "${lines[3]}" = cache-references ]
	[[ " ${lines[4]} " == *" bash "* ]]
	[ -z "${lines[5]-}" ]
}

@test "zsh completion: valid syntax" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	zsh -n "$ZSH_COMP"
}

@test "fish completion: valid syntax" {
	command -v fish >/dev/null || skip "fish is not installed"
	fish -n "$FISH_COMP"
}

@test "fish completion: options, events and the command" {
	fish_complete "bpfprof re" "bpfprof record --max-s" "bpfprof record -e cache-r" \
		"bpfprof record -d 5 -- bas"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "record report" ]
	[ "${lines[1]}" = --max-stacks ]
	[ "${lines[2]}" = cache-references ]
	[[ " ${lines[3]} " == *" bash "* ]]
}

@test "bash completion: watch options, --access values, the command after --" {
	bash_complete '
		comp bpfprof wa
		comp bpfprof watch --acc
		comp bpfprof watch --access = r
		comp bpfprof watch counter -- bas
		comp bpfprof watch --max-s'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = watch ]
	[ "${lines[1]}" = --access ]
	[ "${lines[2]}" = "r rw" ]
	[[ " ${lines[3]} " == *" bash "* ]]
	[ -z "${lines[4]-}" ]
}

@test "bash completion: top, its options, the command after --" {
	bash_complete '
		comp bpfprof to
		comp bpfprof top --del
		comp bpfprof top -- bas
		comp bpfprof top --max-s'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = top ]
	[ "${lines[1]}" = --delay ]
	[[ " ${lines[2]} " == *" bash "* ]]
	[ -z "${lines[3]-}" ]
}

@test "fish completion: top, its options, the command after --" {
	fish_complete "bpfprof to" "bpfprof top --del" "bpfprof top -- bas" "bpfprof top --max-s"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = top ]
	[ "${lines[1]}" = --delay ]
	[[ " ${lines[2]} " == *" bash "* ]]
	[ "${lines[3]-}" = "" ]
}

@test "fish completion: range options and the command after --" {
	fish_complete "bpfprof ra" "bpfprof range --no-di" "bpfprof range --sort=s" \
		"bpfprof range vfs_read -- bas" "bpfprof range --max-s"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = range ]
	[ "${lines[1]}" = --no-disasm ]
	[ "${lines[2]}" = --sort=samples ]
	[[ " ${lines[3]} " == *" bash "* ]]
	[ "${lines[4]-}" = "" ]
}

@test "man pages: no groff warnings" {
	command -v groff >/dev/null || skip "groff is not installed"
	local page
	for page in "$REPO"/man/*.1; do
		run --separate-stderr groff -man -Tutf8 -ww -z "$page"
		echo "$page: $stderr"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
	done
}

@test "fish completion: watch options and the command after --" {
	fish_complete "bpfprof wa" "bpfprof watch --val" "bpfprof watch --access=r" \
		"bpfprof watch counter -- bas" "bpfprof watch --max-s"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = watch ]
	[ "${lines[1]}" = --values ]
	[ "${lines[2]}" = "--access=r --access=rw" ]
	[[ " ${lines[3]} " == *" bash "* ]]
	[ "${lines[4]-}" = "" ]
}

@test "bash completion: list, its options and formats, patterns" {
	bash_complete '
		comp bpfprof li
		comp bpfprof list --av
		comp bpfprof list -f j
		comp bpfprof list task-c
		comp bpfprof list breakp'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = list ]
	[ "${lines[1]}" = --available ]
	[ "${lines[2]}" = json ]
	[ "${lines[3]}" = task-clock ]
	[ "${lines[4]}" = breakpoint ]
}

@test "fish completion: list, its options and formats, patterns" {
	fish_complete "bpfprof li" "bpfprof list --av" "bpfprof list -f j" "bpfprof list task-c"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = list ]
	[ "${lines[1]}" = --available ]
	[ "${lines[2]}" = json ]
	[ "${lines[3]}" = task-clock ]
}

# md_links FILE...: every relative link of the Markdown files that does not
# resolve, one a line ("FILE:LINE: TARGET: why"), and exit 1 if any. A link
# is [text](target), ![alt](target) or a reference "[id]: target", outside
# code blocks and code spans; a target with a scheme (https:, mailto:) or
# an absolute path is not relative. The path must exist (relative to the
# linking file), and a #anchor must be the GitHub slug of a heading of the
# target Markdown file: its text lowercased, punctuation other than - and _
# removed, spaces turned to -, "-1", "-2"... after repeats; or an HTML id.
md_links() {
	python3 - "$@" <<'PY'
import os, re, sys, urllib.parse

def strip_code(text):
    """Lines with fenced blocks blanked and code spans removed."""
    out, fence = [], None
    for line in text.split('\n'):
        m = re.match(r'\s*(`{3,}|~{3,})', line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append('')
        elif m:
            fence = m.group(1)
            out.append('')
        else:
            out.append(re.sub(r'(`+)(?:(?!\1).)+\1', '``', line))
    return out

def slugs(path):
    seen, result = {}, set()
    raw = open(path, encoding='utf-8').read()
    for line, code in zip(raw.split('\n'), strip_code(raw)):
        if not code.strip():
            continue
        m = re.match(r' {0,3}(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if m:
            t = m.group(2)
            t = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', t)  # links: their text
            t = re.sub(r'<[^>]+>', '', t)                    # HTML tags
            s = re.sub(r'[^\w\- ]', '', t.lower()).replace(' ', '-')
            n = seen.get(s, 0)
            seen[s] = n + 1
            result.add(s if n == 0 else f'{s}-{n}')
        for m in re.finditer(r'<[^>]*\b(?:id|name)="([^"]+)"', line):
            result.add(m.group(1))
    return result

bad = []
link = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
ref = re.compile(r' {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)')
for md in sys.argv[1:]:
    lines = strip_code(open(md, encoding='utf-8').read())
    for n, line in enumerate(lines, 1):
        targets = [m.group(1) for m in link.finditer(line)]
        m = ref.match(line)
        if m:
            targets.append(m.group(1))
        for t in targets:
            if not t or re.match(r'[a-zA-Z][a-zA-Z0-9+.-]*:', t) or t.startswith('/'):
                continue
            path, _, anchor = t.partition('#')
            path = urllib.parse.unquote(path)
            dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if not os.path.exists(dest):
                bad.append(f'{md}:{n}: {t}: no file {dest}')
            elif anchor and dest.endswith('.md') and \
                    urllib.parse.unquote(anchor) not in slugs(dest):
                bad.append(f'{md}:{n}: {t}: no heading #{anchor} in {dest}')
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
}

# The Markdown files of the repository: README.md, ARCHITECTURE.md,
# bench/README.md, docs/**/*.md, ... (git's list, else every *.md file).
md_files() {
	(cd "$REPO" && { git ls-files -- '*.md' 2>/dev/null || find . -name '*.md' \
		-not -path './build*' -not -path './.git/*'; } | sed 's|^\./||')
}

@test "every relative link in the Markdown docs resolves" {
	local files
	files=$(md_files)
	echo "$files"
	[[ $files == *ARCHITECTURE.md* && $files == *README.md* ]]
	cd "$REPO"
	# the checker finds a broken file link and a broken anchor
	mkdir -p "$BATS_TEST_TMPDIR/md/sub"
	printf '# A title, with `code`\n## Twice\n## Twice\n' >"$BATS_TEST_TMPDIR/md/sub/t.md"
	printf '[ok](sub/t.md#a-title-with-code) [ok](sub/t.md#twice-1) `[no](x.md)`\n' \
		>"$BATS_TEST_TMPDIR/md/good.md"
	md_links "$BATS_TEST_TMPDIR/md/good.md"
	printf '[a](sub/t.md#twice-2)\n[b]: sub/none.md\n' >"$BATS_TEST_TMPDIR/md/bad.md"
	run md_links "$BATS_TEST_TMPDIR/md/bad.md"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 2 ]
	# and every link of the repository's own
	md_links $files
}
