# tests/integration/lib-bisect.sh: a generated history for `plumb bisect`
# (t1050, bench/bisect.sh).  Source it after test-lib.sh (or set the
# GIT_* variables yourself).
#
#   make_history DIR N PLANT   git repository DIR whose tag good is a small
#                              make-based C program (a hot loop in run(),
#                              cold code before it in work.c) followed by N
#                              commits on main: commit PLANT (1..N; 0 for
#                              none) makes the hot loop about 10% slower;
#                              every third other commit adds a cold
#                              function before run() (the hot code moves,
#                              unchanged), the rest change only a comment.
#                              Commit K's subject says which it is.
#   bisect_conf FILE [KEY=VALUE]...   plumb.conf for it: 2 pads, 5 rounds,
#                              hot = run, benchmark "loop".

make_history() {
	dir=$1 n=$2 plant=$3
	mkdir -p "$dir" &&
	(
		cd "$dir" &&
		git init -q -b main . &&
		printf '%s\n' 'CFLAGS = -O2' 'bench: main.o work.o' \
			'	$(CC) $(LDFLAGS) -o $@ main.o work.o' >Makefile &&
		cat >main.c <<-\EOF2 &&
		#include <stdio.h>
		#include <stdlib.h>
		long run(long n);
		long acc = 1;
		__attribute__((noinline)) long step(long s) { return s + acc; }
		int main(int argc, char **argv)
		{
			long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
			printf("%ld\n", run(n));
			return 0;
		}
		EOF2
		printf '/* comment 0 */\n' >note.h &&
		: >cold.h &&
		cat >work.c <<-\EOF2 &&
		#include <stdio.h>
		#include "note.h"
		long step(long s);
		extern long acc;
		#include "cold.h"
		__attribute__((noinline)) long run(long n)
		{
			long s = 0;
			for (long i = 0; i < n; i++) {
				s = step(s) ^ (i * acc);
				SLOW
			}
			return s;
		}
		EOF2
		printf '#define SLOW\n' >slow.h &&
		sed -e 's/#include "note.h"/#include "note.h"\n#include "slow.h"/' work.c >work.c.new &&
		mv work.c.new work.c &&
		printf 'bench\n*.o\n' >.gitignore &&
		git add -A &&
		git commit -q -m "the good end" &&
		git tag good &&
		k=1 &&
		while test $k -le "$n"; do
			if test "$k" -eq "$plant"; then
				printf '#define SLOW s ^= i;\n' >slow.h &&
				git commit -q -a -m "commit $k: the hot loop does more work"
			elif test $((k % 3)) -eq 0; then
				printf '__attribute__((noinline, cold)) void cold%d(void) { puts("cold %d, a longer string"); }\n' \
					"$k" "$k" >>cold.h &&
				git commit -q -a -m "commit $k: a cold function before run()"
			else
				printf '/* comment %d */\n' "$k" >note.h &&
				git commit -q -a -m "commit $k: a comment"
			fi || return 1
			k=$((k + 1))
		done
	)
}

bisect_conf() {
	conf=$1
	shift
	cat >"$conf" <<-\EOF2 &&
	[run]
		pads = 2
		rounds = 5
		warmupRuns = 1
	[build]
		command = make
		artifact = bench
	[bench "loop"]
		command = {artifact} 20000000
		hot = run
	EOF2
	for kv in "$@"; do
		git config -f "$conf" "${kv%%=*}" "${kv#*=}" || return 1
	done
}

# make_noisy_history DIR: tag good, then "commit 1: noisy" whose hot loop
# runs a random 1.1 to 3.9 times as long on every run (read from
# /dev/urandom: noisy on purpose), then "commit 2: four times slower".  The
# good end against the bad end is slower by far; the noisy midpoint is
# apart from both ends by less than its own noise: undecided both ways.
make_noisy_history() {
	make_history "$1" 0 0 &&
	(
		cd "$1" &&
		sed -e 's/^long s = 0;/long s = 0;\nn = (long)(n * SCALE);/' \
			-e 's/^#include "cold.h"/#include "cold.h"\n#include "scale.h"/' work.c >work.c.new &&
		mv work.c.new work.c &&
		grep -q SCALE work.c &&
		printf '#define SCALE 1\n' >scale.h &&
		git add scale.h && git commit -q -a -m "scale" && git tag -f -a -m good good >/dev/null &&
		cat >scale.h <<-\EOF2 &&
		#include <stdio.h>
		static double noise(void)
		{
			unsigned r = 0;
			FILE *f = fopen("/dev/urandom", "rb");
			if (f) {
				if (fread(&r, sizeof(r), 1, f) != 1)
					r = 0;
				fclose(f);
			}
			return 1.1 + 2.8 * (double)(r % 10000) / 10000.0;
		}
		#define SCALE noise()
		EOF2
		git commit -q -a -m "commit 1: noisy" &&
		printf '#define SCALE 4\n' >scale.h &&
		git commit -q -a -m "commit 2: four times slower"
	)
}
