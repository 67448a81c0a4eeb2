#!/bin/sh
test_description='one table engine (common/table.c), one SVG module (reports/svg.c) and one number family (common/units.c): no other source file lays out a table, draws SVG or formats a number with a fraction'
. "$(dirname "$0")/test-lib.sh"

# srcs: every C source and header of the stages, one path a line.
srcs() {
	source_files cli common sys stats formats archive runner reports views
}

# code FILE...: the lines that are not wholly comments, as FILE:LINE:text.
code() {
	grep -nH "" "$@" | grep -v '^[^:]*:[0-9]*:[[:space:]]*/\{0,1\}\*'
}

# table_engines FILE...: the lines that measure cells to align columns: the
# width of text in terminal columns (utf8_width), a width chosen when the
# program runs (printf's "%*s", "%-*d"), a column raised to a wider cell.
table_engines() {
	code "$@" | grep -E 'utf8_width *\(|%[-+ 0#]*\*|[A-Za-z_]+ *> *(w|width|widths)\[' |
		grep -vE '^[^:]*/common/(table|utf8|escape)\.[ch]:'
}

# svg_writers FILE...: the lines that write an SVG element.
svg_writers() {
	code "$@" | grep -E '<svg|<(circle|rect|line|polyline|polygon|path|ellipse) ' |
		grep -v '^[^:]*/reports/svg\.c:'
}

# number_formats FILE...: the lines that format a fraction themselves (a
# printf conversion f, g or e); common/units.c is where every such number
# is written, for people and for programs.  reports/svg.c places its
# shapes with %.1f and %.0f, coordinates of the drawing, not numbers a
# reader reads; any other conversion there is a number and counts.
number_formats() {
	code "$@" | grep -E '"[^"]*%[-+ #0-9.]*[fgeE]' |
		grep -v '^[^:]*/common/units\.c:' |
		grep -vE '^[^:]*/reports/svg\.c:.*' >nf-other || :
	code "$@" | grep '^[^:]*/reports/svg\.c:' |
		sed -e 's/%\.[01]f//g' | grep -E '"[^"]*%[-+ #0-9.]*[fgeE]' >nf-svg || :
	cat nf-other nf-svg
}

test_expect_success 'no file but common/units.c writes a number with a fraction' '
	srcs >files &&
	grep -q "/common/units.c$" files &&
	number_formats $(cat files) >hits &&
	cat hits >&2 &&
	! test -s hits
'

test_expect_success 'no file but common/table.c lays out an aligned table' '
	srcs >files &&
	grep -q "/common/table.c$" files &&
	{ table_engines $(cat files) >hits || :; } &&
	cat hits >&2 &&
	! test -s hits
'

test_expect_success 'no file but reports/svg.c writes SVG' '
	srcs >files &&
	grep -q "/reports/svg.c$" files &&
	{ svg_writers $(cat files) >hits || :; } &&
	cat hits >&2 &&
	! test -s hits
'

test_expect_success 'the checks see a second engine, a second SVG writer and a number formatted by hand (they can fail)' '
	mkdir -p planted/views &&
	cat >planted/views/x.c <<-\EOF &&
	/* A comment may say <svg and utf8_width() freely. */
	static void row(FILE *out, int w, const char *s)
	{
		fprintf(out, "%-*s|", w, s);
		if (n > width[c])
			width[c] = n;
		fputs("<svg viewBox=\"0 0 1 1\"><rect x=\"0\"/></svg>", out);
		size_t cw = utf8_width(s);
		printf("load %.2f, p %g", l, p);
	}
	EOF
	mkdir -p planted/reports &&
	cat >planted/reports/svg.c <<-\EOF &&
		buf_printf(out, "<text x=\"%.1f\" y=\"%.0f\">%s</text>", x, y, v);
		buf_printf(out, "<title>load %.2f</title>", l);
	EOF
	number_formats planted/views/x.c planted/reports/svg.c >n-hits &&
	test $(wc -l <n-hits) = 2 &&
	grep -q "load %.2f, p %g" n-hits &&
	grep -q "<title>load %.2f" n-hits &&
	table_engines planted/views/x.c >t-hits &&
	test $(wc -l <t-hits) = 3 &&
	svg_writers planted/views/x.c >s-hits &&
	test $(wc -l <s-hits) = 1
'

test_done
