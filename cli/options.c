/*
 * cli/options.c: a small getopt_long replacement driven by the option
 * arrays, so that help text and parsing cannot drift apart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "common/table.h"
#include "common/banned.h"

void strlist_release(struct strlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static const struct plumb_opt *find_long(const struct plumb_opt *opts,
					 const char *name, size_t len)
{
	for (; opts && opts->kind != OPT_END; opts++)
		if (strlen(opts->name) == len && strncmp(opts->name, name, len) == 0)
			return opts;
	return NULL;
}

static const struct plumb_opt *find_short(const struct plumb_opt *opts, char c)
{
	for (; opts && opts->kind != OPT_END; opts++)
		if (opts->short_name && opts->short_name == c)
			return opts;
	return NULL;
}

/* Store one option's argument; 0 or -1 after a message. */
static int opt_store(const struct plumb_opt *o, const char *arg, const char *who)
{
	switch (o->kind) {
	case OPT_FLAG:
		*(int *)o->value = 1;
		return 0;
	case OPT_STRING:
	case OPT_OPTIONAL:
		*(const char **)o->value = arg;
		return 0;
	case OPT_INT: {
		char *end;
		long v;
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < o->min || v > o->max) {
			fprintf(stderr, "%s: --%s takes a whole number from %ld to %ld, not '%s'\n",
				who, o->name, o->min, o->max, arg);
			return -1;
		}
		*(long *)o->value = v;
		return 0;
	}
	case OPT_LIST: {
		struct strlist *l = o->value;
		const char **nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
		if (!nv) {
			fprintf(stderr, "%s: out of memory\n", who);
			return -1;
		}
		nv[l->n++] = arg;
		l->v = nv;
		return 0;
	}
	case OPT_END:
		break;
	}
	return -1;
}

int opts_parse(const struct plumb_opt *opts, int argc, char **argv,
	       const char *who, int *help)
{
	int npos = 0, i;
	int only_pos = 0;

	*help = 0;
	for (i = 0; i < argc; i++) {
		char *a = argv[i];
		const struct plumb_opt *o;
		const char *arg = NULL;

		if (only_pos || a[0] != '-' || a[1] == '\0') {
			argv[npos++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = 1;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			*help = 1;
			return npos;
		}
		if (a[1] == '-') {
			const char *name = a + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			o = find_long(opts, name, len);
			if (!o) {
				fprintf(stderr, "%s: unknown option '--%.*s'\n", who, (int)len, name);
				return -1;
			}
			if (o->kind == OPT_FLAG) {
				if (eq) {
					fprintf(stderr, "%s: --%s takes no value\n", who, o->name);
					return -1;
				}
			} else if (o->kind == OPT_OPTIONAL) {
				/* Only --name=VALUE: a next argument is never taken. */
				arg = eq ? eq + 1 : "";
				if (eq && !*arg) {
					fprintf(stderr, "%s: --%s= needs a value (%s)\n", who, o->name, o->arg);
					return -1;
				}
			} else if (eq) {
				arg = eq + 1;
			} else if (i + 1 < argc) {
				arg = argv[++i];
			} else {
				fprintf(stderr, "%s: --%s needs a value (%s)\n", who, o->name, o->arg);
				return -1;
			}
		} else {
			o = find_short(opts, a[1]);
			if (!o) {
				fprintf(stderr, "%s: unknown option '-%c'\n", who, a[1]);
				return -1;
			}
			if (o->kind == OPT_FLAG) {
				if (a[2]) {
					fprintf(stderr, "%s: -%c takes no value\n", who, a[1]);
					return -1;
				}
			} else if (a[2]) {
				arg = a + 2;
			} else if (i + 1 < argc) {
				arg = argv[++i];
			} else {
				fprintf(stderr, "%s: -%c needs a value (%s)\n", who, a[1], o->arg);
				return -1;
			}
		}
		if (opt_store(o, arg, who) < 0)
			return -1;
	}
	return npos;
}

void opts_print_help(const struct plumb_opt *opts, FILE *out)
{
	const struct plumb_opt *o;
	struct table t;

	table_init(&t, 2, NULL);
	t.indent = 2;
	for (o = opts; o && o->kind != OPT_END; o++) {
		char left[128];
		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else if (o->kind == OPT_OPTIONAL)
			snprintf(left, sizeof(left), "    --%s[=%s]", o->name, o->arg);
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		table_row(&t, left, o->help);
	}
	table_row(&t, "-h, --help", "show this help");
	fprintf(out, "options:\n");
	(void)table_write(&t, out);
	table_release(&t);
}

int opt_json_alias(const char *cmd, int json, const char **format)
{
	if (!json)
		return 0;
	if (*format && strcmp(*format, "json") != 0) {
		fprintf(stderr, "plumb %s: --json is --format json, not --format %s\n", cmd, *format);
		return -1;
	}
	*format = "json";
	return 0;
}
