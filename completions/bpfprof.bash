# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# bash completion for bpfprof. Installed as
# $datadir/bash-completion/completions/bpfprof; works with or without the
# bash-completion package (uses its _command_offset when present).

_bpfprof_commands='record range watch top report diff list help version'

# Options of `bpfprof record` that take a value, and those that do not.
_bpfprof_record_arg_opts='-p --pid -t --tid -G --cgroup -C --cpu -F --freq
	-c --period -e --event -d --duration --max-depth --max-stacks
	--unwind --call-graph --unwind-memory -o --output -f --format --demangle
	--debug-dir --jit-map-max --title --subtitle --width --minwidth --limit
	--interval'
_bpfprof_record_flag_opts='-a --all-cpus --idle -U --user-only -K --kernel-only -g
	--per-pid --per-thread -q --quiet --no-demangle --no-inline --lines --stats
	--no-unwind-hold --inverted --help --usage -V --version'

# Options of `bpfprof range` that take a value, and those that do not.
_bpfprof_range_arg_opts='-p --pid -t --tid -G --cgroup -C --cpu -F --freq
	-c --period -e --event -d --duration -o --output -f --format --demangle
	--debug-dir --jit-map-max --sort --stacks --unwind --unwind-memory'
_bpfprof_range_flag_opts='-a --all-cpus --idle -q --quiet --no-demangle
	--no-disasm --no-source --no-unwind-hold --help --usage -V --version'

# Options of `bpfprof watch` that take a value, and those that do not.
_bpfprof_watch_arg_opts='-p --pid -t --tid -G --cgroup -C --cpu -F --freq
	-c --period -e --event -d --duration -o --output -f --format --demangle
	--debug-dir --jit-map-max --access --if --rotate --count --title --subtitle --width
	--minwidth --limit --unwind --unwind-memory'
_bpfprof_watch_flag_opts='-a --all-cpus --idle -q --quiet --no-demangle
	--values --trap --per-pid --per-thread --lines --inverted --no-unwind-hold --help
	--usage -V --version'

# Options of `bpfprof top` that take a value, and those that do not.
_bpfprof_top_arg_opts='-p --pid -t --tid -G --cgroup -C --cpu -F --freq
	-c --period -e --event -d --duration -o --output --demangle --debug-dir
	--jit-map-max --delay --limit --unwind --unwind-memory'
_bpfprof_top_flag_opts='-a --all-cpus --idle -q --quiet --no-demangle --no-unwind-hold
	--help --usage -V --version'
# Options of `bpfprof report` and `bpfprof diff` (saved profiles read back).
_bpfprof_report_arg_opts='-o --output -f --format --value --max-input --title --subtitle
	--width --minwidth --limit'
_bpfprof_report_flag_opts='-q --quiet --lines --inverted --help --usage -V --version'
_bpfprof_diff_arg_opts='-o --output -f --format --value --max-input --title --subtitle
	--width --minwidth --limit'
_bpfprof_diff_flag_opts='-q --quiet --lines --inverted --help --usage -V --version'
_bpfprof_diff_formats='svg folded'
# Options of `bpfprof list`; its PATTERNs are event names, kinds or PMUs.
_bpfprof_list_arg_opts='-f --format'
_bpfprof_list_flag_opts='--available --help --usage -V --version'
_bpfprof_list_formats='text json'
_bpfprof_list_kinds='software hardware cache raw pmu libpfm4 breakpoint'

_bpfprof_events='cpu-clock task-clock page-faults faults context-switches cs
	cpu-migrations migrations minor-faults major-faults alignment-faults
	emulation-faults cycles cpu-cycles instructions cache-references
	cache-misses branches branch-instructions branch-misses bus-cycles
	stalled-cycles-frontend idle-cycles-frontend stalled-cycles-backend
	idle-cycles-backend ref-cycles
	L1-dcache-loads L1-dcache-load-misses L1-dcache-stores L1-dcache-store-misses
	L1-dcache-prefetches L1-dcache-prefetch-misses L1-icache-loads L1-icache-load-misses
	L1-icache-prefetches L1-icache-prefetch-misses LLC-loads LLC-load-misses
	LLC-stores LLC-store-misses LLC-prefetches LLC-prefetch-misses
	dTLB-loads dTLB-load-misses dTLB-stores dTLB-store-misses
	dTLB-prefetches dTLB-prefetch-misses iTLB-loads iTLB-load-misses
	branch-loads branch-load-misses node-loads node-load-misses
	node-stores node-store-misses node-prefetches node-prefetch-misses'

