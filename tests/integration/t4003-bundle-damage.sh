#!/bin/sh
test_description='plumb bundle verify: truncation, bit flips and trailing data are caught'
. "$(dirname "$0")/test-lib.sh"

craft="$TEST_SRCDIR/tests/integration/bundle-craft.py"
command -v zstd >/dev/null 2>&1 && test_have_prereq PYTHON && test_set_prereq CRAFT

test_expect_success 'a small bundle' '
	plumb bundle pack "$FIXTURES/bundle/small" -o small.plumb >/dev/null &&
	plumb bundle verify small.plumb >/dev/null
'

# damage.py MODE BUNDLE: run plumb verify on damaged copies; print each
# copy whose exit status is wrong.  truncate: a shorter prefix must exit 3.
# flip: a flipped bit must exit 3, or exit 0 only when the file still
# decompresses to the very same tar stream (a zstd header bit that no
# decoder reads, a smaller window that still suffices, a padding bit of an
# entropy-coded stream).  Every offset and every bit are tried in-process
# by the unit tests (test-bundle.c); here the command runs on a sample,
# one process each.
cat >damage.py <<\EOF
import subprocess, sys
mode, path = sys.argv[1], sys.argv[2]
plumb = sys.argv[3]
data = open(path, "rb").read()
orig_tar = subprocess.run(["zstd", "-dc", path], capture_output=True).stdout
bad = 0
runs = 0
benign = 0

def check(blob, what):
    global bad, runs, benign
    with open("damaged.plumb", "wb") as f:
        f.write(blob)
    r = subprocess.run([plumb, "bundle", "verify", "damaged.plumb"],
                       capture_output=True)
    runs += 1
    if r.returncode == 3 and r.stderr.startswith(b"plumb: damaged.plumb: "):
        return
    if r.returncode == 0 and mode == "flip":
        t = subprocess.run(["zstd", "-dc", "damaged.plumb"], capture_output=True)
        if t.returncode == 0 and t.stdout == orig_tar:
            benign += 1
            return
    bad += 1
    print("%s: exit %d: %s" % (what, r.returncode, r.stderr.decode(errors="replace").strip()))

if mode == "truncate":
    sizes = set(range(0, 48)) | set(range(len(data) - 48, len(data)))
    sizes |= set(range(48, len(data) - 48, 13))
    for n in sorted(sizes):
        check(data[:n], "truncated to %d bytes" % n)
else:
    bits = list(range(0, 8 * 16)) + list(range(8 * (len(data) - 8), 8 * len(data)))
    bits += list(range(8 * 16, 8 * (len(data) - 8), 97))
    for b in sorted(set(bits)):
        blob = bytearray(data)
        blob[b // 8] ^= 1 << (b % 8)
        check(bytes(blob), "bit %d flipped" % b)
print("runs %d bad %d benign %d" % (runs, bad, benign), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

test_expect_success PYTHON 'truncated at many offsets: exit 3, never a crash' '
	python3 damage.py truncate small.plumb "$PLUMB" >bad 2>summary &&
	test_grep "^runs [0-9]* bad 0 " summary &&
	! test -s bad
'

test_expect_success PYTHON 'single bits flipped at many places: exit 3 unless nothing changed' '
	python3 damage.py flip small.plumb "$PLUMB" >bad 2>summary &&
	test_grep "bad 0 " summary &&
	! test -s bad
'

test_expect_success 'an empty file, a plain tar and random bytes are not bundles' '
	: >empty.plumb &&
	test_expect_code 3 plumb bundle verify empty.plumb 2>err &&
	test_grep "empty.plumb: empty file" err &&
	tar -cf plain.plumb small.plumb &&
	test_expect_code 3 plumb bundle verify plain.plumb 2>err &&
	test_grep "plain.plumb: not a zstd stream" err &&
	head -c 3000 /dev/urandom >random.plumb &&
	test_expect_code 3 plumb bundle verify random.plumb 2>err
'

test_expect_success 'bytes after the zstd stream are refused' '
	cp small.plumb tail.plumb &&
	printf "junk" >>tail.plumb &&
	test_expect_code 3 plumb bundle verify tail.plumb 2>err &&
	test_grep "tail.plumb: damaged zstd stream" err
'

test_expect_success CRAFT 'zeros after the tar end are fine, anything else is not' '
	python3 "$craft" zeros.plumb --from small.plumb --trailer "$(printf "%02048d" 0)" &&
	plumb bundle verify zeros.plumb >/dev/null &&
	python3 "$craft" junk.plumb --from small.plumb --trailer "$(printf "%01024d" 0)6a756e6b" &&
	test_expect_code 3 plumb bundle verify junk.plumb 2>err &&
	test_grep "junk.plumb: data after the end of the tar archive" err &&
	{ cat small.plumb && printf "junk" | zstd -q -c; } >frame2.plumb &&
	test_expect_code 3 plumb bundle verify frame2.plumb 2>err &&
	test_grep "frame2.plumb: data after the end of the tar archive" err &&
	{ cat small.plumb && head -c 4096 /dev/zero | zstd -q -c; } >zframe.plumb &&
	plumb bundle verify zframe.plumb >/dev/null
'

test_expect_success CRAFT 'a frame without content checksum still has every member checked' '
	python3 "$craft" nock.plumb --from small.plumb --zstd "-3 --no-check" &&
	plumb bundle verify nock.plumb >/dev/null &&
	sed "s/othertool/evil-tool/" "$FIXTURES/bundle/small/manifest.json" >m.json &&
	python3 "$craft" nock2.plumb --from small.plumb --file manifest.json=@m.json --zstd "-3 --no-check" &&
	test_expect_code 3 plumb bundle verify nock2.plumb 2>err &&
	test_grep "member .manifest.json.: checksum mismatch" err
'

test_done
