#!/bin/sh
# t3003-archive-crash.sh with the index on PostgreSQL (lib-archive.sh).
ARCHIVE_BACKEND=postgresql
. "$(dirname "$0")/t3003-archive-crash.sh"
