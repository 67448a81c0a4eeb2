/*
 * tests/bench-h/bench-h-c.c: the test program of plumb/bench.h compiled as
 * C (the program itself is in work.h, shared with bench-h-cxx.cc).
 */
#define WORK_NAME "bench-h-c"
#include "tests/bench-h/work.h"
