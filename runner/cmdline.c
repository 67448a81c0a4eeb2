/*
 * runner/cmdline.c: placeholder expansion, shell-syntax detection and word
 * splitting of configured command lines; see cmdline.h.
 *
 * Why not always `sh -c`: a shell between plumb and the measured program
 * adds a process, its start-up time and its environment handling to every
 * measurement.  A plain word list is executed directly; only a line that
 * really needs a shell gets one, and the record says which.
 */
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "runner/cmdline.h"
#include "common/banned.h"

#define CMDLINE_MAX (256 * 1024)

/* Words that mean something only to a shell when they come first. */
static const char *const shell_words[] = {
	"!", "{", "}", "[", "[[", ".", ":", "alias", "case", "cd", "eval", "exec",
	"export", "for", "function", "if", "read", "set", "source", "test",
	"time", "trap", "ulimit", "umask", "unset", "until", "while", NULL
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Characters that need no quoting for /bin/sh. */
static int is_plain(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_./:=+,@%^-", c) != NULL;
}

int cmdline_quote(struct buf *b, const char *s)
{
	const char *p;

	for (p = s; *p && is_plain(*p); p++)
		;
	if (*s && !*p)
		return buf_addstr(b, s);
	if (buf_addch(b, '\'') < 0)
		return -1;
	for (p = s; *p; p++) {
		if (*p == '\'') {
			if (buf_addstr(b, "'\\''") < 0)
				return -1;
		} else if (buf_addch(b, *p) < 0) {
			return -1;
		}
	}
	return buf_addch(b, '\'');
}

int cmdline_needs_shell(const char *text)
{
	const char *p = text, *end;
	size_t len;

	if (strpbrk(text, "|&;<>()$`\\\"'*?[]#~\n\r"))
		return 1;
	while (is_blank(*p))
		p++;
	for (end = p; *end && !is_blank(*end); end++)
		if (*end == '=')
			return 1;   /* VAR=value prefix */
	len = (size_t)(end - p);
	for (const char *const *w = shell_words; *w; w++)
		if (strlen(*w) == len && strncmp(*w, p, len) == 0)
			return 1;
	return 0;
}

static const struct cmdline_var *find_var(const struct cmdline_var *vars,
					  size_t nvars, const char *name,
					  size_t len)
{
	for (size_t i = 0; i < nvars; i++)
		if (strlen(vars[i].name) == len && strncmp(vars[i].name, name, len) == 0)
			return &vars[i];
	return NULL;
}

static int placeholder_len(const char *p)
{
	/* p points at '{'; a placeholder is {[a-z][a-z0-9_]*} */
	int n = 1;

	if (!(p[1] >= 'a' && p[1] <= 'z'))
		return 0;
	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '_')
		n++;
	return p[n] == '}' ? n + 1 : 0;
}

/* Where a substitution lands in shell text: how its value must be quoted. */
enum quote_state { Q_NONE, Q_SINGLE, Q_DOUBLE };

/* Append value for the shell, fitting the quotes it sits in. */
static int quote_in(struct buf *out, const char *v, enum quote_state q)
{
	if (q == Q_NONE)
		return cmdline_quote(out, v);
	for (; *v; v++) {
		int r;
		if (q == Q_SINGLE && *v == '\'')
			r = buf_addstr(out, "'\\''");
		else if (q == Q_DOUBLE && strchr("\"\\$`", *v))
			r = buf_addch(out, '\\') < 0 ? -1 : buf_addch(out, *v);
		else
			r = buf_addch(out, *v);
		if (r < 0)
			return -1;
	}
	return 0;
}

/*
 * Walk tmpl once: append to out the text with each known placeholder
 * replaced by its value (quoted for the shell, according to the quotes
 * around it, when quote is set) or, when values is 0, by a plain "x", so
 * that the result can be checked for shell syntax.  Unknown words in
 * braces stay as written (formats/config.c has refused near misses).
 */
static int expand(struct buf *out, const char *tmpl, size_t len,
		  const struct cmdline_var *vars, size_t nvars, int values,
		  int quote, const char *key, struct plumb_err *err)
{
	const char *p = tmpl, *end = tmpl + len;
	enum quote_state q = Q_NONE;

	while (p < end) {
		if (p[0] == '{' && (p == tmpl || p[-1] != '$')) {
			int n = placeholder_len(p);
			const struct cmdline_var *v = NULL;
			if (n > 0 && p + n <= end)
				v = find_var(vars, nvars, p + 1, (size_t)n - 2);
			if (v) {
				int r;
				if (!values)
					r = buf_addch(out, 'x');
				else if (!*v->value)
					r = 0;
				else if (quote)
					r = quote_in(out, v->value, q);
				else
					r = buf_addstr(out, v->value);
				if (r < 0)
					return buf_err(err, key);
				p += n;
				continue;
			}
		}
		/* Track the shell's quoting of the literal text. */
		if (q == Q_NONE && *p == '\\' && p + 1 < end) {
			if (buf_add(out, p, 2) < 0)
				return buf_err(err, key);
			p += 2;
			continue;
		}
		if (q == Q_DOUBLE && *p == '\\' && p + 1 < end) {
			if (buf_add(out, p, 2) < 0)
				return buf_err(err, key);
			p += 2;
			continue;
		}
		if (*p == '\'' && q != Q_DOUBLE)
			q = q == Q_SINGLE ? Q_NONE : Q_SINGLE;
		else if (*p == '"' && q != Q_SINGLE)
			q = q == Q_DOUBLE ? Q_NONE : Q_DOUBLE;
		if (buf_addch(out, *p) < 0)
			return buf_err(err, key);
		p++;
	}
	return 0;
}

