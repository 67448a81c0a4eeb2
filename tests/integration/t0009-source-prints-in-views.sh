#!/bin/sh
test_description='printing only in views: cli/ writes nothing but the text a view composed, and the stages below it print nothing themselves'
. "$(dirname "$0")/test-lib.sh"

# What counts as printing: printf, vprintf, puts and putchar (standard
# output without naming it), a stream function or write() aimed at
# standard output or standard error by name.  A function handed a FILE *
# (a view's, esc_fputs()'s, the help's in cli/options.c) is not seen here.
#
# Allowed, with the reason:
# - cli/: one write of a view's buf to standard output
#   (fputs(buf_cstr(B), stdout), fwrite(B.data or buf_cstr(B), 1, B.len,
#   stdout)): that is "cli prints what views give it".
# - cli/: anything on standard error: the usage errors of the commands and
#   cli_fail()'s messages (cli/exit.c) are reports of what went wrong, not
#   results, and DESIGN §3 puts them there.
# - runner/demo.c: the lines that are string literals: they are the C
#   source of the demo's benchmark program, which it writes to a file.
# - reports/report.c: report_write() writes a rendered report (a buf) to
#   standard output when no -o FILE is given, as cli/ writes a view's buf.

# prints FILE...: the lines, not wholly comments, that print, as FILE:LINE:text.
prints() {
	grep -nH "" "$@" | grep -v '^[^:]*:[0-9]*:[[:space:]]*/\{0,1\}\*' |
		grep -E '(^|[^_A-Za-z0-9])(printf|vprintf|puts|putchar) *\(|(^|[^_A-Za-z0-9])(fprintf|vfprintf|fputs|fputc|putc|fwrite|fflush|esc_fputs|write) *\((.*[^_A-Za-z0-9])?(stdout|stderr|STDOUT_FILENO|STDERR_FILENO)[^_A-Za-z0-9]|(^|[^_A-Za-z0-9])write *\( *[12] *,'
}

# cli_prints FILE...: what prints() finds in cli/ but the allowed writes.
cli_prints() {
	prints "$@" |
		grep -vE '[^_A-Za-z0-9](stderr|STDERR_FILENO)[^_A-Za-z0-9]' |
		grep -vE 'fputs *\(buf_cstr *\([^()]*\), *stdout\)' |
		grep -vE 'fwrite *\(([^,()]*(\.|->)data|buf_cstr *\([^()]*\)), *1, *[^,()]*(\.|->)len, *stdout\)' |
		grep -vE 'fflush *\(stdout\)'
}

# stage_prints FILE...: what prints() finds in the stages but the exceptions above.
stage_prints() {
	prints "$@" |
		grep -vE '^[^:]*/runner/demo\.c:[0-9]+:[[:space:]]*"' |
		grep -vE '^[^:]*/reports/report\.c:[0-9]+:.*(fwrite *\(text->data, 1, text->len, stdout\)|fflush *\(stdout\))'
}

test_expect_success 'cli/ prints nothing but the buf a view composed' '
	source_files cli >files &&
	grep -q "/cli/main.c$" files &&
	{ cli_prints $(cat files) >hits || :; } &&
	cat hits >&2 &&
	! test -s hits
'

test_expect_success 'runner/, archive/, formats/, stats/, reports/, common/ and sys/ print nothing' '
	source_files runner archive formats stats reports common sys >files &&
	grep -q "/runner/demo.c$" files &&
	grep -q "/reports/report.c$" files &&
	{ stage_prints $(cat files) >hits || :; } &&
	cat hits >&2 &&
	! test -s hits
'

test_expect_success 'the checks see a direct print (they can fail)' '
	mkdir -p planted/cli planted/runner &&
	cat >planted/cli/x.c <<-\EOF &&
	/* A comment may say printf("x") and puts(s) freely. */
	static int done(const char *id, struct buf *out)
	{
		snprintf(s, sizeof(s), "%s", id);
		buf_printf(out, "%s\n", id);
		fprintf(stderr, "plumb x: needs an id\n");
		fputs(buf_cstr(out), stdout);
		fwrite(out->data, 1, out->len, stdout);
		printf("%s: ok\n", id);
		puts(id);
		fprintf(stdout, "%s\n", id);
		fputs(id, stdout);
		esc_fputs(stdout, id, 0);
		fputc(10, stdout);
		(void)write(1, id, 2);
	}
	EOF
	cli_prints planted/cli/x.c >c-hits &&
	test $(wc -l <c-hits) = 7 &&
	cat >planted/runner/y.c <<-\EOF &&
	static void step(const char *id)
	{
		fprintf(stderr, "round %s\n", id);
		fputs(buf_cstr(out), stdout);
		putchar(10);
	}
	EOF
	stage_prints planted/runner/y.c >s-hits &&
	test $(wc -l <s-hits) = 3
'

test_done
