#!/bin/sh
test_description='a FIFO, a socket or a device where a bundle, an imported file or a key is read: refused unread (exit 3, naming it), never waited on, by every command that reads one'
. "$(dirname "$0")/test-lib.sh"

# refuses KIND PATH COMMAND...: COMMAND exits 3 at once (a hang fails
# through timeout's 124) saying "PATH: not a regular file (KIND)".
refuses() {
	kind=$1 path=$2
	shift 2
	test_expect_code 3 timeout 20 "$PLUMB" "$@" >out 2>err &&
	cat out err >both &&
	test_grep "$path: not a regular file ($kind)" both || { echo "while running: $*" >&2; return 1; }
}

test_expect_success 'a FIFO with no writer, a good bundle' '
	mkfifo fifo && test -p fifo &&
	plumb bundle pack "$FIXTURES/bundle/small" -o good.plumb >/dev/null
'

test_expect_success 'bundle verify, show, extract and sign' '
	refuses "a FIFO" fifo bundle verify fifo &&
	refuses "a FIFO" fifo bundle show fifo &&
	refuses "a FIFO" fifo bundle extract fifo dest &&
	! test -e dest &&
	refuses "a character device" /dev/null bundle verify /dev/null &&
	plumb bundle keygen -o k >/dev/null &&
	refuses "a FIFO" fifo bundle sign fifo -k k.key
'

test_expect_success PYTHON 'a socket' '
	python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"sock\")" && test -S sock &&
	refuses "a socket" sock bundle verify sock &&
	refuses "a socket" sock import sock -o out.plumb
'

test_expect_success 'a public key that is a FIFO' '
	refuses "a FIFO" fifo bundle verify good.plumb -p fifo
'

test_expect_success 'archive add: refused, nothing indexed, the other files added' '
	test_expect_code 3 timeout 20 "$PLUMB" archive add fifo good.plumb --archive-dir A >out 2>err &&
	test_grep "fifo: not a regular file (a FIFO)" err &&
	test "$(wc -l <out)" = 1
'

test_expect_success 'import' '
	refuses "a FIFO" fifo import fifo -o out.plumb &&
	refuses "a FIFO" fifo import fifo fifo -o out.plumb &&
	! test -e out.plumb
'

test_expect_success 'audit, run --from, report' '
	refuses "a FIFO" fifo audit fifo &&
	refuses "a FIFO" fifo run --from fifo --dry-run &&
	refuses "a FIFO" fifo report fifo &&
	refuses "a FIFO" fifo report good.plumb --baseline fifo
'

test_done
