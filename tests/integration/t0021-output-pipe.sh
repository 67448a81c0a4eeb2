#!/bin/sh
test_description='a reader that leaves early: exit 141, no message; a full disk still exits 74'
. "$(dirname "$0")/test-lib.sh"

# A samples table whose JSON analysis is megabytes: more than a pipe holds.
test_expect_success PYTHON 'setup: a large analysis' '
	python3 -c "
print(\"bench\tside\tpad\tround\titer\tmetric\tvalue\")
for b in range(30):
    for s in (\"base\", \"candidate\"):
        for p in range(6):
            for r in range(1, 30):
                print(\"b%d\t%s\t%d\t%d\t-\twall\t%s\" % (b, s, p, r, 1 + (b * 7 + p * 3 + r) % 11 / 1000))
" >big.tsv
'

test_expect_success PYTHON 'plumb analyze | head: exit 141 and nothing on stderr' '
	{ plumb analyze --json big.tsv 2>err; echo $? >status; } | head -c 10 >/dev/null &&
	echo 141 >expect && test_cmp expect status &&
	! test -s err
'

test_expect_success 'a write error that is not a closed pipe still exits 74, named' '
	test -w /dev/full || { echo "# no /dev/full"; return 0; }
	test_expect_code 74 plumb host >/dev/full 2>err &&
	test_grep "standard output: write error" err
'

test_done
