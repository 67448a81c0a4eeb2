/*
 * cli/cmd-completion.c: `plumb completion bash|zsh`, a shell completion
 * script written from the command table (cli/commands.c) and each
 * command's option array, so that it cannot drift from what plumb parses.
 * The build writes both scripts with this command and `make install`
 * installs them (cli/local.am).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/banned.h"

/* Largest script written: the table is a few kilobytes. */
#define COMPLETION_MAX ((size_t)1 << 20)

/*
 * A name from the table goes into the script between double quotes and
 * in case patterns: only the characters commands and options are spelt
 * with are accepted, so that a future name cannot break the script.
 */
static int name_ok(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return 0;
	return 1;
}

/* Append "PATH") words;; for one command path: its subcommands. */
static int put_subs(struct buf *out, const char *path,
		    const struct plumb_cmd *const *table)
{
	int rc = buf_printf(out, "\t\"%s\") echo \"", path);

	for (const struct plumb_cmd *const *c = table; !rc && *c; c++)
		rc = buf_printf(out, "%s%s", c == table ? "" : " ", (*c)->name);
	return rc ? rc : buf_printf(out, "\" ;;\n");
}

/* The options of cmd: all of them (args 0) or only those taking an argument. */
static int put_opts(struct buf *out, const char *path,
		    const struct plumb_cmd *cmd, int args)
{
	int rc = buf_printf(out, "\t\"%s\") echo \"", path);
	const char *sep = "";

	if (!args && !rc) {
		rc = buf_printf(out, "--help -h");
		sep = " ";
	}
	for (const struct plumb_opt *o = cmd->opts; !rc && o && o->kind != OPT_END; o++) {
		if (args && o->kind == OPT_FLAG)
			continue;
		rc = buf_printf(out, "%s--%s", sep, o->name);
		sep = " ";
		if (!rc && o->short_name)
			rc = buf_printf(out, " -%c", o->short_name);
	}
	return rc ? rc : buf_printf(out, "\" ;;\n");
}

enum walk_part { WALK_SUBS, WALK_OPTS, WALK_ARGS };

/* Walk the table below path, appending one case branch per command path. */
static int walk(struct buf *out, const char *path,
		const struct plumb_cmd *const *table, enum walk_part part,
		struct plumb_err *err)
{
	char sub[256];
	int rc = 0;

	if (part == WALK_SUBS)
		rc = put_subs(out, path, table);
	for (const struct plumb_cmd *const *c = table; !rc && *c; c++) {
		if (!name_ok((*c)->name))
			return plumb_err_set(err, PLUMB_EINTERNAL,
					     "completion: command name '%s' is not [a-z0-9-]",
					     (*c)->name);
		for (const struct plumb_opt *o = (*c)->opts; o && o->kind != OPT_END; o++)
			if (!name_ok(o->name))
				return plumb_err_set(err, PLUMB_EINTERNAL,
						     "completion: option '%s' of '%s' is not [a-z0-9-]",
						     o->name, (*c)->name);
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? " " : "", (*c)->name);
		if (part == WALK_OPTS && (*c)->exec)
			rc = put_opts(out, sub, *c, 0);
		else if (part == WALK_ARGS && (*c)->exec)
			rc = put_opts(out, sub, *c, 1);
		if (!rc && (*c)->subs)
			rc = walk(out, sub, (*c)->subs, part, err);
	}
	if (rc && !err->code)
		return plumb_err_oom(err, "completion script");
	return rc;
}

static const char bash_head[] =
	"# bash completion for plumb(1), written by `plumb completion bash`\n"
	"# from the command table of plumb " PACKAGE_VERSION "; do not edit.\n"
	"\n"
	"# The subcommands of a command path (\"\" is the top level).\n"
	"_plumb_subs() {\n"
	"\tcase \"$1\" in\n";
static const char bash_opts[] =
	"\t\"help\") _plumb_subs \"\" ;;\n"
	"\t\"help \"*) _plumb_subs \"${1#help }\" ;;\n"
	"\tesac\n"
	"}\n"
	"\n"
	"# The options of a command path.\n"
	"_plumb_opts() {\n"
	"\tcase \"$1\" in\n";
