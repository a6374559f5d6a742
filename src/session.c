/* placeholder: in progress */
#include "session.h"
int record__run(const struct record_opts *opts)
{
	(void)opts;
	return EXIT_RUNTIME;
}
