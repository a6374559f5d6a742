// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <signal.h>

#include "array.h"
#include "stopsig.h"

static const int stopsig_signals[] = { SIGHUP, SIGINT, SIGTERM };

void stopsig__set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < ARRAY_SIZE(stopsig_signals); i++)
		sigaddset(set, stopsig_signals[i]);
}

int stopsig__block(sigset_t *old)
{
	sigset_t set;

	stopsig__set(&set);
	return sigprocmask(SIG_BLOCK, &set, old) ? -errno : 0;
}

int stopsig__pending(void)
{
	sigset_t set;

	if (sigpending(&set))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(stopsig_signals); i++)
		if (sigismember(&set, stopsig_signals[i]) == 1)
			return stopsig_signals[i];
	return 0;
}
