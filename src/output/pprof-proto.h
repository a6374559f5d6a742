/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What pprof's writer (output-pprof.c) and reader (report/pprofread.c)
 * share: profile.proto's field numbers, and how bpfprof names code it
 * could not name and marks, which pprof has no field for.
 */
#ifndef BPFPROF_PPROF_PROTO_H
#define BPFPROF_PPROF_PROTO_H

#include <stdbool.h>
#include <string.h>

/* Field numbers of profile.proto (github.com/google/pprof/proto/profile.proto). */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUE_TYPE_TYPE = 1,
	VALUE_TYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1,
	SAMPLE_VALUE = 2,
	SAMPLE_LABEL = 3,
	LABEL_KEY = 1,
	LABEL_STR = 2,
	LABEL_NUM = 3,
	MAPPING_ID = 1,
	MAPPING_FILENAME = 5,
	MAPPING_BUILD_ID = 6,
	MAPPING_HAS_FUNCTIONS = 7,
	MAPPING_HAS_FILENAMES = 8,
	MAPPING_HAS_LINE_NUMBERS = 9,
	MAPPING_HAS_INLINE_FRAMES = 10,
	LOCATION_ID = 1,
	LOCATION_MAPPING_ID = 2,
	LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	LINE_LINE = 2,
	MAPPING_MEMORY_START = 2,
	MAPPING_FILE_OFFSET = 4,
	LOCATION_ADDRESS = 3,
	FUNCTION_ID = 1,
	FUNCTION_NAME = 2,
	FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4,
	FUNCTION_START_LINE = 5,
};

/* Is @name a frame bpfprof could not name ("[libc.so.6+0x2724a]", "[anon+0x7f00]")? */
static inline bool pprof_proto__unnamed(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && name[0] == '[' && name[n - 1] == ']' && strstr(name, "+0x");
}

/* Is @name a mark ("[truncated]", "[no stack]"), not code? */
static inline bool pprof_proto__mark(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && name[0] == '[' && name[n - 1] == ']' && !pprof_proto__unnamed(name);
}

#endif /* BPFPROF_PPROF_PROTO_H */