static const char bash_args[] =
	"\tesac\n"
	"}\n"
	"\n"
	"# The options of a command path that take an argument.\n"
	"_plumb_argopts() {\n"
	"\tcase \"$1\" in\n";
static const char bash_tail[] =
	"\tesac\n"
	"}\n"
	"\n"
	"_plumb() {\n"
	"\tlocal cur prev path= w i skip=0\n"
	"\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	"\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	"\t\tw=${COMP_WORDS[i]}\n"
	"\t\tif ((skip)); then skip=0; continue; fi\n"
	"\t\tcase \" $(_plumb_argopts \"$path\") \" in\n"
	"\t\t*\" $w \"*) skip=1; continue ;;\n"
	"\t\tesac\n"
	"\t\tcase \"$w\" in -*) continue ;; esac\n"
	"\t\tcase \" $(_plumb_subs \"$path\") \" in\n"
	"\t\t*\" $w \"*) path=${path:+$path }$w ;;\n"
	"\t\t*) break ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tCOMPREPLY=()\n"
	"\tif ((COMP_CWORD > 1)); then\n"
	"\t\tcase \" $(_plumb_argopts \"$path\") \" in\n"
	"\t\t*\" $prev \"*) return 0 ;;\n"
	"\t\tesac\n"
	"\tfi\n"
	"\tcase \"$cur\" in\n"
	"\t-*) COMPREPLY=($(compgen -W \"$(_plumb_opts \"$path\")\" -- \"$cur\")) ;;\n"
	"\t*)\n"
	"\t\tlocal subs\n"
	"\t\tsubs=$(_plumb_subs \"$path\")\n"
	"\t\tif [ -n \"$subs\" ]; then\n"
	"\t\t\tCOMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
	"\t\tfi\n"
	"\t\t;;\n"
	"\tesac\n"
	"\treturn 0\n"
	"}\n"
	"\n"
	"complete -o default -F _plumb plumb\n";

/* zsh runs the same function through its bash completion layer. */
static const char zsh_head[] =
	"#compdef plumb\n"
	"# zsh completion for plumb(1), written by `plumb completion zsh`: the\n"
	"# bash completion function, run through zsh's bashcompinit.\n"
	"autoload -U +X bashcompinit && bashcompinit\n"
	"\n";

/* Append the whole script for shell ("bash" or "zsh") to out. */
static int completion_script(const char *shell, struct buf *out, struct plumb_err *err)
{
	int zsh = strcmp(shell, "zsh") == 0;

	if (zsh && buf_addstr(out, zsh_head))
		return plumb_err_oom(err, "completion script");
	if (buf_addstr(out, bash_head) ||
	    walk(out, "", plumb_commands, WALK_SUBS, err) ||
	    buf_addstr(out, bash_opts) ||
	    walk(out, "", plumb_commands, WALK_OPTS, err) ||
	    buf_addstr(out, bash_args) ||
	    walk(out, "", plumb_commands, WALK_ARGS, err) ||
	    buf_addstr(out, bash_tail))
		return err->code ? err->code : plumb_err_oom(err, "completion script");
	return 0;
}

static int completion_exec(int argc, char **argv)
{
	struct plumb_err err;
	struct buf out;
	int status = PLUMB_EXIT_OK;

	if (argc != 1 || (strcmp(argv[0], "bash") != 0 && strcmp(argv[0], "zsh") != 0)) {
		fprintf(stderr, "plumb completion: name one shell: bash or zsh\n");
		cmd_print_usage(&cmd_completion, "completion", stderr);
		return PLUMB_EXIT_USAGE;
	}
	plumb_err_clear(&err);
	buf_init(&out, COMPLETION_MAX);
	if (completion_script(argv[0], &out, &err) < 0)
		status = cli_fail(&err);
	else if (fwrite(out.data, 1, out.len, stdout) != out.len)
		status = PLUMB_EXIT_IO;
	buf_release(&out);
	return status;
}

const struct plumb_cmd cmd_completion = {
	.name = "completion",
	.summary = "print a shell completion script",
	.usage = "completion bash|zsh",
	.description =
		"Print the completion script of bash or zsh for every command,\n"
		"subcommand and option plumb knows.  `make install` installs both;\n"
		"to try one: source <(plumb completion bash).",
	.exec = completion_exec,
};
