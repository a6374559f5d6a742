#!/usr/bin/env bats
# The README's examples, run as the README tells a new user to run them:
# its set-up line (`cd build/tests/workloads && PATH=...`) in a copy of the
# build's layout, then every `$ COMMAND` line of the "Examples" section in
# order, in one directory (a later example reads an earlier one's file).
# Each command must succeed, and the output the README shows under it must
# come back in shape: each shown line is compared with the output's lines
# with every number, hex address and path elided, and most must match (a
# row of the table may name another function on another run; a changed
# format matches none).
# suite-lock: debugregs (the watch example takes a debug register)

load helpers

setup() {
	need_binary
	need_root
	ROOT=$BATS_TEST_TMPDIR/clone
	mkdir -p "$ROOT/build/src" "$ROOT/build/tests"
	ln -s "$BPFPROF" "$ROOT/build/src/bpfprof"
	cp -a "$WORKLOADS" "$ROOT/build/tests/workloads"
}

# readme_examples: "cmd<TAB>expected line" and "cmd" lines, the commands of
# the README's Examples section with the output lines shown under each
readme_examples() {
	awk '
		/^## / { in_ex = ($0 ~ /^## Examples/) }
		!in_ex { next }
		/^```/ { in_code = !in_code; next }
		!in_code { next }
		/^\$ / { cmd = substr($0, 3); print "C\t" cmd; next }
		cmd != "" { print "O\t" $0 }
	' "$REPO/README.md"
}

# shape LINE: the line with numbers, hex, paths and "…" elided
shape() {
	sed -E -e 's#(…)?/[^ :]*##g' -e 's/…//g' -e 's/0x[0-9a-f]+/H/g' \
		-e 's/[0-9]+(\.[0-9]+)?/N/g' -e 's/ +/ /g' <<<"$1"
}

# check_output CMD OUT EXPECTED...: most expected lines' shapes are in OUT's
check_output() {
	local cmd=$1 out=$2 want=0 got=0 line
	local -A have=()
	shift 2
	while IFS= read -r line; do
		have["k:$(shape "$line")"]=1
	done <"$out"
	for line in "$@"; do
		want=$((want + 1))
		[[ -n ${have["k:$(shape "$line")"]-} ]] && got=$((got + 1))
	done
	# at least 70% of the lines shown, and all of them when there are
	# no more than two
	if ((want <= 2 ? got < want : got * 10 < want * 7)); then
		echo "'$cmd': $got of $want lines shown in the README came back; its output:" >&2
		cat "$out" >&2
		return 1
	fi
}

@test "the README's set-up line and examples run as shown" {
	local -a expected=()
	local kind text cmd="" status n=0
	local examples=$BATS_TEST_TMPDIR/examples

	readme_examples >"$examples"
	[ "$(grep -c '^C' "$examples")" -ge 8 ]
	# the set-up line, exactly as the README gives it
	setup_line=$(awk '/^## Examples/ { ex = 1 } ex && /^cd build\/tests\/workloads/ { print; exit }' "$REPO/README.md")
	[ -n "$setup_line" ]

	run_one() {
		[ -n "$cmd" ] || return 0
		n=$((n + 1))
		status=0
		(cd "$ROOT" && eval "$setup_line" && eval "$cmd") \
			>"$BATS_TEST_TMPDIR/out.$n" 2>&1 </dev/null || status=$?
		if ((status)); then
			echo "'$cmd' exited $status:" >&2
			cat "$BATS_TEST_TMPDIR/out.$n" >&2
			return 1
		fi
		((${#expected[@]} == 0)) || check_output "$cmd" "$BATS_TEST_TMPDIR/out.$n" "${expected[@]}"
	}

	while IFS=$'\t' read -r kind text; do
		if [[ $kind == C ]]; then
			run_one
			cmd=${text%%#*}
			expected=()
		else
			expected+=("$text")
		fi
	done <"$examples"
	run_one
	# the files the examples said they write
	[ -s "$ROOT/build/tests/workloads/fp.svg" ]
	[ -s "$ROOT/build/tests/workloads/fp.pb.gz" ]
	[ -s "$ROOT/build/tests/workloads/diff.svg" ]
}

@test "the README is a map: at most 300 lines, one example per subcommand" {
	[ "$(wc -l <"$REPO/README.md")" -le 300 ]
	local sub
	for sub in record top report diff list range watch; do
		grep -q "^\\$ bpfprof $sub " "$REPO/README.md" || {
			echo "no example of bpfprof $sub" >&2
			return 1
		}
	done
}
