#!/usr/bin/env bats
# What bpfprof writes, as root, into a path another user may have prepared
# (issue 13, items 5 and 7): planted symlinks, devices, FIFOs, modes, full
# disks, names that can never be written; the diagnoses it gives; and the
# command of command mode, which a stop signal ends at any moment. Real
# runs on real events; bad paths fail before sampling (a `sleep 30` command
# under `timeout 20` shows they did not sample the whole run).

bats_require_minimum_version 1.5.0
load helpers

setup() {
	need_root
	D=$BATS_TEST_TMPDIR
	OUT=$D/out.folded
	PIDS=()
	LOOP=
	MNT=
}

teardown() {
	stop_workloads
	[ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null || true
	[ -z "$MNT" ] || umount "$MNT" 2>/dev/null || true
}

# a sticky world-writable directory, like /tmp, owned by root
sticky_dir() {
	mkdir -m 1777 "$D/sticky"
	chmod 1777 "$D/sticky"
}

@test "what another user planted in a sticky world-writable directory is replaced: a symlink not followed, a FIFO not written into" {
	sticky_dir
	# what the planted link points to: a FIFO someone reads
	mkfifo "$D/victim"
	timeout 20 cat "$D/victim" >"$D/victim.read" &
	PIDS+=($!)
	ln -s "$D/victim" "$D/sticky/out.folded"
	chown -h 65534:65534 "$D/sticky/out.folded"
	run timeout 20 "$BPFPROF" record -q -o "$D/sticky/out.folded" -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 0 ]
	# the link became bpfprof's own file, the reader got nothing
	[ ! -L "$D/sticky/out.folded" ] && [ -f "$D/sticky/out.folded" ]
	[ "$(stat -c %u "$D/sticky/out.folded")" -eq 0 ]
	well_formed "$D/sticky/out.folded"
	grep -q '^spinner;' "$D/sticky/out.folded"
	echo done >"$D/victim" # let the reader go
	wait "${PIDS[0]}" || true
	[ "$(cat "$D/victim.read")" = done ]
	# a FIFO and a file planted there are not written into nor kept
	mkfifo "$D/sticky/fifo.folded"
	touch "$D/sticky/file.folded"
	chmod 0666 "$D/sticky/fifo.folded" "$D/sticky/file.folded"
	chown 65534:65534 "$D/sticky/fifo.folded" "$D/sticky/file.folded"
	for f in fifo file; do
		run timeout 20 "$BPFPROF" record -q -o "$D/sticky/$f.folded" -- "$WORKLOADS/spinner" 0.3
		[ "$status" -eq 0 ]
		[ -f "$D/sticky/$f.folded" ]
		[ "$(stat -c '%u %a' "$D/sticky/$f.folded")" = "0 $(printf '%o' $((0666 & ~0$(umask))))" ]
	done
	# root's own link there is followed: the file it names gets the profile
	echo old >"$D/target.folded"
	ln -s "$D/target.folded" "$D/sticky/mine.folded"
	run timeout 20 "$BPFPROF" record -q -o "$D/sticky/mine.folded" -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 0 ]
	[ -L "$D/sticky/mine.folded" ]
	grep -q '^spinner;' "$D/target.folded"
}

@test "a block device is refused before sampling, also through a symlink, and stays untouched" {
	truncate -s 1M "$D/disk.img"
	LOOP=$(losetup -f --show "$D/disk.img" 2>/dev/null) || skip "no loop device can be made"
	local before
	before=$(md5sum <"$LOOP")
	run timeout 20 "$BPFPROF" record -q -o "$LOOP" -- sleep 30
	[ "$status" -eq 64 ]
	[ "$output" = "bpfprof: cannot write '$LOOP': it is a block device; expected a regular file, a character device or a FIFO" ]
	ln -s "$LOOP" "$D/dev.folded"
	run timeout 20 "$BPFPROF" record -q -o "$D/dev.folded" -- sleep 30
	[ "$status" -eq 64 ]
	[[ $output == *"it is a block device"* ]]
	# planted in a sticky directory by another user: replaced, the device untouched
	sticky_dir
	ln -s "$LOOP" "$D/sticky/out.folded"
	chown -h 65534:65534 "$D/sticky/out.folded"
	run timeout 20 "$BPFPROF" record -q -o "$D/sticky/out.folded" -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 0 ]
	[ -f "$D/sticky/out.folded" ] && [ ! -L "$D/sticky/out.folded" ]
	[ "$(md5sum <"$LOOP")" = "$before" ]
}

