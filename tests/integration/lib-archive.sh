# tests/integration/lib-archive.sh: helpers of the t3*-archive-* tests,
# sourced after test-lib.sh.

command -v sqlite3 >/dev/null 2>&1 && test_set_prereq SQLITE3

# make_bundle SEED OUT [LOGBYTES]: pack the fixture folder with run.seed =
# SEED, so each seed gives a bundle with its own id; with LOGBYTES, a log
# of that many bytes of base64 noise (compressing to about 3/4) makes it big.
# $BUNDLE_FP, when set, is its host fingerprint (another host class).
make_bundle() {
	rm -rf "mk.$1" && mkdir "mk.$1" &&
	sed -e "s/\"seed\": 1,/\"seed\": $1,/" \
		-e "s/\"fingerprint\": \"5ca1ab1e00000001\"/\"fingerprint\": \"${BUNDLE_FP:-5ca1ab1e00000001}\"/" \
		"$FIXTURES/archive/bundle/manifest.json" >"mk.$1/manifest.json" &&
	cp "$FIXTURES/archive/bundle/samples.tsv" "mk.$1/" &&
	if test -n "${3:-}"; then
		mkdir "mk.$1/logs" &&
		head -c "$3" /dev/urandom | base64 | head -c "$3" >"mk.$1/logs/build.log"
	fi &&
	plumb bundle pack "mk.$1" -o "$2" >/dev/null &&
	rm -rf "mk.$1"
}

# bundle_id FILE: the id `plumb archive add` prints for it, from a scratch archive.
bundle_id() {
	plumb archive add "$1" --archive-dir "$TRASH/.id-archive" | cut -c1-64
}

# stored_path ARCHIVE ID
stored_path() {
	id=$2
	echo "$1/bundles/$(printf %.2s "$id")/$id.plumb"
}

# rows_have_files ARCHIVE: every bundle row has its file (the invariant).
rows_have_files() {
	sqlite3 "$1/archive.db" "SELECT id FROM bundles" >rows.txt || return 1
	while read -r id; do
		f=$(stored_path "$1" "$id")
		test -f "$f" || { echo "row $id has no file $f" >&2; return 1; }
	done <rows.txt
}

# db_ok ARCHIVE: SQLite's integrity check passes.
db_ok() {
	out=$(sqlite3 "$1/archive.db" "PRAGMA integrity_check") &&
	test "$out" = ok || { echo "integrity_check: $out" >&2; return 1; }
}

# no_temp_files ARCHIVE
no_temp_files() {
	find "$1/bundles" -name ".*.tmp.*" >temps.txt &&
	! test -s temps.txt || { cat temps.txt >&2; return 1; }
}

# plant ARCHIVE FILE: put a bundle file into ARCHIVE the way no plumb
# command would, unverified (its file under its id, and a bare row), as
# bit rot or a hostile host would leave it; prints its id.
plant() {
	id=$(zstd -dcq "$2" | tar -xOf - SHA256SUMS | sha256sum | cut -c1-64) &&
	sum=$(sha256sum "$2" | cut -c1-64) && size=$(wc -c <"$2") &&
	mkdir -p "$1/bundles/$(printf %.2s "$id")" &&
	cp "$2" "$(stored_path "$1" "$id")" &&
	sqlite3 "$1/archive.db" "INSERT INTO bundles (id, file_sha256, size, created, added,
		format_version, signature) VALUES ('$id', '$sum', $size, 0, 0, '1.0', 'none')" &&
	echo "$id"
}
