// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "check.h"

int main(void)
{
	CHECK(1, "placeholder");
	return check_done();
}
