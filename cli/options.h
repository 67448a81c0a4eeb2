/*
 * cli/options.h: option declarations, the parser, and --help text.
 *
 * Each command declares its options once, as an array of struct plumb_opt
 * ending with an all-zero row; the parser, `plumb CMD --help` and the test
 * that keeps docs/plumb.1 in step (t0002-help-man.sh) all read that array
 * (STYLE 4).
 *
 * Ownership: values point into argv (strings) or into caller-owned
 * variables; a struct strlist is caller-owned, strlist_release() frees it.
 */
#ifndef PLUMB_CLI_OPTIONS_H
#define PLUMB_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum opt_kind {
	OPT_END = 0,
	OPT_FLAG,    /* int *: set to 1 */
	OPT_STRING,  /* const char **: the argument (last one wins) */
	OPT_INT,     /* long *: a whole number within [min, max] */
	OPT_LIST,    /* struct strlist *: every argument, in order */
	OPT_OPTIONAL /* const char **: "" for --name, the value for --name=VALUE */
};

struct strlist {
	const char **v;  /* points into argv */
	size_t n;
};

struct plumb_opt {
	enum opt_kind kind;
	const char *name;   /* long name, without the dashes */
	char short_name;    /* 0 when it has none */
	const char *arg;    /* placeholder shown in help ("FILE"); NULL for flags */
	const char *help;   /* one line, lower case, no full stop */
	void *value;
	long min, max;      /* OPT_INT only */
};

#define OPT_FLAG_(n, s, h, v)          { OPT_FLAG, n, s, NULL, h, v, 0, 0 }
#define OPT_STRING_(n, s, a, h, v)     { OPT_STRING, n, s, a, h, v, 0, 0 }
#define OPT_INT_(n, s, a, h, v, lo, hi) { OPT_INT, n, s, a, h, v, lo, hi }
#define OPT_LIST_(n, s, a, h, v)       { OPT_LIST, n, s, a, h, v, 0, 0 }
#define OPT_OPTIONAL_(n, a, h, v)      { OPT_OPTIONAL, n, 0, a, h, v, 0, 0 }
#define OPT_END_()                     { OPT_END, NULL, 0, NULL, NULL, NULL, 0, 0 }

/*
 * Parse argv[0..argc) (argv[0] is the first argument, not the command name).
 * Options may come before or after positional arguments; "--" ends them.
 * Positional arguments are moved, in order, to the front of argv and their
 * count is returned; -1 on a usage error, after printing a message naming
 * the option to stderr with the prefix `who`.  Sets *help when --help or -h
 * was given (parsing stops there).
 */
int opts_parse(const struct plumb_opt *opts, int argc, char **argv,
	       const char *who, int *help);

/* Print the option list, aligned, as `plumb CMD --help` shows it. */
void opts_print_help(const struct plumb_opt *opts, FILE *out);

void strlist_release(struct strlist *l);

/*
 * --json as an alias of --format json: sets *format to "json" when json is
 * set; 0, or -1 (after a message naming cmd) when --format asked for
 * another format.
 */
int opt_json_alias(const char *cmd, int json, const char **format);

#endif
