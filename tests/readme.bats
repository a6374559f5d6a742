#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The README's quick start, run as a new user runs it: as root, from a
# fresh clone in a directory no other user can enter (mode 0700, as /root
# is). The clone is of this repository's HEAD (git clone --no-hardlinks):
# changes not committed are not in it, and the test says so when there are
# some. scripts/demo builds the clone's bpfprof and workload (scripts/deps
# is quiet when every package is installed; the build takes 25 s of CPU),
# so it runs once a suite run, with the normal build's suites: the ASan
# build's skip it (the clone builds and runs its own build/).

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
}

# quick_start: the commands of the README's "Quick start" block, one a line, without their comments
quick_start() {
	awk '/^## Quick start/ { q = 1 } q && /^```/ { if (b) exit; b = 1; next } b' \
		"$REPO/README.md" | sed 's/ *#.*//'
}

@test "the README's quick start: scripts/demo in a fresh clone in a private directory prints the workload's hottest stacks" {
	local dir clone cmd
	[[ $BPFPROF == "$REPO/build/src/bpfprof" ]] ||
		skip "the demo builds and runs its clone's own build/: once, with the normal build's suites"
	git -C "$REPO" rev-parse -q --verify HEAD >/dev/null || skip "$REPO is not a git checkout"
	# the block is these two: scripts/test is this suite run itself; a
	# command added there must be added here too
	[ "$(quick_start | tr '\n' ' ')" = "scripts/demo scripts/test " ]
	cmd=$(quick_start | head -1)
	if [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no)" ]; then
		echo "# readme.bats: the clone is of HEAD ($(git -C "$REPO" rev-parse --short HEAD));" \
			"the changes not committed in $REPO are not in it" >&3
	fi
	dir=$(mktemp -d "$BATS_TEST_TMPDIR/private.XXXXXX")
	chmod 700 "$dir"
	clone=$dir/bpfprof
	git clone -q --no-hardlinks "$REPO" "$clone"
	cd "$clone"
	# nice: the build takes the CPU time the other suites' workloads leave
	run --separate-stderr nice -n 10 bash -c "$cmd"
	echo "status $status"
	echo "stdout: $output"
	echo "stderr: $stderr"
	[ "$status" -eq 0 ]
	# the run ended with the workload, which ran to its end
	[[ $stderr == *"bpfprof: "*" samples kept, "*"; profile written to 'demo.folded'"* ]]
	[[ $stderr != *"still running"* ]]
	well_formed demo.folded
	# the hottest stacks, hottest first: fp-three's leaves under their callers
	[ "${lines[0]}" = "+ build/src/bpfprof record -F 999 -o demo.folded -- build/tests/workloads/fp-three 2" ]
	[ "${lines[1]}" = "Hottest stacks (samples, stack):" ]
	[[ ${lines[2]} =~ ^[0-9]+$'\t'fp-three\;.*\;main\;run_workload\;split\;leaf_[abc]$ ]]
	grep -qE $'^[0-9]+\tfp-three;.*;main;run_workload;split;leaf_a$' <<<"$output"
	[ "${lines[${#lines[@]} - 1]}" = "Folded stacks written to $clone/demo.folded" ]
}
