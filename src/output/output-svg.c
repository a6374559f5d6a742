// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An interactive flame graph, one self-contained SVG file (our own
 * generator and script, nothing external): the stacks merged into a tree
 * (the process frame first, as the folded writer starts each line: "comm",
 * "comm-PID" with --per-pid), each frame as wide as its samples, children
 * in name order; frames narrower than --minwidth pixels are left out (so a
 * profile of a million stacks stays a file of a few megabytes). One <g>
 * per frame: a <title> (the tooltip: name, samples, percentage), a <rect>
 * and its name cut to fit. The script (ES5) zooms on a click (that frame
 * spans the full width, its ancestors stay, the rest hides; a click on
 * the root or on "Reset zoom" undoes it), searches by regular expression
 * ("Search", or Ctrl-F: matches in magenta, "Matched: N.N%" counts each
 * sample once however many frames of its stack match) and shows the
 * frame under the pointer in the line at the bottom.
 *
 * Names read as in the folded file ("_[k]", "_[i]", "_[j]" after kernel,
 * inlined and JIT frames; control bytes and invalid UTF-8 as "\xHH",
 * escape.c), then XML-escaped; U+FFFE and U+FFFF, valid UTF-8 but not
 * XML characters, are written "\xHH" too. Colours are a hue range per
 * kind of frame, the shade from a hash of the name (so a function has the
 * same colour in every graph): user code warm (red to yellow), kernel
 * salmon to orange-red, inlined calls cyan, JIT code green, marks
 * ("[truncated]", "[fp]"...) and the root grey.
 *
 * A profile read back without processes (no_procs) has no process frame;
 * one of several events has the event under the root, as folded lines start.
 * A differential profile (bpfprof diff: a base count per stack) is drawn
 * sized by its own (new) counts and coloured by each frame's change of
 * share: its share of the new samples less its share of the base's, red
 * where it grew and blue where it shrank, the deepest colour for the
 * largest change, light grey where nothing changed; the tooltip gives both
 * counts and shares and the change.
 *
 * The tree is never held: the stacks are sorted by the ranks of their
 * frame texts (frame-text.c: texts alike share a rank, so processes of one
 * comm merge without --per-pid), so the stacks through a frame are
 * consecutive and a walk keeps only the current path; a frame is complete
 * (samples, x = the samples of the stacks before its first) when a stack
 * leaves it. Two walks: one for the depth of the frames wider than
 * --minwidth (the image's height), one writing them, children before
 * their parent, the root last. The script rebuilds the parent links by
 * reading that order backwards; zoom and search go by the tree and the
 * samples, never by rounded pixels. The subtitle (struct output_run: what
 * ran, event, rate) is filled by the mode before it writes; the writer
 * knows nothing of the session. svg's options (struct output_svg in
 * output_opts) are zero for the defaults, so range --stacks FILE.svg gets
 * them; cli-output.c refuses them with another format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "frame-text.h"
#include "output.h"

#define SVG_WIDTH 1200      /* pixels, without --width */
#define SVG_MINWIDTH 0.1    /* pixels, without --minwidth */
#define SVG_FRAME_H 16      /* a frame's row */
#define SVG_FONT 12         /* frame names */
#define SVG_CHAR_W 7.2      /* about the width of a character at SVG_FONT */
#define SVG_PAD 10          /* left and right */
#define SVG_TOP 62          /* title, subtitle, the buttons */
#define SVG_BOTTOM 30       /* the details line */

/* A frame of the graph: a node of the merged tree. */
struct svg_node {
	uint64_t x;     /* the samples left of it */
	uint64_t count; /* its samples */
	uint64_t base;  /* a differential profile's: its base samples */
	uint32_t text;  /* its canonical text (the root: none) */
	uint32_t depth; /* 0: the root, 1: the process */
};

