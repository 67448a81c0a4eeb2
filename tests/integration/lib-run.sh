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
