// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libsigearly.so: preloaded (LD_PRELOAD), it sends its process signal
 * $SIGEARLY (a number) from its constructor: a signal that arrives while
 * the libraries initialise, after the dynamic loader and before main()
 * (lifecycle.bats). Once: the variable goes, so what the process runs
 * later does not send it again.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void sigearly(void)
{
	const char *sig = getenv("SIGEARLY");

	if (!sig)
		return;
	unsetenv("SIGEARLY");
	kill(getpid(), atoi(sig));
}