struct svg {
	const struct profile *p;
	const struct output_opts *o;
	struct frame_text text;        /* of the profile's frames and processes */
	struct frame_rank frames, procs; /* those texts ranked */
	uint32_t *order; /* the stacks in name order */
	FILE *f;         /* being written */
	double height;
	uint64_t total;
	uint64_t total_base;           /* a differential profile's base samples */
	double max_delta;              /* the largest change of share drawn (diff) */
	uint32_t ev_piece;             /* 1: a stack's first piece is its event (several); 0: none */
	uint32_t proc_piece;           /* 1: a stack's next piece is its process; 0: none */
	size_t paths;                  /* distinct stacks, as the folded file's lines */
	double width, minwidth, scale; /* scale: pixels a sample */
	uint32_t max_depth;            /* of the frames written */
};

/* ---- the tree ---- */

/*
 * Piece @i of stack @st: 0 its process, 1 + j its frame j (canonical ids);
 * without processes (no_procs) piece j is frame j; a profile of several
 * events has the event's index before them all.
 */
static uint32_t svg__piece(const struct svg *g, const struct profile_stack *st, uint32_t i)
{
	if (i < g->ev_piece)
		return st->event;
	i -= g->ev_piece;
	if (i < g->proc_piece)
		return g->procs.id[st->proc];
	return g->frames.id[g->p->ids[st->at + i - g->proc_piece]];
}

static uint32_t svg__pieces(const struct svg *g, const struct profile_stack *st)
{
	return st->nr + g->ev_piece + g->proc_piece;
}

static int svg__stack_cmp(const void *a, const void *b, void *ctx)
{
	const struct svg *g = ctx;
	const struct profile_stack *x = &g->p->stacks[*(const uint32_t *)a];
	const struct profile_stack *y = &g->p->stacks[*(const uint32_t *)b];
	uint32_t nx = svg__pieces(g, x), ny = svg__pieces(g, y), n = nx < ny ? nx : ny;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t px = svg__piece(g, x, i), py = svg__piece(g, y, i);

		if (px != py)
			return px < py ? -1 : 1;
	}
	return nx < ny ? -1 : nx > ny;
}

/* The stacks in name order (the order of the tree's frames): g->order. */
static int svg__sort(struct svg *g)
{
	const struct profile *p = g->p;

	g->order = malloc((p->nr ? p->nr : 1) * sizeof(*g->order));
	if (!g->order)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr; i++) {
		g->order[i] = i;
		g->total += p->stacks[i].count;
		g->total_base += p->base ? p->base[i] : 0;
	}
	qsort_r(g->order, p->nr, sizeof(*g->order), svg__stack_cmp, g);
	return 0;
}

/*
 * The stacks merged into a tree, without keeping it: in name order, the
 * stacks through a frame come one after the other, so a frame's samples
 * are known when a stack leaves its path (or the last one ends), and the
 * samples left of it are those of the stacks before its first one. Calls
 * @visit for each frame then, children before their parent, the root
 * last; the stacks' depth is all it holds. 0 or -errno (@visit's).
 */
static int svg__walk(struct svg *g, int (*visit)(struct svg *g, const struct svg_node *nd))
{
	const struct profile *p = g->p;
	struct svg_node *path = malloc(sizeof(*path)); /* by depth: the root, the process... */
	size_t cap = 1, nr = 1;
	uint64_t x = 0;
	int err = path ? 0 : -ENOMEM;

	if (path)
		path[0] = (struct svg_node){ .count = g->total, .base = g->total_base };
	g->paths = 0;
	for (size_t i = 0; i < p->nr && !err; i++) {
		const struct profile_stack *st = &p->stacks[g->order[i]];
		size_t n = svg__pieces(g, st), common = 0; /* its pieces, those it shares */

		while (common < n && common + 1 < nr &&
		       path[common + 1].text == svg__piece(g, st, common))
			common++;
		if (common != n || nr != n + 1)
			g->paths++;
		while (nr > common + 1 && !err)
			err = visit(g, &path[--nr]);
		if (cap < n + 1) {
			struct svg_node *np = realloc(path, (n + 1) * sizeof(*np));

			if (!np) {
				err = -ENOMEM;
				break;
			}
			path = np;
			cap = n + 1;
		}
		for (; nr < n + 1; nr++)
			path[nr] = (struct svg_node){ .x = x, .text = svg__piece(g, st, nr - 1),
						      .depth = nr };
		for (size_t d = 1; d < nr; d++) {
			path[d].count += st->count;
			path[d].base += p->base ? p->base[g->order[i]] : 0;
		}
		x += st->count;
	}
	while (nr && !err)
		err = visit(g, &path[--nr]);
	free(path);
	return err;
}

