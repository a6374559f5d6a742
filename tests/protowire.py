# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Protocol buffers' wire format, for tests that craft pprof files by hand."""


def v(n):
    """n as a varint"""
    o = b""
    while n >= 0x80:
        o += bytes([n & 0x7f | 0x80])
        n >>= 7
    return o + bytes([n])


def ld(f, b):
    """field f, length-delimited: bytes b"""
    return v(f << 3 | 2) + v(len(b)) + b


def vi(f, n):
    """field f, a varint"""
    return v(f << 3) + v(n)
