# tests/integration/lib-project.sh: a small make-based C project in a real
# git repository, for the `plumb run` tests (t1NNN).  Source it after
# test-lib.sh.
#
#   make_project DIR       git repository with Makefile, main.c, work.c,
#                          tag v1 and a second commit (on main) that only
#                          changes the cold function; plumb.conf beside it
#   write_conf FILE KEY=VALUE...   plumb.conf for DIR with the given keys
#   run_build [ARGS...]    plumb run --build-only with a per-test work folder
#
# work.c puts cold() before run(), and run() calls step() in main.c and
# reads a global: a bigger cold() moves run() and changes the
# displacements inside it without changing one instruction.

GIT_AUTHOR_NAME=Tester
GIT_AUTHOR_EMAIL=tester@example.com
GIT_COMMITTER_NAME=Tester
GIT_COMMITTER_EMAIL=tester@example.com
GIT_AUTHOR_DATE='2026-01-02T03:04:05Z'
GIT_COMMITTER_DATE='2026-01-02T03:04:05Z'
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
unset MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS LDFLAGS 2>/dev/null || true

make_project() {
	mkdir -p "$1" &&
	(
		cd "$1" &&
		git init -q -b main . &&
		printf '%s\n' 'CFLAGS = -O2 -g' 'bench: main.o work.o' \
			'	$(CC) $(LDFLAGS) -o $@ main.o work.o' >Makefile &&
		cat >main.c <<-\EOF &&
		#include <stdio.h>
		long run(long n);
		void cold(int verbose);
		long acc = 1;
		__attribute__((noinline)) long step(long s) { return s + acc; }
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
		long step(long s);
		extern long acc;
		__attribute__((noinline)) void cold(int verbose)
		{
			puts("cold");
		}
		__attribute__((noinline)) long run(long n)
		{
			long s = 0;
			for (long i = 0; i < n; i++)
				s = step(s) ^ (i * acc);
			return s;
		}
		EOF
		printf 'bench\n*.o\n' >.gitignore &&
		git add -A &&
		git commit -q -m "first version" &&
		git tag v1 &&
		sed -e 's/puts("cold");/if (verbose > 4) printf("cold %d %s\\n", verbose, "and longer"); else puts("cold");/' work.c >work.c.new &&
		mv work.c.new work.c &&
		git commit -q -a -m "change only the cold function"
	)
}

# write_conf FILE [section.key=value]...: base v1, candidate main, 2 pads.
write_conf() {
	conf=$1
	shift
	cat >"$conf" <<-\EOF &&
	[run]
		base = v1
		candidate = main
		pads = 2
	[build]
		command = make
		artifact = bench
	[bench "b"]
		command = {artifact}
		hot = run
	EOF
	for kv in "$@"; do
		git config -f "$conf" "${kv%%=*}" "${kv#*=}" || return 1
	done
}

run_build() {
	plumb run --build-only --workdir "$TRASH/wd" "$@"
}

# counting_cc: CC becomes a compiler that logs every compilation and link
# it does to $TRASH/cc-calls (not --version, which the cache key asks
# for), so a test can see that a restored run compiles nothing.
counting_cc() {
	mkdir -p "$TRASH/bin" &&
	cat >"$TRASH/bin/cc-count" <<-EOF &&
	#!/bin/sh
	case "\$1" in --version) exec cc "\$@" ;; esac
	echo "\$*" >>"$TRASH/cc-calls"
	exec cc "\$@"
	EOF
	chmod +x "$TRASH/bin/cc-count" &&
	CC="$TRASH/bin/cc-count" &&
	export CC &&
	: >"$TRASH/cc-calls"
}