/* A differential node's share of the new samples less its share of the base's. */
static double svg__delta(const struct svg *g, const struct svg_node *nd)
{
	double now = g->total ? (double)nd->count / g->total : 0;
	double was = g->total_base ? (double)nd->base / g->total_base : 0;

	return now - was;
}

/* Pass one: how deep the frames written go, and (diff) their largest change. */
static int svg__measure(struct svg *g, const struct svg_node *nd)
{
	double d = g->p->base ? svg__delta(g, nd) : 0;

	if (nd->count * g->scale < g->minwidth)
		return 0;
	if (nd->depth > g->max_depth)
		g->max_depth = nd->depth;
	if (d < 0)
		d = -d;
	if (d > g->max_delta)
		g->max_delta = d;
	return 0;
}

/* ---- writing ---- */

/*
 * @n bytes of @s (escaped names: valid UTF-8, no control byte) as XML
 * text or attribute value.
 */
static void svg__put_xml(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\'')
			fputs("&apos;", f);
		else if (c == 0xef && i + 2 < n && (unsigned char)s[i + 1] == 0xbf &&
			 ((unsigned char)s[i + 2] & 0xfe) == 0xbe) {
			fprintf(f, "\\xef\\xbf\\x%02x", (unsigned char)s[i + 2]);
			i += 2;
		} else {
			fputc(c, f);
		}
	}
}

/* A string from outside (a title): escaped, then XML-escaped. */
static int svg__put_outside(FILE *f, const char *s)
{
	char *e = escape__dup(s);

	if (!e)
		return -ENOMEM;
	svg__put_xml(f, e, strlen(e));
	free(e);
	return 0;
}

/* How many bytes of @s (@n bytes of UTF-8) hold its first @chars characters. */
static size_t svg__prefix(const char *s, size_t n, size_t chars)
{
	size_t i = 0;

	while (i < n && chars--) {
		i++;
		while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
	}
	return i;
}

static size_t svg__chars(const char *s, size_t n)
{
	size_t chars = 0;

	for (size_t i = 0; i < n; i++)
		chars += ((unsigned char)s[i] & 0xc0) != 0x80;
	return chars;
}

/* FNV-1a of @n bytes of @s. */
static uint32_t svg__hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* A frame's colour: a range per kind, the shade from the hash of its name. */
static void svg__put_colour(FILE *f, uint32_t kind, uint32_t h, bool root)
{
	double v1 = (h & 0xff) / 255.0, v2 = ((h >> 8) & 0xff) / 255.0;
	double v3 = ((h >> 16) & 0xff) / 255.0;
	int r, gr, b;

	if (root || kind == FRAME_MARK) {
		r = gr = b = 160 + (int)(50 * v1);
	} else if (kind == FRAME_KERNEL) { /* salmon to orange-red */
		r = 210 + (int)(45 * v1);
		gr = 80 + (int)(60 * v2);
		b = 60 + (int)(40 * v3);
	} else if (kind == FRAME_INLINE) { /* cyan */
		r = 60 + (int)(60 * v1);
		gr = 190 + (int)(55 * v2);
		b = 200 + (int)(55 * v3);
	} else if (kind == FRAME_JIT) { /* green */
		r = 50 + (int)(70 * v1);
		gr = 180 + (int)(60 * v2);
		b = 50 + (int)(50 * v3);
	} else { /* user code: red to yellow */
		r = 205 + (int)(50 * v1);
		gr = (int)(230 * v2);
		b = (int)(55 * v3);
	}
	fprintf(f, "rgb(%d,%d,%d)", r, gr, b);
}

