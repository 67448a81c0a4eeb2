#!/bin/sh
test_description='the build-system recipes of docs/build-systems.md: generated Make, CMake, Meson and autotools projects run cold, swapped, and again, restored from the build cache on either side'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"
. "$TEST_SRCDIR/tests/integration/lib-recipes.sh"

command -v cmake >/dev/null 2>&1 && test_set_prereq CMAKE
command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1 && test_set_prereq MESON
command -v autoreconf >/dev/null 2>&1 && command -v automake >/dev/null 2>&1 && test_set_prereq AUTOTOOLS

# make_lib_project DIR KIND: a git repository whose benchmark program
# links a library holding run() (the hot code) and cold(): tag v1, then a
# commit on main that changes only cold().  KIND (make, cmake,
# cmake-shared, meson, autotools) writes the build files.
make_lib_project() {
	mkdir -p "$1" &&
	(
		cd "$1" &&
		git init -q -b main . &&
		cat >main.c <<-\EOF &&
		#include <stdio.h>
		long run(long n);
		void cold(int verbose);
		int main(int argc, char **argv)
		{
			(void)argv;
			if (argc > 3)
				cold(argc);
			printf("%ld\n", run(100000));
			return 0;
		}
		EOF
		cat >work.c <<-\EOF &&
		#include <stdio.h>
		__attribute__((noinline)) void cold(int verbose)
		{
			puts("cold");
		}
		__attribute__((noinline)) long run(long n)
		{
			long s = 0;
			for (long i = 0; i < n; i++)
				s = (s ^ i) + (s >> 3);
			return s;
		}
		EOF
		case $2 in
		make)
			printf "%s\n" "bench: main.o libwork.a" "	\$(CC) \$(LDFLAGS) -o \$@ main.o libwork.a" \
				"libwork.a: work.o" "	ar rcs \$@ work.o" >Makefile ;;
		autotools)
			printf "%s\n" "AC_INIT([demo], [1])" "AM_INIT_AUTOMAKE([foreign])" "AC_PROG_CC" \
				"AM_PROG_AR" "AC_PROG_RANLIB" "AC_CONFIG_FILES([Makefile])" "AC_OUTPUT" >configure.ac &&
			printf "%s\n" "noinst_LIBRARIES = libwork.a" "libwork_a_SOURCES = work.c" \
				"bin_PROGRAMS = bench" "bench_SOURCES = main.c" "bench_LDADD = libwork.a" >Makefile.am ;;
		cmake|cmake-shared)
			kind=STATIC && test "$2" = cmake || kind=SHARED
			printf "%s\n" "cmake_minimum_required(VERSION 3.14)" "project(demo C)" \
				"add_library(work $kind work.c)" "add_executable(bench main.c)" \
				"target_link_libraries(bench work)" >CMakeLists.txt ;;
		meson)
			printf "%s\n" "project('demo', 'c')" \
				"work = static_library('work', 'work.c')" \
				"executable('bench', 'main.c', link_with: work)" >meson.build ;;
		esac &&
		printf "%s\n" _build bench "*.o" "*.a" >.gitignore &&
		git add -A &&
		git commit -q -m "first version" &&
		git tag v1 &&
		sed -e "s/puts(\"cold\");/printf(\"cold %d and longer\\\\n\", verbose);/" work.c >work.c.new &&
		mv work.c.new work.c &&
		git commit -q -a -m "change only the cold function"
	)
}

# recipe_conf NAME FILE [COMMAND]: plumb.conf FILE holding
# docs/build-systems.md's NAME recipe, base v1, candidate main, 2 pads, 3
# rounds, no warmup run, one benchmark (COMMAND, default {artifact}) whose
# hot code is run.
recipe_conf() {
	bench_cmd=${3:-} &&
	{ test -n "$bench_cmd" || bench_cmd="{artifact}"; } &&
	fenced "$TEST_SRCDIR/docs/build-systems.md" "ini $1" >"$2" &&
	test_grep "^	command = " "$2" &&
	for kv in run.base=v1 run.candidate=main run.pads=2 run.rounds=3 run.warmupRuns=0 \
		"bench.b.command=$bench_cmd" bench.b.hot=run; do
		git config -f "$2" "${kv%%=*}" "${kv#*=}" || return 1
	done
}

# A compiler that logs what it does (not --version): t1040's way to see
# that a restored run compiles nothing.
test_expect_success 'a counting compiler' '
	counting_cc
'

# compiles: how many times a source of the project was compiled so far
# (Meson's reconfigure, in the control's relink, runs the compiler on probes
# of its own: those are not builds of the project).
compiles() { grep -c -e "\(^\| \)-c .*[/ ]\(main\|work\)\.c\$" "$TRASH/cc-calls"; }

