// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libwatchlate.so: a library watchme loads with dlopen(3) after it has
 * started (modes dlopen and dlwait), for the watch tests of BINARY:SYMBOL
 * in a library mapped later. late_bump() writes late_counter once.
 */
volatile long late_counter;

__attribute__((noinline)) void late_bump(void)
{
	late_counter++; /* LINE:late_bump */
}