/*
 * A differential frame's colour: red where its share grew, blue where it
 * shrank, deeper the nearer the change is to the largest one; grey where
 * it did not change.
 */
static void svg__put_diff_colour(FILE *f, const struct svg *g, double delta)
{
	double a = delta < 0 ? -delta : delta;
	int v = g->max_delta > 0 ? 220 - (int)(220 * a / g->max_delta) : 220;

	if (delta > 0)
		fprintf(f, "rgb(255,%d,%d)", v, v);
	else if (delta < 0)
		fprintf(f, "rgb(%d,%d,255)", v, v);
	else
		fputs("rgb(220,220,220)", f);
}

/* A node's text (@n bytes at @s) and kind. */
static void svg__node_text(const struct svg *g, const struct svg_node *nd, const char **s,
			   size_t *n, uint32_t *kind)
{
	const struct frame_rank *t =
		nd->depth <= g->ev_piece + g->proc_piece ? &g->procs : &g->frames;
	uint32_t i;

	if (!nd->depth) {
		*s = "all";
		*n = 3;
		*kind = FRAME_USER;
		return;
	}
	if (nd->depth <= g->ev_piece) {
		*s = g->text.buf + g->text.event[nd->text];
		*n = g->text.event[nd->text + 1] - g->text.event[nd->text];
		*kind = FRAME_MARK;
		return;
	}
	i = t->rep[nd->text];
	*s = t->buf + t->at[i];
	*n = t->at[i + 1] - t->at[i];
	*kind = frame_text__kind(t, i);
}

