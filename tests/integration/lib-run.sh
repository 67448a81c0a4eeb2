# tests/integration/lib-run.sh: helpers of the measuring `plumb run` tests
# (t1006 onwards).  Source it after test-lib.sh and lib-project.sh.
#
#   run_conf FILE [section.key=value]...   write_conf for a quick run: 2 pads,
#                          3 rounds, no warmup run, the control on
#   run_plumb [ARGS...]    plumb run with a per-test work folder
#   manifest BUNDLE DIR    extract BUNDLE into DIR (verified on the way)
#   no_bundle DIR          DIR holds no bundle and no temporary file
#   forge BUNDLE DIR OUT PY   OUT: BUNDLE (extracted in DIR) with its manifest
#                          changed by the Python statements PY (on j), the
#                          sums made again: a bundle that lies

run_conf() {
	conf=$1
	shift
	write_conf "$conf" run.rounds=3 run.warmupRuns=0 "$@"
}

run_plumb() {
	plumb run --workdir "$TRASH/wd" "$@"
}

manifest() {
	rm -rf "$2" && plumb bundle extract "$1" "$2" >/dev/null
}

no_bundle() {
	ls -a "$1" >"$TRASH/.listing" &&
	test_grep_not '\.plumb$' "$TRASH/.listing" &&
	test_grep_not '\.tmp\.' "$TRASH/.listing"
}

forge() {
	python3 -c "import json
j = json.load(open(\"$2/manifest.json\"))
$4
json.dump(j, open(\"$TRASH/.forged.json\", \"w\"))" &&
	python3 "$TEST_SRCDIR/tests/integration/bundle-craft.py" "$3" --from "$1" \
		--drop manifest.json --file "manifest.json=@$TRASH/.forged.json" \
		--drop samples.tsv --file "samples.tsv=@$2/samples.tsv" --resum
}

# The commands of a bundle, each leaving a mark (the trust tests, t1046 and
# t6003):
#   marking_conf FILE MARKS [section.key=value]...   run_conf for a 1-pad,
#                          1-round run whose every kind of command first
#                          touches MARKS/<kind>: build.cc (the pad object's
#                          assembler), build.command, run.setup,
#                          run.cleanup and bench b's setup, prepare,
#                          command and cleanup
#   marked_bundles MARKS   make_project proj (its remote origin remote.git)
#                          with a marking_conf plumb.conf, and its bundle
#                          three times: unsigned.plumb, signed.plumb (by
#                          the key pair k) and wrong.plumb (by the key pair
#                          other)
#   all_marked MARKS       every kind left its mark (then MARKS is emptied)
#   none_marked MARKS      no command left a mark
MARK_KINDS="cc build run-setup run-cleanup setup prepare command cleanup"

marking_conf() {
	conf=$1 marks=$2
	shift 2
	mkdir -p "$marks" &&
	printf '#!/bin/sh\ntouch "%s/cc"\nexec cc "$@"\n' "$marks" >"$marks.cc" &&
	chmod +x "$marks.cc" &&
	run_conf "$conf" run.pads=1 run.control=false run.rounds=1 \
		"build.cc=$marks.cc" "build.command=touch $marks/build && make" \
		"run.setup=touch $marks/run-setup" "run.cleanup=touch $marks/run-cleanup" \
		"bench.b.setup=touch $marks/setup" "bench.b.prepare=touch $marks/prepare" \
		"bench.b.command=touch $marks/command && {artifact}" \
		"bench.b.cleanup=touch $marks/cleanup" "$@"
}

marked_bundles() {
	make_project proj &&
	git clone -q --bare proj remote.git &&
	git -C proj remote add origin "$TRASH/remote.git" &&
	marking_conf proj/plumb.conf "$1" &&
	run_plumb -c proj/plumb.conf -o unsigned.plumb >/dev/null 2>&1 &&
	all_marked "$1" &&
	plumb bundle keygen -o k >/dev/null &&
	plumb bundle keygen -o other >/dev/null &&
	cp unsigned.plumb signed.plumb &&
	plumb bundle sign signed.plumb -k k.key >/dev/null &&
	cp unsigned.plumb wrong.plumb &&
	plumb bundle sign wrong.plumb -k other.key >/dev/null
}

all_marked() {
	for kind in $MARK_KINDS; do
		test -e "$1/$kind" || { echo "no mark of $kind in $1" >&2; return 1; }
	done
	rm -rf "$1" && mkdir "$1"
}

none_marked() {
	ls -A "$1" >"$TRASH/.marks" &&
	test_cmp /dev/null "$TRASH/.marks"
}
