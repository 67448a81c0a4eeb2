#!/bin/sh
test_description='plumb bundle keygen, sign and verify -p; minisign in both directions'
. "$(dirname "$0")/test-lib.sh"

craft="$TEST_SRCDIR/tests/integration/bundle-craft.py"
command -v zstd >/dev/null 2>&1 && test_have_prereq PYTHON && test_set_prereq CRAFT
command -v minisign >/dev/null 2>&1 && command -v zstd >/dev/null 2>&1 && test_set_prereq MINISIGN

# members BUNDLE DIR: the members of BUNDLE, extracted with stock tools.
members() {
	rm -rf "$2" && mkdir "$2" && (cd "$2" && zstd -q -d <"../$1" | tar -xf -)
}

test_expect_success 'keygen writes a secret key (0600) and a public key' '
	plumb bundle keygen -o k >out &&
	test_grep "^k.pub: public key [0-9A-F]\{1,16\}$" out &&
	test "$(stat -c %a k.key)" = 600 &&
	head -n 1 k.pub | grep -q "^untrusted comment: " &&
	test_expect_code 2 plumb bundle keygen -o k 2>err &&
	cp k.pub k.pub.old &&
	plumb bundle keygen -o k --force >/dev/null &&
	! cmp -s k.pub k.pub.old &&
	plumb bundle keygen -o other >/dev/null
'

test_expect_success 'sign adds SHA256SUMS.sig and keeps the id' '
	plumb bundle pack "$FIXTURES/bundle/small" -o b.plumb >/dev/null &&
	plumb bundle verify b.plumb >before &&
	cp b.plumb unsigned.plumb &&
	plumb bundle sign b.plumb -k k.key >out &&
	test_grep "^b.plumb: bundle [0-9a-f]\{64\}: signed with key [0-9A-F]\{1,16\}$" out &&
	plumb bundle verify -p k.pub --require-signature b.plumb >after &&
	grep "^id " before >id1 && grep "^id " after >id2 && test_cmp id1 id2 &&
	test_grep "^signature  *good, key " after &&
	test_grep "^members  *5$" after
'

test_expect_success 'without a key the signature is only looked at' '
	plumb bundle verify b.plumb >out &&
	test_grep "^signature  *present (key [0-9A-F]*), not checked" out &&
	plumb bundle show b.plumb >out &&
	test_grep "^signature  *present" out
'

test_expect_success 'an unsigned bundle fails --require-signature' '
	test_expect_code 3 plumb bundle verify -p k.pub --require-signature unsigned.plumb 2>err &&
	test_grep "unsigned.plumb: not signed" err &&
	plumb bundle verify -p k.pub unsigned.plumb >out &&
	test_grep "^signature  *none$" out &&
	test_expect_code 3 plumb bundle extract -p k.pub --require-signature unsigned.plumb out.d 2>err &&
	! test -e out.d
'

test_expect_success 'a signature by another key is refused' '
	test_expect_code 3 plumb bundle verify -p other.pub b.plumb 2>err &&
	test_grep "b.plumb: SHA256SUMS.sig: .*made with key [0-9A-F]*, not with the given public key [0-9A-F]*" err
'

test_expect_success CRAFT 'an edited SHA256SUMS is refused, with or without the key' '
	members b.plumb m &&
	sed "s/othertool/evil-tool/" m/manifest.json >m.json &&
	python3 "$craft" edited.plumb --from b.plumb --file manifest.json=@m.json --resum &&
	test_expect_code 3 plumb bundle verify -p k.pub edited.plumb 2>err &&
	test_grep "edited.plumb: SHA256SUMS.sig: " err &&
	test_expect_code 3 plumb bundle verify edited.plumb 2>err &&
	test_grep "edited.plumb: SHA256SUMS.sig: the signature is for bundle" err
'

test_expect_success CRAFT 'an edited trusted comment is refused with the key' '
	sed "s/created:2025/created:2026/" m/SHA256SUMS.sig >sig &&
	! cmp -s sig m/SHA256SUMS.sig &&
	python3 "$craft" comment.plumb --from b.plumb --file SHA256SUMS.sig=@sig &&
	test_expect_code 3 plumb bundle verify -p k.pub comment.plumb 2>err &&
	test_grep "comment.plumb: SHA256SUMS.sig: .*trusted comment" err &&
	sed "s/bundle:[0-9a-f]*/bundle:0123456789012345678901234567890123456789012345678901234567890123/" \
		m/SHA256SUMS.sig >sig &&
	python3 "$craft" comment2.plumb --from b.plumb --file SHA256SUMS.sig=@sig &&
	test_expect_code 3 plumb bundle verify comment2.plumb 2>err &&
	test_grep "the signature is for bundle 0123456789012345" err
'

test_expect_success CRAFT 'a truncated signature is refused' '
	head -c 150 m/SHA256SUMS.sig >sig &&
	python3 "$craft" trunc.plumb --from b.plumb --file SHA256SUMS.sig=@sig &&
	test_expect_code 3 plumb bundle verify -p k.pub trunc.plumb 2>err &&
	test_grep "trunc.plumb: SHA256SUMS.sig: " err &&
	test_expect_code 3 plumb bundle verify trunc.plumb 2>err &&
	test_grep "trunc.plumb: SHA256SUMS.sig: " err
'

