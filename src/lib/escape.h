/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Names from outside (symbol names, perf map entries, file names, source
 * lines, comms) made safe to write to a file or a terminal: every byte
 * below 0x20, 0x7f, every C1 control (U+0080-U+009F, as UTF-8) and every
 * byte that is not part of valid UTF-8 becomes "\xHH" (each byte of a C1
 * control's sequence); a backslash becomes "\\", so the escaping can be
 * undone. Valid printable UTF-8 (C++ names, non-ASCII file names) stays
 * as it is.
 */
#ifndef BPFPROF_ESCAPE_H
#define BPFPROF_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Does @s hold any byte that escape__* would change? */
bool escape__needed(const char *s);
/* Write @n bytes of @s escaped to @f; 0, or -EIO when @f has a write error. */
int escape__write(FILE *f, const char *s, size_t n);
/*
 * @s escaped into @buf of @size bytes (NUL-terminated, cut short when it
 * does not fit, never inside an escape); returns the length the whole of
 * it takes, as snprintf does.
 */
size_t escape__str(char *buf, size_t size, const char *s);
/* @s escaped, in memory of its own (free it); NULL on ENOMEM. */
char *escape__dup(const char *s);
/*
 * The escaping undone, for names read back from bpfprof's own files: the
 * @n bytes at @s into @out (room for @n + 1 bytes: never longer), "\\"
 * as a backslash and "\xHH" as the byte HH (but "\x00": a name holds no
 * NUL); anything else, a lone backslash included, as it is. NUL-terminated;
 * returns the length.
 */
size_t escape__undo(char *out, const char *s, size_t n);

/*
 * A stream that writes what it is given to @to escaped, line by line, its
 * newlines kept: for text that code of others prints (argp's and getopt's
 * errors quote the argument as given). A line longer than 64 KiB may have
 * a UTF-8 character cut in two and escaped. fclose it to flush (@to stays
 * open). NULL and errno on failure.
 */
FILE *escape__stream(FILE *to);

#endif /* BPFPROF_ESCAPE_H */
