#!/bin/sh
# t3006-archive-signatures.sh with the index on PostgreSQL (lib-archive.sh).
ARCHIVE_BACKEND=postgresql
. "$(dirname "$0")/t3006-archive-signatures.sh"
