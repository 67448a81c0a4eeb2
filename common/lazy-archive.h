/*
 * common/lazy-archive.h: archive, loaded on first use (common/lazy.h).
 *
 * Include this instead of the library's header.  Every function plumb
 * calls is a row of PLUMB_ARCHIVE_FUNCS and a redirect below; a call to any
 * other function of archive does not link.
 */
#ifndef PLUMB_COMMON_LAZY_ARCHIVE_H
#define PLUMB_COMMON_LAZY_ARCHIVE_H

#include <archive.h>
#include <archive_entry.h>

#include "common/lazy.h"

#define PLUMB_ARCHIVE_FUNCS(X) \
	X(archive_entry_clear) \
	X(archive_entry_filetype) \
	X(archive_entry_free) \
	X(archive_entry_hardlink) \
	X(archive_entry_mtime) \
	X(archive_entry_new) \
	X(archive_entry_pathname) \
	X(archive_entry_set_filetype) \
	X(archive_entry_set_gid) \
	X(archive_entry_set_mtime) \
	X(archive_entry_set_pathname) \
	X(archive_entry_set_perm) \
	X(archive_entry_set_size) \
	X(archive_entry_set_uid) \
	X(archive_entry_size) \
	X(archive_entry_size_is_set) \
	X(archive_entry_sparse_count) \
	X(archive_entry_symlink) \
	X(archive_error_string) \
	X(archive_filter_bytes) \
	X(archive_read_data_block) \
	X(archive_read_free) \
	X(archive_read_new) \
	X(archive_read_next_header2) \
	X(archive_read_open) \
	X(archive_read_open_memory) \
	X(archive_read_support_filter_gzip) \
	X(archive_read_support_format_raw) \
	X(archive_read_support_format_tar) \
	X(archive_set_error) \
	X(archive_version_string) \
	X(archive_write_close) \
	X(archive_write_data) \
	X(archive_write_disk_new) \
	X(archive_write_disk_set_options) \
	X(archive_write_fail) \
	X(archive_write_finish_entry) \
	X(archive_write_free) \
	X(archive_write_header) \
	X(archive_write_new) \
	X(archive_write_open2) \
	X(archive_write_set_bytes_per_block) \
	X(archive_write_set_format_pax_restricted)

#define PLUMB_ARCHIVE_SLOT(f) __typeof__(f) *f;
struct plumb_archive_fns {
	PLUMB_ARCHIVE_FUNCS(PLUMB_ARCHIVE_SLOT)
};
#undef PLUMB_ARCHIVE_SLOT

extern struct plumb_archive_fns plumb_archive;
extern struct lazy_lib plumb_archive_lib;

/* Load archive now; 0, or PLUMB_EINTERNAL naming the library. */
int archive_load(struct plumb_err *err);

/* A call through the table, loading archive first when it is not yet. */
#define PLUMB_ARCHIVE(f) (*(lazy_need(&plumb_archive_lib), plumb_archive.f))

#ifndef PLUMB_LAZY_ARCHIVE_IMPL
#define archive_entry_clear PLUMB_ARCHIVE(archive_entry_clear)
#define archive_entry_filetype PLUMB_ARCHIVE(archive_entry_filetype)
#define archive_entry_free PLUMB_ARCHIVE(archive_entry_free)
#define archive_entry_hardlink PLUMB_ARCHIVE(archive_entry_hardlink)
#define archive_entry_mtime PLUMB_ARCHIVE(archive_entry_mtime)
#define archive_entry_new PLUMB_ARCHIVE(archive_entry_new)
#define archive_entry_pathname PLUMB_ARCHIVE(archive_entry_pathname)
#define archive_entry_set_filetype PLUMB_ARCHIVE(archive_entry_set_filetype)
#define archive_entry_set_gid PLUMB_ARCHIVE(archive_entry_set_gid)
#define archive_entry_set_mtime PLUMB_ARCHIVE(archive_entry_set_mtime)
#define archive_entry_set_pathname PLUMB_ARCHIVE(archive_entry_set_pathname)
#define archive_entry_set_perm PLUMB_ARCHIVE(archive_entry_set_perm)
#define archive_entry_set_size PLUMB_ARCHIVE(archive_entry_set_size)
#define archive_entry_set_uid PLUMB_ARCHIVE(archive_entry_set_uid)
#define archive_entry_size PLUMB_ARCHIVE(archive_entry_size)
#define archive_entry_size_is_set PLUMB_ARCHIVE(archive_entry_size_is_set)
#define archive_entry_sparse_count PLUMB_ARCHIVE(archive_entry_sparse_count)
#define archive_entry_symlink PLUMB_ARCHIVE(archive_entry_symlink)
#define archive_error_string PLUMB_ARCHIVE(archive_error_string)
#define archive_filter_bytes PLUMB_ARCHIVE(archive_filter_bytes)
#define archive_read_data_block PLUMB_ARCHIVE(archive_read_data_block)
#define archive_read_free PLUMB_ARCHIVE(archive_read_free)
#define archive_read_new PLUMB_ARCHIVE(archive_read_new)
#define archive_read_next_header2 PLUMB_ARCHIVE(archive_read_next_header2)
#define archive_read_open PLUMB_ARCHIVE(archive_read_open)
#define archive_read_open_memory PLUMB_ARCHIVE(archive_read_open_memory)
#define archive_read_support_filter_gzip PLUMB_ARCHIVE(archive_read_support_filter_gzip)
#define archive_read_support_format_raw PLUMB_ARCHIVE(archive_read_support_format_raw)
#define archive_read_support_format_tar PLUMB_ARCHIVE(archive_read_support_format_tar)
#define archive_set_error PLUMB_ARCHIVE(archive_set_error)
#define archive_version_string PLUMB_ARCHIVE(archive_version_string)
#define archive_write_close PLUMB_ARCHIVE(archive_write_close)
#define archive_write_data PLUMB_ARCHIVE(archive_write_data)
#define archive_write_disk_new PLUMB_ARCHIVE(archive_write_disk_new)
#define archive_write_disk_set_options PLUMB_ARCHIVE(archive_write_disk_set_options)
#define archive_write_fail PLUMB_ARCHIVE(archive_write_fail)
#define archive_write_finish_entry PLUMB_ARCHIVE(archive_write_finish_entry)
#define archive_write_free PLUMB_ARCHIVE(archive_write_free)
#define archive_write_header PLUMB_ARCHIVE(archive_write_header)
#define archive_write_new PLUMB_ARCHIVE(archive_write_new)
#define archive_write_open2 PLUMB_ARCHIVE(archive_write_open2)
#define archive_write_set_bytes_per_block PLUMB_ARCHIVE(archive_write_set_bytes_per_block)
#define archive_write_set_format_pax_restricted PLUMB_ARCHIVE(archive_write_set_format_pax_restricted)
#endif

#endif