@test "a FIFO without a reader fails at once instead of hanging; with one it gets the profile" {
	mkfifo "$D/fifo"
	run timeout 20 "$BPFPROF" record -q -o "$D/fifo" -- sleep 30
	[ "$status" -eq 64 ]
	[ "$output" = "bpfprof: cannot write '$D/fifo': no reader on the FIFO (start the reader first)" ]
	timeout 30 cat "$D/fifo" >"$D/fifo.read" &
	PIDS+=($!)
	run timeout 20 "$BPFPROF" record -q -o "$D/fifo" -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 0 ]
	wait "${PIDS[0]}"
	well_formed "$D/fifo.read"
	grep -q '^spinner;' "$D/fifo.read"
}

@test "/dev/null and /dev/fd/1 are written in place, as the shell opened them" {
	run timeout 20 "$BPFPROF" record -q -o /dev/null -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 0 ]
	[ -c /dev/null ]
	# a regular file the shell opened: appended to, not replaced through /proc
	echo first >"$D/shell.out"
	timeout 20 "$BPFPROF" record -q -o /dev/fd/1 -- "$WORKLOADS/spinner" 0.3 >>"$D/shell.out"
	[ "$(head -1 "$D/shell.out")" = first ]
	grep -q '^spinner;' "$D/shell.out"
}

@test "a replaced file keeps its mode and owner; a new one gets 0666 & ~umask" {
	echo old >"$OUT"
	chmod 0600 "$OUT"
	chown 65534:65534 "$OUT"
	run timeout 20 "$BPFPROF" record -q -o "$OUT" -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 0 ]
	grep -q '^spinner;' "$OUT"
	[ "$(stat -c '%a %u %g' "$OUT")" = "600 65534 65534" ]
	(umask 027 && timeout 20 "$BPFPROF" record -q -o "$D/new.folded" -- "$WORKLOADS/spinner" 0.3)
	[ "$(stat -c %a "$D/new.folded")" = 640 ]
}

@test "-o '', a 300-character name and a missing directory fail before sampling" {
	local long
	long=$(printf 'n%.0s' {1..300})
	SECONDS=0
	run timeout 20 "$BPFPROF" record -q -o '' -- sleep 30
	[ "$status" -eq 64 ]
	[ "$output" = "bpfprof: cannot write '': the file name is empty" ]
	run timeout 20 "$BPFPROF" record -q -o "$D/$long" -- sleep 30
	[ "$status" -eq 64 ]
	[[ $output == *"a name in the path is 300 bytes long; the limit is 255 (NAME_MAX)" ]]
	run timeout 20 "$BPFPROF" record -q -o "$D/none/out.folded" -- sleep 30
	[ "$status" -eq 64 ]
	[[ $output == *"No such file or directory" ]]
	# none of them ran the 30 s command
	((SECONDS < 20))
	[ -z "$(ls "$D")" ]
}

@test "a full disk is 'No space left on device', leaves no file, and stdout is named so" {
	MNT=$D/mnt
	mkdir "$MNT"
	mount -t tmpfs -o size=16k tmpfs "$MNT" || skip "cannot mount a tmpfs"
	dd if=/dev/zero of="$MNT/fill" bs=4k count=4 2>/dev/null || true
	# deep stacks with lines: many KiB of profile, more than stdio's buffer
	run timeout 60 "$BPFPROF" record -q --lines -o "$MNT/out.folded" -- "$WORKLOADS/unwind-recurse" 0.5
	[ "$status" -eq 1 ]
	[ "$output" = "bpfprof: cannot write the profile to '$MNT/out.folded': No space left on device" ]
	[ "$(ls -A "$MNT")" = fill ]
	timeout 60 "$BPFPROF" record -q --lines -o - -- "$WORKLOADS/unwind-recurse" 0.5 \
		>"$MNT/stdout.folded" 2>"$D/err" || true
	[ "$(cat "$D/err")" = "bpfprof: cannot write the profile to standard output: No space left on device" ]
}

