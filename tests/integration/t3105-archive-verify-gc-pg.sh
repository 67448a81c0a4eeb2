#!/bin/sh
# t3005-archive-verify-gc.sh with the index on PostgreSQL (lib-archive.sh).
ARCHIVE_BACKEND=postgresql
. "$(dirname "$0")/t3005-archive-verify-gc.sh"
