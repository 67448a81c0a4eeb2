#!/bin/sh
# tests/fuzz/make-bundle-corpus.sh: (re)make the seed corpus of the bundle
# fuzzer, tests/fuzz/corpus/bundle, from the fixture folders: small and
# larger bundles, signed and unsigned, and a few hostile ones made with
# tests/integration/bundle-craft.py, so the fuzzer starts from every
# branch of the reader.  Run from the top of a built tree:
#   sh tests/fuzz/make-bundle-corpus.sh
set -eu
out=tests/fuzz/corpus/bundle
craft=tests/integration/bundle-craft.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
export SOURCE_DATE_EPOCH=1700000000
./plumb bundle pack tests/fixtures/bundle/small -o "$out/small.plumb" >/dev/null
./plumb bundle pack tests/fixtures/bundle/run -o "$out/run.plumb" >/dev/null
./plumb bundle keygen -o "$tmp/k" >/dev/null
./plumb bundle pack tests/fixtures/bundle/small -o "$out/signed.plumb" --sign "$tmp/k.key" >/dev/null
s=$out/small.plumb
python3 "$craft" "$out/symlink.plumb" --from "$s" --symlink "evil=../x"
python3 "$craft" "$out/dotdot.plumb" --from "$s" --file "a/../../x=evil" --resum
python3 "$craft" "$out/dup.plumb" --from "$s" --append "README.txt=again"
python3 "$craft" "$out/gnu-long.plumb" --from "$s" --format gnu --file "$(printf '%0120d' 0)/x=long" --resum
python3 "$craft" "$out/unlisted.plumb" --from "$s" --file "extra=1"
python3 "$craft" "$out/trailer.plumb" --from "$s" --trailer 00000000000000000000000000000000
python3 "$craft" "$out/nocheck.plumb" --from "$s" --zstd "-1 --no-check"
python3 "$craft" "$out/tar.plumb" --from "$s" --tar
# Recompress from a file, so that each frame declares a window no larger
# than its content: the fuzzer then runs far faster (a fresh 8 MiB window
# per input is costly under AddressSanitizer) and still reaches every
# check.  The window limit itself is covered by the unit tests.
for f in "$out"/*.plumb; do
	case $f in */tar.plumb) continue ;; esac
	zstd -q -d <"$f" >"$tmp/t"
	zstd -q -f -3 "$tmp/t" -o "$f"
done