_bpfprof_formats='folded pprof svg top json'
_bpfprof_range_formats='text json'

_bpfprof_demangle_modes='short full none'

_bpfprof_sort_orders='address samples'

# _bpfprof_takes_arg WORD OPTS: WORD is one of OPTS (the options that take a value).
_bpfprof_takes_arg()
{
	local o
	for o in $2; do
		[[ $1 == "$o" ]] && return 0
	done
	return 1
}

# Index in COMP_WORDS where COMMAND starts (after the separator or at the
# first word that is not an option), or nothing when there is none yet.
_bpfprof_record_command_start()
{
	local i=2 word
	while ((i < COMP_CWORD)); do
		word=${COMP_WORDS[i]}
		if [[ $word == -- ]]; then
			echo $((i + 1))
			return
		elif _bpfprof_takes_arg "$word" "$_bpfprof_record_arg_opts"; then
			if [[ ${COMP_WORDS[i + 1]} == = ]]; then
				((i += 3))
			else
				((i += 2))
			fi
			continue
		elif [[ $word != -* ]]; then
			echo "$i"
			return
		fi
		((i++))
	done
}

# Complete a comma-separated list: the part before the last comma stays.
_bpfprof_list()
{
	local cur=$1 words=$2 head=
	[[ $cur == *,* ]] && head=${cur%,*},
	COMPREPLY=($(compgen -P "$head" -W "$words" -- "${cur##*,}"))
	compopt -o nospace 2>/dev/null
}

_bpfprof_cgroup_mount()
{
	awk '{ for (i = 7; i <= NF; i++) if ($i == "-") {
		if ($(i + 1) == "cgroup2") { print $5; exit }
		break } }' /proc/self/mountinfo
}

_bpfprof_cgroups()
{
	local cur=$1 mnt
	mnt=$(_bpfprof_cgroup_mount)
	[[ -n $mnt ]] || return
	COMPREPLY=($(cd "$mnt" 2>/dev/null && compgen -d -S / -- "$cur"))
	compopt -o nospace 2>/dev/null
}

# Complete the value of option $1.
_bpfprof_value()
{
	local opt=$1 cur=$2
	case $opt in
	--sort)
		COMPREPLY=($(compgen -W "$_bpfprof_sort_orders" -- "$cur"))
		;;
	--unwind)
		COMPREPLY=($(compgen -W 'auto dwarf fp' -- "$cur"))
		;;
	--call-graph)
		COMPREPLY=($(compgen -W 'fp dwarf lbr' -- "$cur"))
		;;
	-F | --freq)
		COMPREPLY=($(compgen -W 'max' -- "$cur"))
		;;
	-e | --event)
		COMPREPLY=($(compgen -W "$_bpfprof_events" -- "$cur"))
		;;
	-f | --format)
		if [[ ${COMP_WORDS[1]} == range ]]; then
			COMPREPLY=($(compgen -W "$_bpfprof_range_formats" -- "$cur"))
		elif [[ ${COMP_WORDS[1]} == diff ]]; then
			COMPREPLY=($(compgen -W "$_bpfprof_diff_formats" -- "$cur"))
		elif [[ ${COMP_WORDS[1]} == list ]]; then
			COMPREPLY=($(compgen -W "$_bpfprof_list_formats" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_bpfprof_formats" -- "$cur"))
		fi
		;;
	--demangle)
		COMPREPLY=($(compgen -W "$_bpfprof_demangle_modes" -- "$cur"))
		;;
	--access)
		COMPREPLY=($(compgen -W 'w r rw x' -- "$cur"))
		;;
	-p | --pid)
		_bpfprof_list "$cur" "$(cd /proc && echo [0-9]*)"
		;;
	-t | --tid)
		_bpfprof_list "$cur" "$(cd /proc && echo [0-9]*/task/[0-9]* | sed 's|[0-9]*/task/||g')"
		;;
	-G | --cgroup)
		_bpfprof_cgroups "$cur"
		;;
	-o | --output | --stacks)
		COMPREPLY=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
		;;
	--debug-dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		compopt -o filenames 2>/dev/null
		;;
	esac
}