test_expect_success CRAFT 'a signature copied from another bundle is refused' '
	plumb bundle pack "$FIXTURES/bundle/run" -o other.plumb --sign k.key >/dev/null &&
	members other.plumb o &&
	python3 "$craft" copied.plumb --from b.plumb --file SHA256SUMS.sig=@o/SHA256SUMS.sig &&
	test_expect_code 3 plumb bundle verify -p k.pub copied.plumb 2>err &&
	test_grep "copied.plumb: SHA256SUMS.sig: " err &&
	test_expect_code 3 plumb bundle verify copied.plumb 2>err &&
	test_grep "copied.plumb: SHA256SUMS.sig: the signature is for bundle" err
'

test_expect_success 'signing a damaged bundle changes nothing' '
	head -c 1000 b.plumb >cut.plumb &&
	cp cut.plumb cut.orig &&
	test_expect_code 3 plumb bundle sign cut.plumb -k k.key 2>err &&
	cmp cut.plumb cut.orig &&
	! ls -a | grep -q "cut\.plumb\.tmp"
'

test_expect_success 'signing again with another key replaces the signature' '
	cp b.plumb re.plumb &&
	plumb bundle sign re.plumb -k other.key >/dev/null &&
	plumb bundle verify -p other.pub --require-signature re.plumb >/dev/null &&
	test_expect_code 3 plumb bundle verify -p k.pub re.plumb 2>/dev/null
'

test_expect_success CRAFT 'a bundle in another order is signed too' '
	members unsigned.plumb u &&
	python3 "$craft" order.plumb --from unsigned.plumb --drop README.txt \
		--file README.txt=@u/README.txt --drop SHA256SUMS --file SHA256SUMS=@u/SHA256SUMS &&
	plumb bundle sign order.plumb -k k.key >/dev/null &&
	plumb bundle verify -p k.pub --require-signature order.plumb >out &&
	test_grep "^members  *5$" out &&
	zstd -q -d <order.plumb | tar -tf - | tail -n 1 >last &&
	echo SHA256SUMS.sig >expect &&
	test_cmp expect last
'

test_expect_success MINISIGN 'stock minisign verifies what plumb signed' '
	members b.plumb s &&
	(cd s && minisign -Vm SHA256SUMS -x SHA256SUMS.sig -p ../k.pub >../ms.out) &&
	id=$(sha256sum s/SHA256SUMS | cut -c1-64) &&
	test_grep "Trusted comment: bundle:$id	created:2025-01-02T03:04:05Z" ms.out
'

test_expect_success MINISIGN 'plumb signs with a minisign key and verifies a minisign signature' '
	minisign -G -W -p ms.pub -s ms.key >/dev/null 2>&1 &&
	cp unsigned.plumb ms1.plumb &&
	plumb bundle sign ms1.plumb -k ms.key >/dev/null &&
	members ms1.plumb s1 &&
	(cd s1 && minisign -Vm SHA256SUMS -x SHA256SUMS.sig -p ../ms.pub >/dev/null) &&
	plumb bundle verify -p ms.pub --require-signature ms1.plumb >/dev/null &&
	members unsigned.plumb s2 &&
	id=$(sha256sum s2/SHA256SUMS | cut -c1-64) &&
	minisign -S -s ms.key -m s2/SHA256SUMS -x ms.sig -t "bundle:$id	created:by-minisign" >/dev/null 2>&1 &&
	python3 "$craft" ms2.plumb --from unsigned.plumb --file SHA256SUMS.sig=@ms.sig &&
	plumb bundle verify -p ms.pub --require-signature ms2.plumb >out &&
	test_grep "^signature  *good" out &&
	minisign -S -s ms.key -m s2/SHA256SUMS -x plain.sig >/dev/null 2>&1 &&
	python3 "$craft" ms3.plumb --from unsigned.plumb --file SHA256SUMS.sig=@plain.sig &&
	test_expect_code 3 plumb bundle verify -p ms.pub ms3.plumb 2>err &&
	test_grep "the trusted comment names no bundle id" err
'

test_expect_success 'sign needs a key' '
	test_expect_code 2 plumb bundle sign b.plumb 2>err &&
	test_expect_code 3 plumb bundle sign b.plumb -k nosuch.key 2>err &&
	test_grep "nosuch.key" err
'

test_expect_success PYTHON '--json on keygen, pack, sign, verify and extract' '
	plumb bundle keygen -o jk --json >k.json &&
	test_json k.json "j[\"secretKey\"] == \"jk.key\" and j[\"publicKey\"] == \"jk.pub\" and 0 < len(j[\"keyId\"]) <= 16" &&
	plumb bundle pack "$FIXTURES/bundle/small" -o j.plumb --json >p.json &&
	id=$(plumb bundle verify j.plumb | sed -n "s/^id  *//p") &&
	test_json p.json "j == {\"path\": \"j.plumb\", \"id\": \"$id\", \"signed\": False}" &&
	plumb bundle sign j.plumb -k jk.key --json >s.json &&
	test_json s.json "j[\"path\"] == \"j.plumb\" and j[\"id\"] == \"$id\" and 0 < len(j[\"keyId\"]) <= 16" &&
	plumb bundle verify j.plumb -p jk.pub --require-signature --json >v.json &&
	test_json v.json "j[\"ok\"] is True and j[\"id\"] == \"$id\" and j[\"members\"] >= 4 and j[\"fileBytes\"] > 0 and j[\"signature\"].startswith(\"good\")" &&
	plumb bundle extract j.plumb jx --json >x.json &&
	test_json x.json "j[\"dir\"] == \"jx\" and j[\"id\"] == \"$id\"" &&
	printf junk >bad.plumb &&
	test_expect_code 3 plumb bundle verify bad.plumb --json >out 2>err &&
	! test -s out
'

test_done
