#!/bin/sh
test_description='plumb bundle pack: the same results give the same bytes'
. "$(dirname "$0")/test-lib.sh"

command -v zstd >/dev/null 2>&1 && test_set_prereq ZSTD
test "$(id -u)" = 0 && command -v setpriv >/dev/null 2>&1 && test_set_prereq ROOT_SETPRIV

long=logs/$(printf "%0150d" 7 | tr 0 l).log

test_expect_success 'a folder of results with a log name longer than ustar holds' '
	cp -R "$FIXTURES/bundle/run" a && chmod -R u+w a &&
	echo "a long log" >"a/$long" &&
	plumb bundle pack a -o a.plumb >out.a &&
	plumb bundle verify a.plumb >verify.out &&
	test_grep "^members  *8$" verify.out
'

test_expect_success 'packing again gives the same bytes' '
	plumb bundle pack a -o again.plumb &&
	cmp a.plumb again.plumb
'

test_expect_success 'umask, TZ, locale, file modes, times and creation order do not matter' '
	mkdir b b/logs &&
	(
		umask 077 &&
		# Created in another order, with other modes and times.
		cp a/samples.tsv b/samples.tsv &&
		for f in $(ls a/logs | sort -r); do cp "a/logs/$f" "b/logs/$f" || exit 1; done &&
		cp a/manifest.json b/manifest.json &&
		chmod 600 b/samples.tsv b/logs/* &&
		touch -d "2001-02-03 04:05:06" b/manifest.json b/logs/* &&
		TZ=Pacific/Chatham LC_ALL=C.UTF-8 LANG=C.UTF-8 "$PLUMB" bundle pack b -o b.plumb >out.b
	) &&
	cmp a.plumb b.plumb &&
	sed "s/^a.plumb/X/" out.a >expect &&
	sed "s/^b.plumb/X/" out.b >actual &&
	test_cmp expect actual
'

test_expect_success ROOT_SETPRIV 'another user gets the same bytes' '
	mkdir -p shared &&
	cp -R a shared/c &&
	chmod -R a+rX shared && chmod a+w shared &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PLUMB" bundle pack shared/c -o shared/c.plumb &&
	cmp a.plumb shared/c.plumb
'

test_expect_success ZSTD 'every entry carries the run end as its time' '
	zstd -q -d <a.plumb | tar --full-time -tvf - >listing &&
	awk "{ print \$4, \$5 }" listing | sort -u >times &&
	echo "2024-05-01 12:34:50" >expect &&
	test_cmp expect times
'

test_expect_success ZSTD 'SOURCE_DATE_EPOCH sets the time; the id does not change' '
	SOURCE_DATE_EPOCH=1234567890 "$PLUMB" bundle pack a -o sde.plumb >out.sde &&
	SOURCE_DATE_EPOCH=1234567890 "$PLUMB" bundle pack a -o sde2.plumb &&
	cmp sde.plumb sde2.plumb &&
	! cmp -s a.plumb sde.plumb &&
	zstd -q -d <sde.plumb | TZ=UTC tar --full-time -tvf - >listing &&
	awk "{ print \$4, \$5 }" listing | sort -u >times &&
	echo "2009-02-13 23:31:30" >expect &&
	test_cmp expect times &&
	sed "s/^[a-z0-9]*.plumb/X/" out.a >expect &&
	sed "s/^[a-z0-9]*.plumb/X/" out.sde >actual &&
	test_cmp expect actual
'

test_expect_success 'a SOURCE_DATE_EPOCH that is not a number is a usage error' '
	test_expect_code 2 env SOURCE_DATE_EPOCH=yesterday "$PLUMB" bundle pack a -o x.plumb 2>err &&
	test_grep "SOURCE_DATE_EPOCH" err &&
	! test -e x.plumb
'

test_expect_success 'signed when packed or signed later: the same bytes' '
	plumb bundle keygen -o k >/dev/null &&
	plumb bundle pack a -o s1.plumb --sign k.key &&
	cp a.plumb s2.plumb &&
	plumb bundle sign s2.plumb -k k.key &&
	cmp s1.plumb s2.plumb &&
	plumb bundle sign s2.plumb -k k.key &&
	cmp s1.plumb s2.plumb
'

test_done