/* Pass two: the frame at @nd, its tooltip, its box and its name cut to fit. */
static int svg__put_node(struct svg *g, const struct svg_node *nd)
{
	FILE *f = g->f;
	double height = g->height;
	double x = SVG_PAD + nd->x * g->scale, w = nd->count * g->scale;
	double y = g->o->svg.inverted ? SVG_TOP + nd->depth * SVG_FRAME_H
				      : height - SVG_BOTTOM - (nd->depth + 1) * SVG_FRAME_H;
	size_t n, fit = w > 6 ? (size_t)((w - 6) / SVG_CHAR_W) : 0;
	uint32_t kind;
	const char *s;

	if (w < g->minwidth && nd->depth)
		return 0;
	svg__node_text(g, nd, &s, &n, &kind);
	fputs("<g><title>", f);
	svg__put_xml(f, s, n);
	fprintf(f, " (%" PRIu64 " samples, %.2f%%", nd->count,
		g->total ? 100.0 * nd->count / g->total : 100.0);
	if (g->p->base)
		fprintf(f, "; base %" PRIu64 " samples, %.2f%%; %+.2f%%", nd->base,
			g->total_base ? 100.0 * nd->base / g->total_base : 100.0,
			100.0 * svg__delta(g, nd));
	fprintf(f, ")</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"", x, y,
		w, SVG_FRAME_H - 1);
	if (g->p->base && nd->depth)
		svg__put_diff_colour(f, g, svg__delta(g, nd));
	else
		svg__put_colour(f, kind, svg__hash(s, n), !nd->depth);
	fprintf(f, "\"/><text x=\"%.2f\" y=\"%.1f\">", x + 3, y + SVG_FRAME_H - 4.5);
	if (fit >= 3 && svg__chars(s, n) <= fit) {
		svg__put_xml(f, s, n);
	} else if (fit >= 3) {
		svg__put_xml(f, s, svg__prefix(s, n, fit - 2));
		fputs("..", f);
	}
	fputs("</text></g>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* The line under the title: what ran, the event and rate, how long, the samples. */
static int svg__put_subtitle(FILE *f, const struct svg *g)
{
	const struct output_run *run = &g->o->run;
	int err = 0;

	if (g->o->svg.subtitle)
		return svg__put_outside(f, g->o->svg.subtitle);
	if (run->target) {
		err = svg__put_outside(f, run->target);
		fputs("; ", f);
	}
	if (!err && run->event) {
		err = svg__put_outside(f, run->event);
		if (run->period)
			fprintf(f, " every %llu events; ", run->rate);
		else
			fprintf(f, " at %llu Hz; ", run->rate);
	}
	fprintf(f, "%.2f s; %" PRIu64 " samples", g->p->duration, g->total);
	return err;
}

/* The script: plain ES5, no external resources (see the top of this file). */
static const char svg_script[] =
	"var F = [], root = null, zoomed = null, searching = null, details, matched, unzoom_btn;\n"
	"function init() {\n"
	"\tvar gs = document.getElementById('frames').getElementsByTagName('g'), up = [];\n"
	"\tfor (var i = 0; i < gs.length; i++) {\n"
	"\t\tvar g = gs[i], r = g.getElementsByTagName('rect')[0];\n"
	"\t\tvar title = g.getElementsByTagName('title')[0].textContent;\n"
	"\t\tvar cut = title.lastIndexOf(' (');\n"
	"\t\tvar f = { i: i, g: g, r: r, t: g.getElementsByTagName('text')[0], title: title,\n"
	"\t\t\tname: title.substring(0, cut), samples: parseInt(title.substring(cut + 2), 10),\n"
	"\t\t\tx: parseFloat(r.getAttribute('x')), w: parseFloat(r.getAttribute('width')),\n"
	"\t\t\tfill: r.getAttribute('fill') };\n"
	"\t\tvar y = parseFloat(r.getAttribute('y'));\n"
	"\t\tf.depth = Math.round(cfg.inverted ? (y - cfg.top) / cfg.row\n"
	"\t\t\t: (cfg.bottom - y) / cfg.row - 1);\n"
	"\t\tg.fi = i;\n"
	"\t\tF.push(f);\n"
	"\t}\n"
	"\t/* written children first, the root last: backwards, parents come first */\n"
	"\tfor (i = F.length - 1; i >= 0; i--) {\n"
	"\t\tF[i].parent = F[i].depth > 0 ? up[F[i].depth - 1] : null;\n"
	"\t\tup[F[i].depth] = F[i];\n"
	"\t}\n"
	"\troot = F[F.length - 1];\n"
	"\tdetails = document.getElementById('details');\n"
	"\tmatched = document.getElementById('matched');\n"
	"\tunzoom_btn = document.getElementById('unzoom');\n"
	"\tvar fr = document.getElementById('frames');\n"
	"\tfr.addEventListener('click', function (e) {\n"
	"\t\tvar g = e.target.parentNode;\n"
	"\t\tif (g.fi !== undefined) zoom(F[g.fi]);\n"
	"\t});\n"
	"\tfr.addEventListener('mouseover', function (e) {\n"
	"\t\tvar g = e.target.parentNode;\n"
	"\t\tif (g.fi !== undefined) details.textContent = F[g.fi].title;\n"
	"\t});\n"
	"\tfr.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"\tunzoom_btn.addEventListener('click', function () { unzoom(); });\n"
	"\tdocument.getElementById('search').addEventListener('click', search_prompt);\n"
	"\twindow.addEventListener('keydown', function (e) {\n"
	"\t\tif ((e.ctrlKey || e.metaKey) && e.keyCode === 70) {\n"
	"\t\t\te.preventDefault();\n"
	"\t\t\tsearch_prompt();\n"
	"\t\t}\n"
	"\t});\n"
	"}\n"
	"function fit(f, x, w) {\n"
	"\tvar n = Math.floor((w - 6) / cfg.charw), s = f.name;\n"
	"\tf.t.setAttribute('x', (x + 3).toFixed(2));\n"
	"\tif (n < 3) s = '';\n"
	"\telse if (s.length > n) s = s.substring(0, n - 2) + '..';\n"
	"\tf.t.textContent = s;\n"
	"}\n"
	"function place(f, x, w, show) {\n"
	"\tf.g.style.display = show ? '' : 'none';\n"
	"\tif (!show) return;\n"
	"\tf.r.setAttribute('x', x.toFixed(2));\n"
	"\tf.r.setAttribute('width', w.toFixed(2));\n"
	"\tfit(f, x, w);\n"
	"}\n"
	"/* the frame spans the full width, its ancestors stay, the rest hides */\n"
	"function zoom(z) {\n"
	"\tif (z.depth === 0) { unzoom(); return; }\n"
	"\tvar full = cfg.width - 2 * cfg.pad, scale = full / z.w, i;\n"
	"\tfor (i = 0; i < F.length; i++) place(F[i], 0, 0, false);\n"
	"\tfor (var a = z.parent; a; a = a.parent) {\n"
	"\t\tplace(a, cfg.pad, full, true);\n"
	"\t\ta.g.style.opacity = '0.6';\n"
	"\t}\n"
	"\t/* its descendants are the frames just before it, deeper than it */\n"
	"\tfor (i = z.i; i >= 0 && (i === z.i || F[i].depth > z.depth); i--) {\n"
	"\t\tplace(F[i], cfg.pad + (F[i].x - z.x) * scale, F[i].w * scale, true);\n"
	"\t\tF[i].g.style.opacity = '';\n"
	"\t}\n"
	"\tzoomed = z;\n"
	"\tunzoom_btn.style.opacity = '1';\n"
	"}\n"
	"function unzoom() {\n"
	"\tfor (var i = 0; i < F.length; i++) {\n"
	"\t\tplace(F[i], F[i].x, F[i].w, true);\n"
	"\t\tF[i].g.style.opacity = '';\n"
	"\t}\n"
	"\tzoomed = null;\n"
	"\tunzoom_btn.style.opacity = '0';\n"
	"}\n"
	"/* the share of all samples under a matching frame, each sample once */\n"
	"function search(term) {\n"
	"\tvar re, sum = 0;\n"
	"\tif (!term) { clear_search(); return null; }\n"
	"\ttry { re = new RegExp(term); } catch (err) {\n"
	"\t\tmatched.textContent = 'Bad regular expression';\n"
	"\t\treturn null;\n"
	"\t}\n"
	"\tfor (var i = F.length - 1; i >= 0; i--) {\n"
	"\t\tvar f = F[i];\n"
	"\t\tf.hit = f.depth > 0 && re.test(f.name);\n"
	"\t\tf.r.setAttribute('fill', f.hit ? cfg.match : f.fill);\n"
	"\t\t/* counted once: at the matching frame nearest the root */\n"
	"\t\tf.under = f.parent && (f.parent.hit || f.parent.under);\n"
	"\t\tif (f.hit && !f.under) sum += f.samples;\n"
	"\t}\n"
	"\tvar pct = root && root.samples > 0 ? 100 * sum / root.samples : 0;\n"
	"\tsearching = term;\n"
	"\tmatched.textContent = 'Matched: ' + pct.toFixed(1) + '%';\n"
	"\treturn pct;\n"
	"}\n"
	"function clear_search() {\n"
	"\tfor (var i = 0; i < F.length; i++) F[i].r.setAttribute('fill', F[i].fill);\n"
	"\tsearching = null;\n"
	"\tmatched.textContent = ' ';\n"
	"}\n"
	"function search_prompt() {\n"
	"\tif (searching !== null) { clear_search(); return; }\n"
	"\tsearch(window.prompt('Search frames (regular expression)', ''));\n"
	"}\n"
	"init();\n";

static int svg__write_doc(FILE *f, struct svg *g)
{
	const struct output_svg *o = &g->o->svg;
	double height = SVG_TOP + (g->max_depth + 1) * SVG_FRAME_H + SVG_BOTTOM;
	int err;

	g->f = f;
	g->height = height;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
		"<!-- bpfprof flame graph: click a frame to zoom, Search or Ctrl-F to search -->\n"
		"<style type=\"text/css\">\n"
		"text { font-family: monospace; font-size: %dpx; fill: rgb(0,0,0); }\n"
		"#frames text { pointer-events: none; }\n"
		"#frames rect { stroke: rgb(255,255,255); stroke-width: 0.5; }\n"
		"#frames g:hover rect { stroke: rgb(0,0,0); }\n"
		".title { font-size: 17px; text-anchor: middle; }\n"
		".button { cursor: pointer; }\n"
		"</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"rgb(248,248,240)\"/>\n"
		"<text class=\"title\" x=\"%.1f\" y=\"22\">",
		g->width, height, g->width, height, SVG_FONT, g->width / 2);
	err = svg__put_outside(f, o->title ? o->title
				     : o->inverted ? "Icicle Graph" : "Flame Graph");
	fprintf(f, "</text>\n<text id=\"subtitle\" x=\"%.1f\" y=\"42\" "
		"style=\"text-anchor: middle\">", g->width / 2);
	err = err ?: svg__put_subtitle(f, g);
	fprintf(f, "</text>\n"
		"<text id=\"unzoom\" class=\"button\" x=\"%d\" y=\"22\" style=\"opacity: 0\">"
		"Reset zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%.1f\" y=\"22\" "
		"style=\"text-anchor: end\">Search</text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%.0f\"> </text>\n"
		"<text id=\"matched\" x=\"%.1f\" y=\"%.0f\" style=\"text-anchor: end\"> </text>\n"
		"<g id=\"frames\">\n",
		SVG_PAD, g->width - SVG_PAD, SVG_PAD, height - 10, g->width - SVG_PAD,
		height - 10);
	err = err ?: svg__walk(g, svg__put_node);
	fprintf(f, "</g>\n<script type=\"text/ecmascript\"><![CDATA[\n"
		"var cfg = { width: %.0f, pad: %d, row: %d, top: %d, bottom: %.0f, "
		"inverted: %s, charw: %.1f, match: 'rgb(230,0,230)' };\n%s]]></script>\n"
		"</svg>\n",
		g->width, SVG_PAD, SVG_FRAME_H, SVG_TOP, height - SVG_BOTTOM,
		o->inverted ? "true" : "false", SVG_CHAR_W, svg_script);
	if (!err && ferror(f))
		err = -EIO;
	return err;
}

static int svg__write(FILE *f, const struct profile *p, const struct output_opts *o,
		      size_t *rows)
{
	struct svg g = { .p = p, .o = o, .ev_piece = p->nr_events > 1,
			 .proc_piece = !p->no_procs };
	int err;

	g.width = o->svg.width ? o->svg.width : SVG_WIDTH;
	g.minwidth = o->svg.minwidth_given ? o->svg.minwidth : SVG_MINWIDTH;
	err = frame_text__build(&g.text, p, o, frame_text__put_escaped, "");
	err = err ?: frame_text__rank(&g.frames, &g.text, p, false);
	err = err ?: frame_text__rank(&g.procs, &g.text, p, true);
	err = err ?: svg__sort(&g);
	if (err)
		goto out;
	g.scale = g.total ? (g.width - 2 * SVG_PAD) / g.total : 0;
	err = svg__walk(&g, svg__measure);
	err = err ?: svg__write_doc(f, &g);
	if (rows)
		*rows = g.paths;
out:
	frame_text__free(&g.text);
	frame_text__free_rank(&g.frames);
	frame_text__free_rank(&g.procs);
	free(g.order);
	return err;
}

const struct output_format output_svg = {
	.name = "svg",
	.ext = ".svg",
	.default_file = "bpfprof.svg",
	.takes = OUTPUT_PROFILE,
	.write_profile = svg__write,
};