@test "--unwind-memory beyond what the machine can do is refused at once" {
	local quarter
	quarter=$(awk '/^MemTotal:/ { print int($2 / 4 / 1024) }' /proc/meminfo)
	SECONDS=0
	run timeout 20 "$BPFPROF" record -q --unwind-memory=5G -o "$OUT" -- true
	[ "$status" -eq 64 ]
	if ((quarter >= 4096)); then
		[ "$output" = "bpfprof record: invalid --unwind-memory '5G': expected a size from 64K to 4G, e.g. 64M" ]
	else
		[ "$output" = "bpfprof record: invalid --unwind-memory '5G': expected a size from 64K to ${quarter}M (a quarter of this machine's memory), e.g. 64M" ]
	fi
	((SECONDS < 5))
	[ ! -e "$OUT" ]
}

@test "hidden kernel symbols are blamed on the sysctl and capability that hide them" {
	local restrict paranoid want
	restrict=$(cat /proc/sys/kernel/kptr_restrict)
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	if ((restrict >= 2)); then
		want="kernel.kptr_restrict=$restrict hides them from every user"
	elif ((restrict == 1)); then
		want="kernel.kptr_restrict=1 and no CAP_SYSLOG"
	elif ((paranoid > 1)); then
		want="kernel.perf_event_paranoid=$paranoid (above 1) and no CAP_SYSLOG"
	else
		skip "kptr_restrict=0 and perf_event_paranoid<=1 show addresses to every user"
	fi
	command -v setpriv >/dev/null || skip "no setpriv"
	stage_for_nobody "$BPFPROF" "$WORKLOADS/syscall-heavy" ||
		skip "user nobody cannot reach $NOBODY"
	# CAP_BPF and CAP_PERFMON alone, as a user that is not root
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+bpf,+perfmon \
		--ambient-caps=-all,+bpf,+perfmon \
		"$NOBODY/bpfprof" record -q -F 999 -o - -- "$NOBODY/syscall-heavy" 0.5 >"$OUT" 2>"$D/err"
	cat "$D/err"
	grep -q '_\[k\]' "$OUT"
	grep -qF "bpfprof: warning: kernel symbols are hidden, kernel frames are shown as addresses: $want" "$D/err"
}

# as_nobody CAPS ARGS...: bpfprof ARGS as user nobody with the capabilities
# CAPS (setpriv's list, e.g. +bpf,+perfmon) and no others; its copy that
# stage_for_nobody made
as_nobody() {
	local caps=$1
	shift
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps="-all,$caps" \
		--ambient-caps="-all,$caps" "$NOBODY/bpfprof" "$@"
}

@test "CAP_SYSLOG names the kernel frames that perf_event_paranoid or kptr_restrict hide" {
	local restrict
	restrict=$(cat /proc/sys/kernel/kptr_restrict)
	((restrict < 2)) || skip "kernel.kptr_restrict=$restrict hides kernel addresses from every user"
	command -v setpriv >/dev/null || skip "no setpriv"
	stage_for_nobody "$BPFPROF" "$WORKLOADS/syscall-heavy" ||
		skip "user nobody cannot reach $NOBODY"
	as_nobody +bpf,+perfmon,+syslog record -q -F 999 -o - -- "$NOBODY/syscall-heavy" 0.5 \
		>"$OUT" 2>"$D/err"
	cat "$D/err"
	[ "$(total "$OUT" '_\[k\]')" -gt 50 ]
	refute grep -qF '[kernel+0x' "$OUT"
	refute grep -q 'kernel symbols are hidden' "$D/err"
}