static int push_word(char ***argv, size_t *n, char *w)
{
	char **nv;

	if (!w)
		return -1;
	nv = realloc(*argv, (*n + 2) * sizeof(*nv));
	if (!nv) {
		free(w);
		return -1;
	}
	nv[(*n)++] = w;
	nv[*n] = NULL;
	*argv = nv;
	return 0;
}

void cmdline_release(struct cmdline *cl)
{
	if (cl->argv)
		for (char **a = cl->argv; *a; a++)
			free(*a);
	free(cl->argv);
	free(cl->text);
	cl->argv = NULL;
	cl->text = NULL;
	cl->shell = 0;
}

int cmdline_expand(struct cmdline *cl, const char *tmpl,
		   const struct cmdline_var *vars, size_t nvars,
		   const char *key, struct plumb_err *err)
{
	struct buf probe, text;
	size_t n = 0;
	int r;

	cl->argv = NULL;
	cl->text = NULL;
	cl->shell = 0;
	if (tmpl[strspn(tmpl, " \t\n\r")] == '\0')
		return plumb_err_set(err, PLUMB_EINPUT, "%s: the command is empty", key);
	buf_init(&probe, CMDLINE_MAX);
	buf_init(&text, CMDLINE_MAX);
	r = expand(&probe, tmpl, strlen(tmpl), vars, nvars, 0, 0, key, err);
	if (r < 0)
		goto fail;
	cl->shell = cmdline_needs_shell(buf_cstr(&probe));
	if (cl->shell) {
		r = expand(&text, tmpl, strlen(tmpl), vars, nvars, 1, 1, key, err);
		if (r < 0)
			goto fail;
		cl->text = strdup(buf_cstr(&text));
		if (!cl->text ||
		    push_word(&cl->argv, &n, strdup("/bin/sh")) < 0 ||
		    push_word(&cl->argv, &n, strdup("-c")) < 0 ||
		    push_word(&cl->argv, &n, strdup(cl->text)) < 0) {
			r = plumb_err_oom(err, key);
			goto fail;
		}
	} else {
		const char *p = tmpl;
		for (;;) {
			const char *start;
			struct buf word;
			while (is_blank(*p))
				p++;
			if (!*p)
				break;
			start = p;
			while (*p && !is_blank(*p))
				p++;
			buf_init(&word, CMDLINE_MAX);
			r = expand(&word, start, (size_t)(p - start), vars, nvars, 1, 0, key, err);
			if (r < 0) {
				buf_release(&word);
				goto fail;
			}
			if (word.len == 0) {   /* an empty value: no word */
				buf_release(&word);
				continue;
			}
			if ((text.len && buf_addch(&text, ' ') < 0) ||
			    cmdline_quote(&text, buf_cstr(&word)) < 0) {
				buf_release(&word);
				r = buf_err(err, key);
				goto fail;
			}
			if (push_word(&cl->argv, &n, buf_detach(&word, NULL)) < 0) {
				r = plumb_err_oom(err, key);
				goto fail;
			}
		}
		if (n == 0) {
			r = plumb_err_set(err, PLUMB_EINPUT, "%s: the command is empty", key);
			goto fail;
		}
		cl->text = buf_detach(&text, NULL);
		if (!cl->text) {
			r = plumb_err_oom(err, key);
			goto fail;
		}
	}
	buf_release(&probe);
	buf_release(&text);
	return 0;
fail:
	buf_release(&probe);
	buf_release(&text);
	cmdline_release(cl);
	return r;
}

int cmdline_append(struct cmdline *cl, const char *word, const char *key, struct plumb_err *err)
{
	struct buf text;
	size_t n = 0;
	char *line;

	buf_init(&text, CMDLINE_MAX);
	if (buf_addstr(&text, cl->text) < 0 || buf_addch(&text, ' ') < 0 ||
	    cmdline_quote(&text, word) < 0) {
		buf_release(&text);
		return buf_err(err, key);
	}
	if (!(line = buf_detach(&text, NULL)))
		return plumb_err_oom(err, key);
	if (cl->shell) {
		/* The shell reads the line: argv[2] is the text. */
		char *copy = strdup(line);
		if (!copy) {
			free(line);
			return plumb_err_oom(err, key);
		}
		free(cl->argv[2]);
		cl->argv[2] = copy;
	} else {
		while (cl->argv[n])
			n++;
		if (push_word(&cl->argv, &n, strdup(word)) < 0) {
			free(line);
			return plumb_err_oom(err, key);
		}
	}
	free(cl->text);
	cl->text = line;
	return 0;
}