_bpfprof_record_command()
{
	local start=$1
	if ((start == COMP_CWORD)); then
		COMPREPLY=($(compgen -c -- "${COMP_WORDS[COMP_CWORD]}"))
	elif declare -F _command_offset >/dev/null; then
		_command_offset "$start"
	else
		COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
		compopt -o filenames 2>/dev/null
	fi
}

# _bpfprof_options ARG_OPTS FLAG_OPTS: complete an option, or the value of
# one of ARG_OPTS; fails when the word is neither.
_bpfprof_options()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	# An option and its value joined by "=" arrive as three words.
	if [[ $cur == = ]]; then
		_bpfprof_value "$prev" ""
	elif [[ $prev == = ]]; then
		_bpfprof_value "${COMP_WORDS[COMP_CWORD - 2]}" "$cur"
	elif ((COMP_CWORD > 2)) && _bpfprof_takes_arg "$prev" "$1"; then
		_bpfprof_value "$prev" "$cur"
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$1 $2" -- "$cur"))
	else
		return 1
	fi
}

_bpfprof_record()
{
	local start
	start=$(_bpfprof_record_command_start)
	if [[ -n $start ]]; then
		_bpfprof_record_command "$start"
		return
	fi
	_bpfprof_options "$_bpfprof_record_arg_opts" "$_bpfprof_record_flag_opts" ||
		_bpfprof_record_command "$COMP_CWORD"
}

# bpfprof range|watch|top [OPTION...] [ARG...] [-- COMMAND]: the command only after --.
_bpfprof_range()
{
	local i cmd=${COMP_WORDS[1]}
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			_bpfprof_record_command $((i + 1))
			return
		fi
	done
	if [[ $cmd == watch ]]; then
		_bpfprof_options "$_bpfprof_watch_arg_opts" "$_bpfprof_watch_flag_opts"
	elif [[ $cmd == top ]]; then
		_bpfprof_options "$_bpfprof_top_arg_opts" "$_bpfprof_top_flag_opts"
	else
		_bpfprof_options "$_bpfprof_range_arg_opts" "$_bpfprof_range_flag_opts"
	fi
}

# bpfprof report FILE, bpfprof diff BASE NEW: options, else saved profiles.
_bpfprof_report()
{
	local cmd=${COMP_WORDS[1]} arg_opts=$_bpfprof_report_arg_opts
	local flag_opts=$_bpfprof_report_flag_opts
	if [[ $cmd == diff ]]; then
		arg_opts=$_bpfprof_diff_arg_opts
		flag_opts=$_bpfprof_diff_flag_opts
	fi
	_bpfprof_options "$arg_opts" "$flag_opts" && return
	COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
	compopt -o filenames 2>/dev/null
}

# bpfprof list [PATTERN...]: options, else event names, kinds and PMUs.
_bpfprof_list_patterns()
{
	_bpfprof_options "$_bpfprof_list_arg_opts" "$_bpfprof_list_flag_opts" && return
	local words
	words=$(printf '%s\n' $_bpfprof_events $_bpfprof_list_kinds \
		$(ls /sys/bus/event_source/devices 2>/dev/null) | sort -u)
	COMPREPLY=($(compgen -W "$words" -- "${COMP_WORDS[COMP_CWORD]}"))
}

_bpfprof()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$_bpfprof_commands --help --version" -- "$cur"))
		return
	fi
	case ${COMP_WORDS[1]} in
	record) _bpfprof_record ;;
	range | watch | top) _bpfprof_range ;;
	report | diff) _bpfprof_report ;;
	list) _bpfprof_list_patterns ;;
	esac
}

complete -F _bpfprof bpfprof