@test "another user's binary in a directory bpfprof's user cannot read: named with CAP_DAC_READ_SEARCH, not without" {
	command -v setpriv >/dev/null || skip "no setpriv"
	stage_for_nobody "$BPFPROF" || skip "user nobody cannot reach $NOBODY"
	# a root process whose binary is in a directory only root may search;
	# without CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE map_files is closed,
	# so the binary is opened by its path inside /proc/PID/root
	mkdir -m 0700 "$D/private"
	cp "$WORKLOADS/fp-three" "$D/private/fp-three"
	"$D/private/fp-three" 6 &
	PIDS+=($!)
	exec_of "${PIDS[0]}" fp-three
	as_nobody +bpf,+perfmon,+sys_ptrace record -q -F 999 -d 1.5 -p "${PIDS[0]}" -o - \
		>"$OUT" 2>"$D/err"
	cat "$D/err"
	# (a third of a CPU at least, on a busy machine)
	[ "$(total "$OUT")" -gt 150 ]
	[ "$(total "$OUT" 'leaf_[abc]')" -eq 0 ]
	[ "$(share "$OUT" '\[fp-three\+0x' .)" -ge 90 ]
	as_nobody +bpf,+perfmon,+sys_ptrace,+dac_read_search record -q -F 999 -d 1.5 \
		-p "${PIDS[0]}" -o - >"$OUT" 2>"$D/err"
	cat "$D/err"
	[ "$(share "$OUT" 'main;run_workload;split;leaf_[abc]( |;)' .)" -ge 90 ]
}

@test "-a without CAP_DAC_READ_SEARCH: the binaries it cannot read are named once, with the capability" {
	local me
	command -v setpriv >/dev/null || skip "no setpriv"
	stage_for_nobody "$BPFPROF" || skip "user nobody cannot reach $NOBODY"
	# root runs a program from a directory only root may search (other
	# tests' fp-three run beside it: its stacks are told by their pid)
	mkdir -m 0700 "$D/private"
	cp "$WORKLOADS/fp-three" "$D/private/fp-three"
	"$D/private/fp-three" 60 & # (killed in teardown)
	PIDS+=($!)
	exec_of "${PIDS[0]}" fp-three
	me="^fp-three-${PIDS[0]};"
	run --separate-stderr as_nobody +bpf,+perfmon,+sys_ptrace record -q -a --per-pid \
		-F 999 -d 1.5 -o -
	echo "$stderr"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	# its samples are there, unnamed
	[ "$(total "$OUT" "$me")" -gt 100 ]
	[ "$(total "$OUT" "$me.*leaf_[abc]")" -eq 0 ]
	# one warning names the cause; the first binary it could not read is
	# this one, or others (the machine's other private binaries) came first
	[ "$(grep -c 'cannot read' <<<"$stderr")" -eq 1 ]
	grep -qE "^bpfprof: warning: cannot read ($D/private/fp-three|/.* \(and other binaries\)): its frames are shown as \[BINARY\+0xOFFSET\]; reading other users' binaries needs CAP_DAC_READ_SEARCH or root\$" <<<"$stderr"
	# with it: named, and no warning
	run --separate-stderr as_nobody +bpf,+perfmon,+sys_ptrace,+dac_read_search \
		record -q -a --per-pid -F 999 -d 1.5 -o -
	echo "$stderr"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	[ "$(share "$OUT" "$me.*leaf_[abc]" "$me")" -ge 90 ]
	! grep -q 'cannot read' <<<"$stderr"
}

# the pid of PID's only child once it exists, still bpfprof's held copy
held_child() {
	local c
	c=$(pgrep -P "$1") && [ "$(cat "/proc/$c/comm" 2>/dev/null)" = bpfprof ] && echo "$c"
}

@test "Ctrl-C before the command's exec: the command never runs, bpfprof ends cleanly" {
	local pid child i status=0
	# a process group of its own with SIGINT at its default, as in a
	# terminal; big unwind maps keep the command held a while
	setsid env --default-signal=INT "$BPFPROF" record -q --unwind-memory=256M -o "$OUT" \
		-- sh -c "echo \$\$ >'$D/ran'; exec sleep 30" 2>"$D/err" &
	pid=$!
	for i in $(seq 3000); do
		child=$(held_child "$pid") && break
		sleep 0.01
	done
	[ -n "$child" ]
	kill -INT -- "-$pid" # the whole group, as Ctrl-C does
	wait "$pid" || status=$?
	cat "$D/err"
	[ "$status" -eq 0 ]
	[ -f "$OUT" ]
	[ ! -e "$D/ran" ]
	[ ! -e "/proc/$child" ]
}

