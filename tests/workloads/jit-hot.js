// A JIT workload: spins in the named JavaScript function hotFunction for
// argv[2] seconds (default 2). Run under `node --perf-basic-prof`, node
// writes /tmp/perf-PID.map, so a profile can name hotFunction (as a _[j]
// frame) although its code lives in anonymous memory.
'use strict';

function hotFunction(n) {
	let x = 0;
	for (let i = 0; i < n; i++)
		x = (x * 31 + i) | 0;
	return x;
}

const end = Date.now() + 1000 * Number(process.argv[2] || 2);
let sink = 0;
while (Date.now() < end)
	sink ^= hotFunction(200000);
if (sink === 42)
	console.log(sink);
