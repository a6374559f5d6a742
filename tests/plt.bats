#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# PLT stubs are named NAME@plt (the header .plt), as perf names them,
# through the hidden `bpfprof debug-symbolize`: every instruction of the
# .plt, .plt.sec and .plt.got sections against the stub objdump labels it
# with. Lazy and -z now workloads, an IBT build (.plt.sec), a stripped copy,
# and Debian's stripped xz and libc. No root needed.

bats_require_minimum_version 1.5.0
load helpers

LIBC=/lib/x86_64-linux-gnu/libc.so.6

setup() {
	need_binary
	FIXTURES=${FIXTURES:-$(dirname "$(dirname "$BPFPROF")")/tests/fixtures}
}

# plt_expected FILE: "ADDRESS WANT" for every instruction of FILE's PLT
# sections, WANT from objdump's label of the stub holding it: NAME@plt;
# .plt for the header ("<FIRST@plt-0x10>") and for all of .plt beside a
# .plt.sec ("<.plt>"); "ifunc:VALUE" for "<*ABS*+0xVALUE@plt>" (an
# IRELATIVE slot, which objdump does not name).
plt_expected() {
	objdump -d --section=.plt --section=.plt.sec --section=.plt.got "$1" | awk '
	/^[0-9a-f]+ <.*>:$/ {
		l = substr($2, 2, length($2) - 3)
		if (l == ".plt" || l ~ /@plt-0x10$/) {
			want = ".plt"
		} else if (l ~ /^\*ABS\*\+0x[0-9a-f]+@plt$/) {
			sub(/^\*ABS\*\+0x/, "", l)
			sub(/@plt$/, "", l)
			want = "ifunc:" l
		} else if (l ~ /@plt$/) {
			want = l
		} else {
			want = "unexpected-label:" l
		}
		next
	}
	/^ +[0-9a-f]+:\t/ { a = $1; sub(/:$/, "", a); print a, want }'
}

# plt_agree FILE MIN_STUBS: every PLT instruction of FILE is named as
# objdump says (an IRELATIVE stub after a symbol of FILE's .dynsym at the
# IFUNC's address), over at least MIN_STUBS stubs
plt_agree() {
	local want=$BATS_TEST_TMPDIR/want got=$BATS_TEST_TMPDIR/got syms=$BATS_TEST_TMPDIR/syms
	plt_expected "$1" >"$want"
	cut -d' ' -f1 "$want" | "$BPFPROF" debug-symbolize --no-inline "$1" |
		awk -v RS= -F'\t' '{ print $1 }' >"$got"
	[ "$(wc -l <"$want")" -eq "$(wc -l <"$got")" ] || {
		echo "$(wc -l <"$want") addresses, $(wc -l <"$got") answers" >&2
		return 1
	}
	# "VALUE NAME@plt" for each defined dynamic symbol, VALUE without leading zeros
	nm -D --defined-only "$1" 2>/dev/null |
		awk '{ v = $1; sub(/^0+/, "", v); n = $NF; sub(/@.*/, "", n); print v, n "@plt" }' >"$syms"
	paste -d' ' "$want" "$got" | awk -v syms="$syms" -v min="$2" '
	BEGIN { while ((getline l < syms) > 0) ok[l] = 1 }
	{ stubs[$2] = 1 }
	$2 ~ /^ifunc:/ {
		v = substr($2, 7)
		sub(/^0+/, "", v)
		if (!((v " " $3) in ok) && bad++ < 10)
			print "at 0x" $1 ": want the stub of an IFUNC at 0x" v ", got " $3
		next
	}
	$2 != $3 && bad++ < 10 { print "at 0x" $1 ": want " $2 ", got " $3 }
	END {
		for (s in stubs)
			n++
		if (n < min) {
			print n " stubs, want >= " min
			bad++
		}
		exit bad > 0
	}' >&2
}

@test "lazy binding: .plt and .plt.got stubs of the executable and its library" {
	plt_agree "$WORKLOADS/unwind-plt" 7
	plt_agree "$WORKLOADS/libunwind-plt.so" 3
}

@test "-z now: the same stubs, named from the same relocations" {
	plt_agree "$WORKLOADS/unwind-plt-now" 7
	plt_agree "$WORKLOADS/libunwind-plt-now.so" 3
}

@test "IBT: .plt.sec stubs named, all of .plt is .plt" {
	[ -x "$FIXTURES/cfi-fixture-ibt" ] || skip "no fixtures in $FIXTURES"
	readelf -SW "$FIXTURES/cfi-fixture-ibt" | grep -q ' \.plt\.sec '
	plt_agree "$FIXTURES/cfi-fixture-ibt" 4
}

@test "a stripped copy names its stubs from .dynsym and the relocations" {
	objcopy --strip-all "$WORKLOADS/unwind-plt-now" "$BATS_TEST_TMPDIR/stripped"
	plt_agree "$BATS_TEST_TMPDIR/stripped" 7
}

@test "Debian's stripped xz and libc: every stub, IRELATIVE ones after their IFUNC" {
	plt_agree /usr/bin/xz 100
	plt_agree "$LIBC" 50
}