@test "a stop signal ends the command with SIGTERM; one that ignores it is killed by a second" {
	local pid cmd status=0
	"$BPFPROF" record -q -o "$OUT" -- sh -c 'trap "" TERM; exec sleep 60' 2>"$D/err" &
	pid=$!
	sampling "$pid"
	cmd=$(exec_of "$(pgrep -P "$pid")" sleep)
	kill -INT "$pid"
	# bpfprof waits for its command rather than leave it behind
	wait_until grep -q "waiting for 'sh' (pid $cmd) to exit after SIGTERM" "$D/err"
	[ -e "/proc/$pid" ] && [ -e "/proc/$cmd" ]
	kill -INT "$pid"
	wait "$pid" || status=$?
	# the command was killed (SIGKILL); bpfprof, interrupted, exits 128 + SIGINT
	[ "$status" -eq $((128 + 2)) ]
	[ ! -e "/proc/$cmd" ]
	[ -f "$OUT" ]
}

# (issue 27, item 4) plant NAME [DIR]: a symlink NAME that user nobody owns in
# DIR (default $D/u, a directory nobody owns), to $D/imp, a file only root
# may read: what another user can prepare for root's bpfprof to write through
plant() {
	local dir=${2:-$D/u}
	[ -e "$D/imp" ] || { echo secret >"$D/imp" && chmod 0600 "$D/imp"; }
	if [ ! -d "$dir" ]; then
		mkdir "$dir"
		chown 65534:65534 "$dir"
	fi
	ln -s "$D/imp" "$dir/$1"
	chown -h 65534:65534 "$dir/$1"
}

# refused LINK [SUBCOMMAND]: the one line a planted LINK given to -o gets,
# naming it and nobody
refused() {
	echo "bpfprof${2:+ $2}: cannot write '$1': it is a symbolic link owned by $(getent passwd 65534 | cut -d: -f1) (uid 65534) in a directory other users can write; refusing to follow it"
}

# $D/imp as plant made it: not written, its owner and mode kept
untouched() {
	[ "$(cat "$D/imp")" = secret ]
	[ "$(stat -c '%u %a' "$D/imp")" = "0 600" ]
}

@test "a symlink another user planted in a directory they can write is refused before sampling, its target untouched" {
	plant out.folded
	SECONDS=0
	run timeout 20 "$BPFPROF" record -q -o "$D/u/out.folded" -- sleep 30
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/u/out.folded")" ]
	untouched
	[ -L "$D/u/out.folded" ]
	# the default output file in such a working directory too
	plant bpfprof.folded
	run bash -c "cd '$D/u' && timeout 20 '$BPFPROF' record -q -- sleep 30"
	[ "$status" -eq 64 ]
	[[ $output == "bpfprof: cannot write 'bpfprof.folded' (the default output file; name another with -o): it is a symbolic link owned by "* ]]
	untouched
	# a sticky world-writable directory nobody owns: nobody's link there too
	# (the kernel's protected_symlinks follows it: the directory's owner's)
	mkdir "$D/nsticky"
	chmod 1777 "$D/nsticky"
	chown 65534:65534 "$D/nsticky"
	plant out.folded "$D/nsticky"
	run timeout 20 "$BPFPROF" record -q -o "$D/nsticky/out.folded" -- sleep 30
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/nsticky/out.folded")" ]
	# root's own link in a world-writable directory of root's, not sticky:
	# anyone may have put it there, and it is refused as well
	mkdir "$D/ww"
	chmod 0777 "$D/ww"
	ln -s "$D/imp" "$D/ww/out.folded"
	run timeout 20 "$BPFPROF" record -q -o "$D/ww/out.folded" -- sleep 30
	[ "$status" -eq 64 ]
	[ "$output" = "bpfprof: cannot write '$D/ww/out.folded': it is a symbolic link owned by root (uid 0) in a directory other users can write; refusing to follow it" ]
	# root's link to a planted link: the target's directory is checked too
	mkdir -m 0700 "$D/mine"
	ln -s "$D/u/out.folded" "$D/mine/out.folded"
	run timeout 20 "$BPFPROF" record -q -o "$D/mine/out.folded" -- sleep 30
	[ "$status" -eq 64 ]
	[ "$output" = "bpfprof: cannot write '$D/mine/out.folded': it leads to '$D/u/out.folded', a symbolic link owned by $(getent passwd 65534 | cut -d: -f1) (uid 65534) in a directory other users can write; refusing to follow it" ]
	# none of them sampled the 30 s command, nor wrote anything
	((SECONDS < 20))
	untouched
	[ "$(ls "$D/u")" = "$(printf 'bpfprof.folded\nout.folded')" ]
}

