#!/bin/sh
test_description='plumb init: a first plumb.conf per build system, a dry run that works untouched, never an overwrite'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

# A repository of two commits holding the files given as NAME=TEXT.
two_commits() {
	dir=$1 && shift &&
	mkdir -p "$dir" && (
		cd "$dir" && git init -q -b main . &&
		printf 'int main(void) { return 0; }\n' >main.c &&
		for f in "$@"; do printf '%b\n' "${f#*=}" >"${f%%=*}"; done &&
		git add -A && git commit -q -m one &&
		printf '/* two */\n' >>main.c && git commit -q -a -m two
	)
}

test_expect_success 'make: LDFLAGS on the command line, the artifact to set' '
	two_commits mk "Makefile=bench: main.c" &&
	(cd mk && plumb init >../out) &&
	test_grep "for a project built with make" out &&
	test_grep "set build.artifact" out &&
	test_grep "^	command = make -j2 LDFLAGS=.{pad_ldflags}.$" mk/plumb.conf &&
	test_grep "^	artifact = bench" mk/plumb.conf &&
	test_grep "^	command = {artifact}$" mk/plumb.conf &&
	(cd mk && plumb run --dry-run >../dry.out 2>../dry.err) &&
	test_grep "^	base = HEAD~1$" dry.out
'

test_expect_success 'cmake: both linker-flag variables, the first executable named' '
	two_commits cm "CMakeLists.txt=project(p C) add_executable(speed main.c)" &&
	plumb init cm >out &&
	test_grep "for a project built with cmake" out &&
	test_grep_not "set build.artifact" out &&
	test_grep "CMAKE_EXE_LINKER_FLAGS={pad_ldflags}" cm/plumb.conf &&
	test_grep "CMAKE_SHARED_LINKER_FLAGS={pad_ldflags}" cm/plumb.conf &&
	test_grep "^	artifact = build/speed$" cm/plumb.conf &&
	(cd cm && plumb run --dry-run >/dev/null)
'

test_expect_success 'cmake: a program of a subfolder is not found: the artifact says to edit it' '
	two_commits cs "CMakeLists.txt=project(p C) add_subdirectory(programs)" &&
	plumb init cs >out &&
	test_grep "set build.artifact" out &&
	test_grep "^	artifact = build/bench		; edit: the program the build makes$" cs/plumb.conf
'

test_expect_success 'meson: a program not found: the artifact says to edit it' '
	two_commits mn "meson.build=project(\047p\047, \047c\047)
subdir(\047programs\047)" &&
	plumb init mn >out &&
	test_grep "set build.artifact" out &&
	test_grep "^	artifact = build/bench		; edit: the program the build makes$" mn/plumb.conf
'

test_expect_success 'meson: c_link_args and cpp_link_args' '
	two_commits ms "meson.build=project(\047p\047, \047c\047)
executable(\047fast\047, \047main.c\047)" &&
	plumb init ms >out &&
	test_grep "for a project built with meson" out &&
	test_grep "c_link_args={pad_ldflags}" ms/plumb.conf &&
	test_grep "^	artifact = build/fast$" ms/plumb.conf &&
	(cd ms && plumb run --dry-run >/dev/null)
'

test_expect_success 'autotools: configure takes the pad in LDFLAGS' '
	two_commits at "configure.ac=AC_INIT([p], [1])" "Makefile.am=bin_PROGRAMS = bench" &&
	plumb init at >out &&
	test_grep "for a project built with autotools" out &&
	test_grep "./configure LDFLAGS=.{pad_ldflags}." at/plumb.conf &&
	(cd at && plumb run --dry-run >/dev/null)
'

test_expect_success 'a real make project: init, then a run that builds, measures and judges' '
	make_project real &&
	rm -f real/plumb.conf &&
	plumb init --artifact bench real >out &&
	(cd real && plumb run --pads 2 --rounds 3 --workdir "$TRASH/wd" -o ../first.plumb >../run.out 2>../run.err) &&
	test_grep "^1 benchmark: " run.out &&
	plumb bundle verify first.plumb >/dev/null
'

test_expect_success 'an existing plumb.conf is never overwritten: exit 3, its bytes kept' '
	printf "[run]\n\tbase = v0\n" >mk/plumb.conf &&
	cp mk/plumb.conf before &&
	test_expect_code 3 plumb init mk 2>err &&
	test_grep "mk/plumb.conf: exists" err &&
	test_cmp before mk/plumb.conf
'

test_expect_success 'a symbolic link named plumb.conf is not followed' '
	mkdir ln && echo keep >target && ln -s "$TRASH/target" ln/plumb.conf &&
	test_expect_code 3 plumb init ln 2>err &&
	echo keep >expect && test_cmp expect target
'

test_expect_success '--build chooses the recipe; a wrong one is a usage error' '
	mkdir empty &&
	plumb init --build cmake empty >out &&
	test_grep "CMAKE_EXE_LINKER_FLAGS" empty/plumb.conf &&
	test_expect_code 2 plumb init --build scons other 2>err &&
	test_grep "make, cmake, meson or autotools" err
'

test_expect_success 'nothing recognised: a Makefile recipe and a word to edit it' '
	mkdir none &&
	plumb init none >out &&
	test_grep "nothing recognised" out &&
	test_grep "make -j2" none/plumb.conf
'

test_done
