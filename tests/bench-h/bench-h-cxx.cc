/*
 * tests/bench-h/bench-h-cxx.cc: the test program of plumb/bench.h compiled
 * as C++ (the program itself is in work.h, shared with bench-h-c.c).
 */
#define WORK_NAME "bench-h-cxx"
#include "tests/bench-h/work.h"
