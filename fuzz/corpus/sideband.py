#!/usr/bin/env python3
# The seeds of fuzz-sideband: perf side-band record streams laid out as the
# kernel writes them for bpfprof's dummy events (sample_id_all with
# PERF_SAMPLE_TIME: every record ends with its time), written to
# fuzz/corpus/sideband/seed-NAME. Run it from anywhere to write them again.
# A stream's length is a multiple of 8; one more byte (as in seed-wrapped)
# makes the target lay the stream in a ring wrapped at 8 * (byte % records'
# 8-byte words).
import os
import struct

MMAP2, COMM, EXIT, FORK, LOST, THROTTLE = 10, 3, 4, 7, 2, 5
MISC_COMM_EXEC = 1 << 13
MISC_MMAP_BUILD_ID = 1 << 14


def record(kind, misc, body, time):
    body += struct.pack("<Q", time)
    return struct.pack("<IHH", kind, misc, 8 + len(body)) + body


def name(s):
    b = s.encode() + b"\0"
    return b + b"\0" * (-len(b) % 8)


def task(kind, pid, ppid, time):
    return record(kind, 0, struct.pack("<IIIIQ", pid, ppid, pid, ppid, time), time)


def comm(pid, s, time, exec_=True):
    return record(COMM, MISC_COMM_EXEC if exec_ else 0, struct.pack("<II", pid, pid) + name(s), time)


def mmap2(pid, addr, length, path, time, build_id=None):
    head = struct.pack("<IIQQQ", pid, pid, addr, length, 0x1000)
    if build_id is not None:
        ids = struct.pack("<BBH", len(build_id), 0, 0) + build_id.ljust(20, b"\0")
        misc = MISC_MMAP_BUILD_ID
    else:
        ids = struct.pack("<IIQQ", 8, 1, 1234567, 0)
        misc = 0
    return record(MMAP2, misc, head + ids + struct.pack("<II", 5, 2) + name(path), time)


def lost(n, time):
    return record(LOST, 0, struct.pack("<QQ", 1, n), time)


BID = bytes(range(0x10, 0x24))
seeds = {
    # a command's life: fork, exec, its mappings, exit
    "exec": task(FORK, 4242, 4241, 100)
    + comm(4242, "workload", 110)
    + mmap2(4242, 0x555555554000, 0x3000, "/usr/bin/workload", 120, BID)
    + mmap2(4242, 0x7FFFF7DC0000, 0x158000, "/usr/lib/x86_64-linux-gnu/libc.so.6", 130, BID[::-1])
    + mmap2(4242, 0x7FFFF7FC5000, 0x1000, "//anon", 131)
    + task(EXIT, 4242, 4241, 200),
    # records read out of time order, a thread, a rename, a lost count, a kind not decoded
    "unordered": mmap2(7, 0x400000, 0x1000, "/tmp/perf-7.map", 50, b"\x01" * 8)
    + task(FORK, 7, 7, 20)
    + lost(12, 30)
    + comm(7, "renamed", 60, exec_=False)
    + record(THROTTLE, 0, struct.pack("<QQQ", 70, 1, 1), 70)
    + task(EXIT, 8, 7, 40),
    # the same kind of stream laid in a ring wrapped in the middle of the MMAP2
    "wrapped": task(FORK, 11, 10, 1)
    + comm(11, "a-longer-comm-name", 2)
    + mmap2(11, 0x10000, 0x20000, "/opt/a/very/long/path/to/a/library/libx.so.1", 3, BID)
    + task(EXIT, 11, 10, 4)
    + bytes([9]),
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sideband")
os.makedirs(out, exist_ok=True)
for key, data in seeds.items():
    with open(os.path.join(out, "seed-" + key), "wb") as f:
        f.write(data)