@test "a symlink only root could have made is followed: in root's private directory, relative, to /dev/null" {
	plant out.folded
	mkdir -m 0700 "$D/mine"
	echo old >"$D/target.folded"
	chmod 0640 "$D/target.folded"
	ln -s ../target.folded "$D/mine/out.folded"
	run timeout 20 "$BPFPROF" record -q -o "$D/mine/out.folded" -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 0 ]
	[ -L "$D/mine/out.folded" ]
	grep -q '^spinner;' "$D/target.folded"
	[ "$(stat -c %a "$D/target.folded")" = 640 ]
	# a link to /dev/null there: written in place
	ln -s /dev/null "$D/mine/null.folded"
	run timeout 20 "$BPFPROF" record -q -o "$D/mine/null.folded" -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 0 ]
	[ -c /dev/null ]
	# and nobody's directory refused all the while (the test fails on a
	# bpfprof that follows every link)
	run timeout 20 "$BPFPROF" record -q -o "$D/u/out.folded" -- "$WORKLOADS/spinner" 0.3
	[ "$status" -eq 64 ]
	untouched
}

@test "--interval: a planted name is refused, the first before sampling, a later one when its interval ends" {
	plant p-0.folded
	SECONDS=0
	run timeout 20 "$BPFPROF" record -q --interval 0.5 -o "$D/u/p-%n.folded" -- sleep 30
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/u/p-0.folded")" ]
	((SECONDS < 20))
	untouched
	# a later interval's name: that interval is not written, the run fails
	plant q-1.folded
	run timeout 20 "$BPFPROF" record -q --interval 0.3 -o "$D/u/q-%n.folded" -- "$WORKLOADS/spinner" 3
	[ "$status" -eq 1 ]
	[[ $output == "bpfprof: cannot write interval 1's profile to '$D/u/q-1.folded': it is a symbolic link owned by "*" (uid 65534) in a directory other users can write; refusing to follow it" ]]
	grep -q '^spinner;' "$D/u/q-0.folded"
	[ -L "$D/u/q-1.folded" ]
	untouched
}

@test "report, diff, range (-o and --stacks), top and watch refuse a planted -o link before any work" {
	local f
	printf 'main;work 5\n' >"$D/in.folded"
	for f in report.folded diff.folded range.txt stacks.folded top.txt watch.folded; do
		plant "$f"
	done
	SECONDS=0
	run timeout 20 "$BPFPROF" report -q -o "$D/u/report.folded" "$D/in.folded"
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/u/report.folded" report)" ]
	run timeout 20 "$BPFPROF" diff -q -o "$D/u/diff.folded" "$D/in.folded" "$D/in.folded"
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/u/diff.folded" diff)" ]
	run timeout 20 "$BPFPROF" range -q -o "$D/u/range.txt" spinner:main -- "$WORKLOADS/spinner" 30
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/u/range.txt" range)" ]
	run timeout 20 "$BPFPROF" range -q -o "$D/range.txt" --stacks "$D/u/stacks.folded" \
		spinner:main -- "$WORKLOADS/spinner" 30
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/u/stacks.folded" range)" ]
	run timeout 20 "$BPFPROF" top -q -d 30 -o "$D/u/top.txt" </dev/null
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/u/top.txt" top)" ]
	# refused before any breakpoint is set: no debug register is taken
	run timeout 20 "$BPFPROF" watch -q -o "$D/u/watch.folded" counter -- "$WORKLOADS/watchme" basic 200
	[ "$status" -eq 64 ]
	[ "$output" = "$(refused "$D/u/watch.folded" watch)" ]
	((SECONDS < 20))
	untouched
	[ ! -e "$D/range.txt" ]
}