# restored BUNDLE: every variant but the control was restored, and every pad
# moved the hot code by its offset (the shift proof, on restored artifacts).
restored() {
	manifest "$1" "$1.d" &&
	test_json "$1.d/manifest.json" "all(v.get(\"cached\", False) == (v[\"side\"] != \"control\") for v in j[\"build\"][\"variants\"])" &&
	moved "$1.d/manifest.json"
}

built() {
	manifest "$1" "$1.d" &&
	test_json "$1.d/manifest.json" "not any(v.get(\"cached\") for v in j[\"build\"][\"variants\"])" &&
	moved "$1.d/manifest.json"
}

moved() {
	python3 - "$1" <<-\PY
	import json, sys
	vs = json.load(open(sys.argv[1]))["build"]["variants"]
	zero = {v["side"]: v["hot"][0]["address"] for v in vs if v["pad"] == 0}
	for v in vs:
	    assert v["hot"][0]["address"] - zero[v["side"]] == v.get("padOffset", 0), v
	assert sum(1 for v in vs if v["pad"] == 1) == 2
	PY
}

# three_runs NAME: cold, swapped, and again (base v1 again): each exits 0,
# the second and third restore every variant but the control and compile
# nothing (only the control links).
three_runs() {
	run_plumb -c $1/plumb.conf -o $1-cold.plumb >$1-cold.out 2>$1-cold.err &&
	test "$(compiles)" -gt 0 &&
	built $1-cold.plumb &&
	before=$(compiles) &&
	run_plumb -c $1/plumb.conf --base main --candidate v1 -o $1-swap.plumb >$1-swap.out 2>$1-swap.err &&
	test_grep_not "warning" $1-swap.err &&
	restored $1-swap.plumb &&
	test "$(compiles)" = "$before" &&
	run_plumb -c $1/plumb.conf -o $1-again.plumb >$1-again.out 2>$1-again.err &&
	test_grep_not "warning" $1-again.err &&
	restored $1-again.plumb &&
	test "$(compiles)" = "$before"
}

test_expect_success PYTHON 'Make: cold, swapped, again' '
	make_lib_project mk make &&
	recipe_conf make mk/plumb.conf &&
	three_runs mk
'

test_expect_success CMAKE,PYTHON 'CMake (a static library linked into the benchmark): cold, swapped, again' '
	make_lib_project cm cmake &&
	recipe_conf cmake cm/plumb.conf &&
	three_runs cm
'

test_expect_success CMAKE 'CMake: a run in another work folder builds each tree there once (CMakeCache.txt records its folder), then restores it' '
	plumb run --workdir "$TRASH/wd2" -c cm/plumb.conf --build-only >moved.out 2>moved.err &&
	test_grep "b00: the build cache entry [0-9a-f]* was built in $TRASH/wd/build/[0-9a-f]*, not in $TRASH/wd2/build/" moved.err &&
	test_grep_not "warning" moved.err &&
	test_grep "^shift check: ok" moved.out &&
	test_grep "^reproducible: yes" moved.out &&
	plumb run --workdir "$TRASH/wd2" -c cm/plumb.conf --build-only >again.out 2>again.err &&
	test_grep_not "warning" again.err &&
	test "$(grep -c ": restored from the build cache" again.err)" = 4
'

test_expect_success CMAKE,PYTHON 'CMake, a shared library (CMAKE_SHARED_LINKER_FLAGS): built, then swapped and restored' '
	make_lib_project cs cmake-shared &&
	recipe_conf cmake-shared cs/plumb.conf "{artifact}/bench" &&
	run_plumb -c cs/plumb.conf -o cs-cold.plumb >/dev/null 2>cs.err &&
	built cs-cold.plumb &&
	test_json cs-cold.plumb.d/manifest.json "j[\"build\"][\"variants\"][0][\"hot\"][0][\"name\"] == \"run\"" &&
	run_plumb -c cs/plumb.conf --base main --candidate v1 -o cs-swap.plumb >/dev/null 2>cs.err &&
	test_grep_not "warning" cs.err &&
	restored cs-swap.plumb
'

test_expect_success MESON,PYTHON 'Meson (-Dc_link_args): cold, swapped, again' '
	make_lib_project ms meson &&
	recipe_conf meson ms/plumb.conf &&
	three_runs ms
'

test_expect_success AUTOTOOLS,PYTHON 'autotools (configure once per tree, then make): cold, swapped, again' '
	make_lib_project at autotools &&
	recipe_conf autotools at/plumb.conf &&
	three_runs at
'

test_expect_success 'every recipe of the page is a [build] section with a command and an artifact' '
	for r in make cmake cmake-shared meson autotools; do
		fenced "$TEST_SRCDIR/docs/build-systems.md" "ini $r" >$r.conf &&
		git config -f $r.conf build.command >/dev/null &&
		git config -f $r.conf build.artifact >/dev/null || return 1
	done &&
	test_grep "docs/build-systems.md" "$TEST_SRCDIR/README.md" &&
	test_grep "docs/build-systems.md" "$TEST_SRCDIR/docs/plumb.conf.5"
'

test_done
