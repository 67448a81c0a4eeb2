#!/bin/sh
# t3001-archive-add.sh with the index on PostgreSQL (lib-archive.sh).
ARCHIVE_BACKEND=postgresql
. "$(dirname "$0")/t3001-archive-add.sh"
