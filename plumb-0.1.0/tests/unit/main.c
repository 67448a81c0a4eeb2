/*
 * tests/unit/main.c: runs every PLUMB_TEST collected in list.h, as TAP.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/unit.h"

#undef PLUMB_TEST
#define PLUMB_TEST(name) void test_##name(void **state);
#include "tests/unit/list.h"
#undef PLUMB_TEST

static const struct CMUnitTest all_tests[] = {
#define PLUMB_TEST(name) cmocka_unit_test(test_##name),
#include "tests/unit/list.h"
#undef PLUMB_TEST
};

const char *unit_srcdir(void)
{
	const char *d = getenv("TEST_SRCDIR");
	return d && *d ? d : ".";
}

int main(int argc, char **argv)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("plumb", all_tests,
				       sizeof(all_tests) / sizeof(all_tests[0]),
				       NULL, NULL) ? 1 : 0;
}
