#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `bpfprof record --help`, the man page and the bash, zsh and fish
# completions list the same long options (hidden ones excluded: they are in
# none), the same event names and formats, and each file is valid for its
# tool. No root needed.
#
# BPFPROF: the binary (default build/src/bpfprof under the repository).

bats_require_minimum_version 1.5.0

load helpers

setup() {
	need_binary
	BIN=$BPFPROF
	MAN=$REPO/man/bpfprof-record.1
	BASH_COMP=$REPO/completions/bpfprof.bash
	ZSH_COMP=$REPO/completions/_bpfprof
	FISH_COMP=$REPO/completions/bpfprof.fish
}

# Long options, one a line, sorted and unique, read from stdin.
long_opts() {
	grep -oE -- '--[a-z][a-z-]*' | sed 's/-*$//' | sort -u
}

help_opts() {
	"$BIN" record --help | long_opts
}

# The man source writes a hyphen as \-.
man_opts() {
	sed 's/\\-/-/g' "$MAN" | long_opts
}

# fish spells them "-l name" in its complete commands.
fish_opts() {
	grep -E '^complete ' "$FISH_COMP" | grep -oE -- ' -l [a-z][a-z-]*' |
		sed 's/^ -l /--/' | sort -u
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

@test "the man page lists the options of --help" {
	same_set man/bpfprof-record.1 "$(help_opts)" "$(man_opts)"
}

@test "the bash completion lists the options of --help" {
	same_set completions/bpfprof.bash "$(help_opts)" "$(long_opts <"$BASH_COMP")"
}

@test "the zsh completion lists the options of --help" {
	same_set completions/_bpfprof "$(help_opts)" "$(long_opts <"$ZSH_COMP")"
}

@test "the fish completion lists the options of --help" {
	same_set completions/bpfprof.fish "$(help_opts)" "$(fish_opts)"
}

@test "the man page documents each option with its short form as in --help" {
	local line short long
	# "  -a, --all-cpus  ..." in --help -> ".BR \-a ", " \-\-all\-cpus" in the page
	while read -r short long; do
		grep -qF -- ".BR \\-$short \", \" \\-\\-${long//-/\\-}" "$MAN" || {
			echo "man page: no '-$short, --$long'"
			return 1
		}
	done < <("$BIN" record --help |
		sed -nE 's/^ +-([a-zA-Z?]), --([a-z-]+).*/\1 \2/p')
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
	run bash -c '
		source "$1"
		comp() {
			COMP_WORDS=("$@")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			COMPREPLY=()
			_bpfprof
			echo "${COMPREPLY[*]}"
		}
		comp bpfprof re
		comp bpfprof record --max-s
		comp bpfprof record -e cache-r
		comp bpfprof record --event = task
		comp bpfprof record -f fo
		comp bpfprof record -d 5 -- bas
		comp bpfprof record -d 5 bas
	' _ "$BASH_COMP"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = record ]
	[ "${lines[1]}" = --max-stacks ]
	[ "${lines[2]}" = cache-references ]
	[ "${lines[3]}" = task-clock ]
	[ "${lines[4]}" = folded ]
	[[ " ${lines[5]} " == *" bash "* ]]
	[[ " ${lines[6]} " == *" bash "* ]]
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
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -c 'source $argv[1]
		complete -C "bpfprof re" | cut -f1
		complete -C "bpfprof record --max-s" | cut -f1
		complete -C "bpfprof record -e cache-r" | cut -f1
		complete -C "bpfprof record -d 5 -- bas" | cut -f1 | grep -x bash' "$FISH_COMP"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = record ]
	[ "${lines[1]}" = --max-stacks ]
	[ "${lines[2]}" = cache-references ]
	[ "${lines[3]}" = bash ]
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
