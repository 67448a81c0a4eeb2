#!/bin/sh
# t3002-archive-concurrent.sh with the index on PostgreSQL (lib-archive.sh).
ARCHIVE_BACKEND=postgresql
. "$(dirname "$0")/t3002-archive-concurrent.sh"
