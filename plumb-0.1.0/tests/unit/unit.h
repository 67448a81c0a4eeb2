/*
 * tests/unit/unit.h: what every cmocka unit test file includes.
 *
 * A test is `PLUMB_TEST(name) { ... }` at the start of a line; the build
 * collects those lines into list.h, so no test can be left unregistered
 * (STYLE 12).  `tests/unit/unit NAME` runs the tests whose name matches
 * NAME (a cmocka filter, '*' allowed); no argument runs them all, as TAP.
 */
#ifndef PLUMB_TESTS_UNIT_H
#define PLUMB_TESTS_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define PLUMB_TEST(name) \
	void test_##name(void **state); \
	void test_##name(void **state __attribute__((unused)))

/* The source folder, for fixtures (TEST_SRCDIR, else "."). */
const char *unit_srcdir(void);

#endif
