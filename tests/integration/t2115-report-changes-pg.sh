#!/bin/sh
# t2015-report-changes.sh with the index on PostgreSQL (lib-archive.sh).
ARCHIVE_BACKEND=postgresql
. "$(dirname "$0")/t2015-report-changes.sh"
