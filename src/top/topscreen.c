// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The live top's terminal: full screen, keys, restored (topscreen.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "topscreen.h"

/* the alternate screen, the cursor hidden; and back */
#define TOP_SCREEN_ENTER "\033[?1049h\033[?25l"
#define TOP_SCREEN_LEAVE "\033[?25h\033[?1049l"

struct top_screen {
	bool full;      /* the tables go to standard output, a terminal */
	bool keys;      /* standard input is one: read keys */
	bool entered;   /* the alternate screen is in use */
	bool raw;       /* @saved is to be put back */
	struct termios saved;
};

struct top_screen *top_screen__new(bool to_stdout)
{
	struct top_screen *ts = calloc(1, sizeof(*ts));

	if (!ts)
		return NULL;
	ts->full = to_stdout && isatty(STDOUT_FILENO);
	ts->keys = isatty(STDIN_FILENO);
	return ts;
}

static void top_screen__restore(struct top_screen *ts)
{
	if (ts->entered) {
		fputs(TOP_SCREEN_LEAVE, stdout);
		fflush(stdout);
		ts->entered = false;
	}
	if (ts->raw) {
		tcsetattr(STDIN_FILENO, TCSANOW, &ts->saved);
		ts->raw = false;
	}
}

void top_screen__free(struct top_screen *ts)
{
	if (!ts)
		return;
	top_screen__restore(ts);
	free(ts);
}

bool top_screen__full(const struct top_screen *ts)
{
	return ts->full;
}

void top_screen__size(const struct top_screen *ts, unsigned int *rows, unsigned int *cols)
{
	struct winsize ws;

	*rows = *cols = 0;
	if (ts->full && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws)) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/* Keys one at a time, no echo; Ctrl-C still a signal. */
static int top_screen__open(struct session *s, void *priv)
{
	struct top_screen *ts = priv;
	struct termios t;

	if (ts->keys && !tcgetattr(STDIN_FILENO, &ts->saved)) {
		t = ts->saved;
		t.c_lflag &= ~(ICANON | ECHO);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		if (tcsetattr(STDIN_FILENO, TCSANOW, &t))
			return session__fail(s, EXIT_RUNTIME, "cannot set up the terminal: %s",
					     strerror(errno));
		ts->raw = true;
	} else {
		ts->keys = false;
	}
	return 0;
}

void top_screen__enter(struct top_screen *ts)
{
	if (ts->full && !ts->entered) {
		fputs(TOP_SCREEN_ENTER, stdout);
		fflush(stdout);
		ts->entered = true;
	}
}

static int top_screen__fd(void *priv)
{
	struct top_screen *ts = priv;

	return ts->keys ? STDIN_FILENO : -1;
}

static int top_screen__ready(struct session *s, void *priv)
{
	struct top_screen *ts = priv;
	char c[64];
	ssize_t n = read(STDIN_FILENO, c, sizeof(c));

	if (n <= 0) {
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		ts->keys = false; /* no more keys: Ctrl-C still quits */
		return 0;
	}
	for (ssize_t i = 0; i < n; i++)
		if (c[i] == 'q' || c[i] == 'Q')
			session__stop(s, 0);
	return 0;
}

static void top_screen__stopped(struct session *s, void *priv)
{
	(void)s;
	top_screen__restore(priv);
}

static void top_screen__end(struct session *s, void *priv)
{
	(void)s;
	top_screen__restore(priv);
}

const struct session_hooks top_screen_hooks = {
	.open = top_screen__open,
	.fd = top_screen__fd,
	.ready = top_screen__ready,
	.stopped = top_screen__stopped,
	.end = top_screen__end,
};
