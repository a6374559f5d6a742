#!/usr/bin/env bats
# bpfprof record -o FILE.svg: the interactive flame graph, as root, on real
# perf events and real workloads (tests/workloads/). The file must be
# valid XML (xmllint), hold a frame for every function wider than
# --minwidth, escape hostile names, and work in a browser: headless
# Chromium renders it, and its own functions (the ones a click and the
# search button call) zoom a frame to the full width and match the share
# the tooltips add up to. Chromium starts slowly on a loaded machine: it
# runs once in the whole suite, and most tests read the one recording of
# setup_file.
# suite-lock: debugregs (its watch takes a debug register of every CPU its
# workload may run on: not beside a suite holding all four of one CPU's)

bats_require_minimum_version 1.5.0
load helpers

# fp-three for 2 s, as an SVG: $BATS_FILE_TMPDIR/fp-three.svg, and what
# bpfprof printed in fp-three.err (the tests read it, and fail on it)
setup_file() {
	[ "$(id -u)" -eq 0 ] || return 0
	"$BPFPROF" record -F 999 -o "$BATS_FILE_TMPDIR/fp-three.svg" -- "$WORKLOADS/fp-three" 2 \
		2>"$BATS_FILE_TMPDIR/fp-three.err" || echo "exit status $?" >>"$BATS_FILE_TMPDIR/fp-three.err"
}

setup() {
	need_root
	command -v xmllint >/dev/null || skip "no xmllint (scripts/deps: libxml2-utils)"
	FP=$BATS_FILE_TMPDIR/fp-three.svg
	SVG=$BATS_TEST_TMPDIR/out.svg
	PIDS=()
}

teardown() {
	stop_workloads
}

# fp_three: the recording of setup_file is there, else why not
fp_three() {
	[ -s "$FP" ] || { cat "$BATS_FILE_TMPDIR/fp-three.err"; false; }
}

# frames SVG: one line per frame, "samples<TAB>x<TAB>width<TAB>name", from
# the tooltips (<title>: "name (N samples, P%)") and the boxes
frames() {
	python3 - "$1" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
for g in root.iter(ns + 'g'):
    t, r = g.find(ns + 'title'), g.find(ns + 'rect')
    if t is None or r is None:
        continue
    m = re.match(r'(.*) \((\d+) samples, [0-9.]+%\)$', t.text, re.S)
    print('%s\t%s\t%s\t%s' % (m.group(2), r.get('x'), r.get('width'), m.group(1)))
EOF
}

# chromium ARGS...: headless, its own profile directory, at most 60 s
chromium_run() {
	command -v chromium >/dev/null || skip "no chromium (scripts/deps)"
	timeout 60 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$BATS_TEST_TMPDIR/chromium" "$@" 2>/dev/null
}

@test "an SVG is valid XML with a frame for every function the folded output shows" {
	fp_three
	grep -q "profile written to '$FP'" "$BATS_FILE_TMPDIR/fp-three.err"
	xmllint --noout "$FP"
	head -c 200 "$FP" | grep -q '<svg '
	frames "$FP" >"$BATS_TEST_TMPDIR/frames"
	total=$(awk -F'\t' '$4 == "all" { print $1 }' "$BATS_TEST_TMPDIR/frames")
	at_least "$total" 100
	# the leaves split their time 50/30/20 (their frames' samples)
	leaf() { awk -F'\t' -v n="$1" '$4 == n { s += $1 } END { print s + 0 }' "$BATS_TEST_TMPDIR/frames"; }
	base=$(( $(leaf leaf_a) + $(leaf leaf_b) + $(leaf leaf_c) ))
	at_least "$base" 80
	within $(( $(leaf leaf_a) * 100 / base )) 50 15
	within $(( $(leaf leaf_c) * 100 / base )) 20 12
	# the subtitle says what ran, the event, the rate and the samples
	grep -q "fp-three 2; cpu-clock at 999 Hz; [0-9.]* s; $total samples</text>" "$FP"

	# a folded profile of the same workload: every function of its stacks
	# under main with 5% of the samples or more (far above 0.1 pixel, the
	# default --minwidth, and present in every run) is a frame
	run "$BPFPROF" record -F 999 -o "$BATS_TEST_TMPDIR/out.folded" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	ftotal=$(total "$BATS_TEST_TMPDIR/out.folded")
	awk -v t="$ftotal" '/;main;/ { n = split($0, f, ";"); c = $NF; sub(/ [0-9]+$/, "", f[n])
		for (i = 1; i <= n; i++) if (!seen[NR, f[i]]++) s[f[i]] += c }
		END { for (k in s) if (s[k] * 100 >= 5 * t) print k }' \
		"$BATS_TEST_TMPDIR/out.folded" | sort >"$BATS_TEST_TMPDIR/want"
	cut -f4 "$BATS_TEST_TMPDIR/frames" | sort -u >"$BATS_TEST_TMPDIR/have"
	grep -qx leaf_b "$BATS_TEST_TMPDIR/want"
	missing=$(comm -23 "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/have")
	[ -z "$missing" ] || { echo "not in the SVG: $missing" >&2; false; }
}

@test "--minwidth leaves out narrower frames, -f svg --width --title --inverted apply" {
	fp_three
	all=$(frames "$FP" | wc -l)
	out=$BATS_TEST_TMPDIR/pruned
	run "$BPFPROF" record -F 999 -f svg --minwidth 100 --width 800 --title 'T <&> "q"' \
		--inverted -o "$out" -- "$WORKLOADS/fp-three" 1
	[ "$status" -eq 0 ]
	xmllint --noout "$out"
	frames "$out" >"$BATS_TEST_TMPDIR/frames"
	kept=$(wc -l <"$BATS_TEST_TMPDIR/frames")
	[ "$kept" -lt "$all" ] || { echo "--minwidth 100 kept $kept frames of $all" >&2; false; }
	# none narrower than 100 pixels but the root; the leaves (20% or more of 780) stay
	awk -F'\t' '$4 != "all" && $3 < 100 { bad = 1 } END { exit bad }' "$BATS_TEST_TMPDIR/frames"
	grep -qP '\tleaf_c$' "$BATS_TEST_TMPDIR/frames"
	grep -q 'width="800"' "$out"
	grep -q '>T &lt;&amp;&gt; &quot;q&quot;</text>' "$out"
	# an icicle: the root at the top
	[ "$(xmllint --xpath 'string(//*[local-name()="g"][starts-with(*[local-name()="title"], "all (")]/*[local-name()="rect"]/@y)' "$out")" -eq 62 ]
}

@test "watch writes the svg too, with the svg options: its accesses as frames" {
	need_root
	local out=$BATS_TEST_TMPDIR/watch.svg
	run --separate-stderr "$BPFPROF" watch --title 'counter writers' --width 900 -o "$out" \
		counter -- "$WORKLOADS/watchme" basic 1000
	[ "$status" -eq 0 ]
	xmllint --noout "$out"
	grep -q '>counter writers</text>' "$out"
	grep -q 'width="900"' "$out"
	# every access a sample: 4000 writes of counter, bump_three's among them
	grep -q '<title>all (4000 samples, 100' "$out"
	grep -q '<title>bump_three (' "$out"
	run --separate-stderr "$BPFPROF" watch --width 900 -o "$BATS_TEST_TMPDIR/w.folded" counter \
		-- "$WORKLOADS/watchme" basic 10
	[ "$status" -eq 64 ]
	[[ "$stderr" == *"--width is an option of the svg format, not of folded"* ]]
}

@test "C++ templates, lambdas and hostile names stay valid XML" {
	run "$BPFPROF" record -F 999 -o "$SVG" -- sh -c \
		"'$WORKLOADS/cpp-names' 0.5 & '$WORKLOADS/hostile-names' 0.5; wait"
	[ "$status" -eq 0 ]
	xmllint --noout "$SVG"
	grep -q '<title>ns::Worker&lt;int&gt;::spin (' "$SVG"
	grep -q '<title>ns::run(double)::{lambda(double)#1}::operator() (' "$SVG"
	# control bytes and the invalid byte 0x88 as \xHH, never raw
	grep -qF '<title>evil\x1b[31m\x07\\name\x88 (' "$SVG"
	! LC_ALL=C grep -qP '[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]' "$SVG"
}

@test "svg options need the svg format; bad values are one-line usage errors" {
	run "$BPFPROF" record --width 800 -o "$BATS_TEST_TMPDIR/x.folded" -- true
	[ "$status" -eq 64 ]
	[[ "$output" == *"--width is an option of the svg format, not of folded: add -f svg or -o FILE.svg"* ]]
	run "$BPFPROF" record --minwidth=-1 -o "$SVG" -- true
	[ "$status" -eq 64 ]
	[[ "$output" == *"invalid --minwidth '-1': expected pixels from 0 to 100000"* ]]
	run "$BPFPROF" record --width 10 -o "$SVG" -- true
	[ "$status" -eq 64 ]
	[[ "$output" == *"--width"*"10"* ]]
	[ ! -e "$SVG" ]
}

@test "Chromium renders it; a click zooms a frame to the full width; a search matches its share" {
	fp_three
	frames "$FP" >"$BATS_TEST_TMPDIR/frames"
	# a copy that calls what a click on split and a search call, and
	# writes what they did into the document
	test=$BATS_TEST_TMPDIR/test.svg
	sed '$d' "$FP" >"$test"
	cat >>"$test" <<'EOF'
<script type="text/ecmascript"><![CDATA[
function by_name(n) {
	var w = null;
	for (var i = 0; i < F.length; i++) if (F[i].name === n && (!w || F[i].w > w.w)) w = F[i];
	return w;
}
var split = by_name('split'), out = [];
zoom(split);
out.push('split ' + split.r.getAttribute('width'));
out.push('leaf_b ' + by_name('leaf_b').r.getAttribute('width'));
var hidden = 0, outside = 0;
for (var i = 0; i < F.length; i++) {
	var f = F[i], under = f.x >= split.x - 0.02 && f.x + f.w <= split.x + split.w + 0.02;
	var above = f.x <= split.x + 0.02 && f.x + f.w >= split.x + split.w - 0.02;
	if (!under && !above) outside++;
	if (f.g.style.display === 'none') hidden++;
}
out.push('hidden ' + hidden + ' of ' + outside);
out.push('leaf_a% ' + search('^leaf_a$').toFixed(2));
out.push('both% ' + search('^(split|leaf_a)$').toFixed(2));
out.push('split% ' + search('^split$').toFixed(2));
out.push('matched ' + document.getElementById('matched').textContent);
unzoom();
out.push('unzoomed ' + split.r.getAttribute('width'));
var r = document.createElementNS('http://www.w3.org/2000/svg', 'desc');
r.setAttribute('id', 'result');
r.textContent = '|' + out.join('|') + '|';
document.documentElement.appendChild(r);
]]></script>
</svg>
EOF
	xmllint --noout "$test"
	# one run: the document as that script left it, and a screenshot
	dom=$(chromium_run --dump-dom --screenshot="$BATS_TEST_TMPDIR/shot.png" \
		--window-size=1200,400 "file://$test")

	# rendered: a screenshot with the frames' many colours, not a blank page
	colours=$(python3 - "$BATS_TEST_TMPDIR/shot.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
pos, idat, w, h, ct = 8, b'', 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ct = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4}[ct]
raw, stride, prev, seen = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        seen.add(bytes(line[x:x + 3]))
    prev = line
print(len(seen))
EOF
)
	at_least "$colours" 20

	[[ $dom =~ \|split\ ([0-9.]+)\| ]]
	[ "${BASH_REMATCH[1]}" = "1180.00" ]
	# leaf_b: 30% of split's width, now the full 1180 pixels
	[[ $dom =~ \|leaf_b\ ([0-9]+)\.[0-9]+\| ]]
	within "${BASH_REMATCH[1]}" 354 95
	# what is neither under split nor on its way to the root is hidden (the
	# frames of other stacks: fp-three's start, the kernel's exit...)
	[[ $dom =~ \|hidden\ ([0-9]+)\ of\ ([0-9]+)\| ]]
	[ "${BASH_REMATCH[1]}" -eq "${BASH_REMATCH[2]}" ]
	# leaf_a's share: its frames' samples (tooltips) of all
	total=$(awk -F'\t' '$4 == "all" { print $1 }' "$BATS_TEST_TMPDIR/frames")
	want=$(awk -F'\t' -v t="$total" '$4 == "leaf_a" { s += $1 } END { printf "%d", s * 10000 / t }' "$BATS_TEST_TMPDIR/frames")
	[[ $dom =~ \|leaf_a%\ ([0-9]+)\.([0-9]+)\| ]]
	within "${BASH_REMATCH[1]}${BASH_REMATCH[2]}" "$want" 20
	# each sample once: leaf_a is under split, so split|leaf_a is split's share
	[[ $dom =~ \|both%\ ([0-9.]+)\| ]]
	both=${BASH_REMATCH[1]}
	[[ $dom =~ \|split%\ ([0-9.]+)\| ]]
	[ "$both" = "${BASH_REMATCH[1]}" ]
	# the line the search shows: split's share to a tenth
	split=${BASH_REMATCH[1]}
	[[ $dom =~ \|matched\ Matched:\ ([0-9]+\.[0-9])%\| ]]
	within "${BASH_REMATCH[1]/./}" "$(printf %.0f "${split}e1")" 1
	# reset: split is as wide as it was written
	[[ $dom =~ \|unzoomed\ ([0-9.]+)\| ]]
	[ "${BASH_REMATCH[1]}" = "$(awk -F'\t' '$4 == "split" && $3 > w { w = $3 } END { print w }' "$BATS_TEST_TMPDIR/frames")" ]
}
