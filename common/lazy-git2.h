/*
 * common/lazy-git2.h: git2, loaded on first use (common/lazy.h).
 *
 * Include this instead of the library's header.  Every function plumb
 * calls is a row of PLUMB_GIT2_FUNCS and a redirect below; a call to any
 * other function of git2 does not link.
 */
#ifndef PLUMB_COMMON_LAZY_GIT2_H
#define PLUMB_COMMON_LAZY_GIT2_H

#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "common/lazy.h"

#define PLUMB_GIT2_FUNCS(X) \
	X(git_blob_free) \
	X(git_blob_lookup) \
	X(git_blob_rawcontent) \
	X(git_blob_rawsize) \
	X(git_buf_dispose) \
	X(git_commit_author) \
	X(git_commit_create) \
	X(git_commit_free) \
	X(git_commit_id) \
	X(git_commit_lookup) \
	X(git_commit_parent_id) \
	X(git_commit_parentcount) \
	X(git_commit_summary) \
	X(git_commit_time) \
	X(git_commit_time_offset) \
	X(git_commit_tree_id) \
	X(git_config_free) \
	X(git_config_get_string_buf) \
	X(git_config_iterator_free) \
	X(git_config_iterator_new) \
	X(git_config_next) \
	X(git_config_open_ondisk) \
	X(git_config_set_string) \
	X(git_error_last) \
	X(git_fetch_options_init) \
	X(git_index_add_bypath) \
	X(git_index_free) \
	X(git_index_read) \
	X(git_index_update_all) \
	X(git_index_write) \
	X(git_index_write_tree) \
	X(git_libgit2_init) \
	X(git_libgit2_opts) \
	X(git_libgit2_shutdown) \
	X(git_mempack_new) \
	X(git_object_free) \
	X(git_object_id) \
	X(git_object_peel) \
	X(git_odb_add_backend) \
	X(git_odb_free) \
	X(git_oid_cpy) \
	X(git_oid_equal) \
	X(git_oid_tostr) \
	X(git_reference_name_to_id) \
	X(git_remote_connect) \
	X(git_remote_create_options_init) \
	X(git_remote_create_with_opts) \
	X(git_remote_default_branch) \
	X(git_remote_disconnect) \
	X(git_remote_download) \
	X(git_remote_free) \
	X(git_remote_init_callbacks) \
	X(git_remote_prune) \
	X(git_remote_update_tips) \
	X(git_repository_config) \
	X(git_repository_free) \
	X(git_repository_index) \
	X(git_repository_init) \
	X(git_repository_is_bare) \
	X(git_repository_odb) \
	X(git_repository_open_bare) \
	X(git_repository_open_ext) \
	X(git_repository_path) \
	X(git_repository_set_head) \
	X(git_repository_workdir) \
	X(git_revparse_single) \
	X(git_revwalk_free) \
	X(git_revwalk_hide) \
	X(git_revwalk_new) \
	X(git_revwalk_next) \
	X(git_revwalk_push) \
	X(git_revwalk_simplify_first_parent) \
	X(git_revwalk_sorting) \
	X(git_signature_free) \
	X(git_signature_new) \
	X(git_tree_entry_byindex) \
	X(git_tree_entry_filemode) \
	X(git_tree_entry_id) \
	X(git_tree_entry_name) \
	X(git_tree_entrycount) \
	X(git_tree_free) \
	X(git_tree_lookup)

#define PLUMB_GIT2_SLOT(f) __typeof__(f) *f;
struct plumb_git2_fns {
	PLUMB_GIT2_FUNCS(PLUMB_GIT2_SLOT)
};
#undef PLUMB_GIT2_SLOT

extern struct plumb_git2_fns plumb_git2;
extern struct lazy_lib plumb_git2_lib;

/* Load git2 now; 0, or PLUMB_EINTERNAL naming the library. */
int git2_load(struct plumb_err *err);

/*
 * Load libgit2 and initialise it, once per process (later calls return at
 * once; it is shut down at the exit of the process that initialised it).
 * 0, or PLUMB_EINTERNAL naming the library.
 */
int git2_init(struct plumb_err *err);

/* A call through the table, loading git2 first when it is not yet. */
#define PLUMB_GIT2(f) (*(lazy_need(&plumb_git2_lib), plumb_git2.f))

#ifndef PLUMB_LAZY_GIT2_IMPL
#define git_blob_free PLUMB_GIT2(git_blob_free)
#define git_blob_lookup PLUMB_GIT2(git_blob_lookup)
#define git_blob_rawcontent PLUMB_GIT2(git_blob_rawcontent)
#define git_blob_rawsize PLUMB_GIT2(git_blob_rawsize)
#define git_buf_dispose PLUMB_GIT2(git_buf_dispose)
#define git_commit_author PLUMB_GIT2(git_commit_author)
#define git_commit_create PLUMB_GIT2(git_commit_create)
#define git_commit_free PLUMB_GIT2(git_commit_free)
#define git_commit_id PLUMB_GIT2(git_commit_id)
#define git_commit_lookup PLUMB_GIT2(git_commit_lookup)
#define git_commit_parent_id PLUMB_GIT2(git_commit_parent_id)
#define git_commit_parentcount PLUMB_GIT2(git_commit_parentcount)
#define git_commit_summary PLUMB_GIT2(git_commit_summary)
#define git_commit_time PLUMB_GIT2(git_commit_time)
#define git_commit_time_offset PLUMB_GIT2(git_commit_time_offset)
#define git_commit_tree_id PLUMB_GIT2(git_commit_tree_id)
#define git_config_free PLUMB_GIT2(git_config_free)
#define git_config_get_string_buf PLUMB_GIT2(git_config_get_string_buf)
#define git_config_iterator_free PLUMB_GIT2(git_config_iterator_free)
#define git_config_iterator_new PLUMB_GIT2(git_config_iterator_new)
#define git_config_next PLUMB_GIT2(git_config_next)
#define git_config_open_ondisk PLUMB_GIT2(git_config_open_ondisk)
#define git_config_set_string PLUMB_GIT2(git_config_set_string)
#define git_error_last PLUMB_GIT2(git_error_last)
#define git_fetch_options_init PLUMB_GIT2(git_fetch_options_init)
#define git_index_add_bypath PLUMB_GIT2(git_index_add_bypath)
#define git_index_free PLUMB_GIT2(git_index_free)
#define git_index_read PLUMB_GIT2(git_index_read)
#define git_index_update_all PLUMB_GIT2(git_index_update_all)
#define git_index_write PLUMB_GIT2(git_index_write)
#define git_index_write_tree PLUMB_GIT2(git_index_write_tree)
#define git_libgit2_init PLUMB_GIT2(git_libgit2_init)
#define git_libgit2_opts PLUMB_GIT2(git_libgit2_opts)
#define git_libgit2_shutdown PLUMB_GIT2(git_libgit2_shutdown)
#define git_mempack_new PLUMB_GIT2(git_mempack_new)
#define git_object_free PLUMB_GIT2(git_object_free)
#define git_object_id PLUMB_GIT2(git_object_id)
#define git_object_peel PLUMB_GIT2(git_object_peel)
#define git_odb_add_backend PLUMB_GIT2(git_odb_add_backend)
#define git_odb_free PLUMB_GIT2(git_odb_free)
#define git_oid_cpy PLUMB_GIT2(git_oid_cpy)
#define git_oid_equal PLUMB_GIT2(git_oid_equal)
#define git_oid_tostr PLUMB_GIT2(git_oid_tostr)
#define git_reference_name_to_id PLUMB_GIT2(git_reference_name_to_id)
#define git_remote_connect PLUMB_GIT2(git_remote_connect)
#define git_remote_create_options_init PLUMB_GIT2(git_remote_create_options_init)
#define git_remote_create_with_opts PLUMB_GIT2(git_remote_create_with_opts)
#define git_remote_default_branch PLUMB_GIT2(git_remote_default_branch)
#define git_remote_disconnect PLUMB_GIT2(git_remote_disconnect)
#define git_remote_download PLUMB_GIT2(git_remote_download)
#define git_remote_free PLUMB_GIT2(git_remote_free)
#define git_remote_init_callbacks PLUMB_GIT2(git_remote_init_callbacks)
#define git_remote_prune PLUMB_GIT2(git_remote_prune)
#define git_remote_update_tips PLUMB_GIT2(git_remote_update_tips)
#define git_repository_config PLUMB_GIT2(git_repository_config)
#define git_repository_free PLUMB_GIT2(git_repository_free)
#define git_repository_index PLUMB_GIT2(git_repository_index)
#define git_repository_init PLUMB_GIT2(git_repository_init)
#define git_repository_is_bare PLUMB_GIT2(git_repository_is_bare)
#define git_repository_odb PLUMB_GIT2(git_repository_odb)
#define git_repository_open_bare PLUMB_GIT2(git_repository_open_bare)
#define git_repository_open_ext PLUMB_GIT2(git_repository_open_ext)
#define git_repository_path PLUMB_GIT2(git_repository_path)
#define git_repository_set_head PLUMB_GIT2(git_repository_set_head)
#define git_repository_workdir PLUMB_GIT2(git_repository_workdir)
#define git_revparse_single PLUMB_GIT2(git_revparse_single)
#define git_revwalk_free PLUMB_GIT2(git_revwalk_free)
#define git_revwalk_hide PLUMB_GIT2(git_revwalk_hide)
#define git_revwalk_new PLUMB_GIT2(git_revwalk_new)
#define git_revwalk_next PLUMB_GIT2(git_revwalk_next)
#define git_revwalk_push PLUMB_GIT2(git_revwalk_push)
#define git_revwalk_simplify_first_parent PLUMB_GIT2(git_revwalk_simplify_first_parent)
#define git_revwalk_sorting PLUMB_GIT2(git_revwalk_sorting)
#define git_signature_free PLUMB_GIT2(git_signature_free)
#define git_signature_new PLUMB_GIT2(git_signature_new)
#define git_tree_entry_byindex PLUMB_GIT2(git_tree_entry_byindex)
#define git_tree_entry_filemode PLUMB_GIT2(git_tree_entry_filemode)
#define git_tree_entry_id PLUMB_GIT2(git_tree_entry_id)
#define git_tree_entry_name PLUMB_GIT2(git_tree_entry_name)
#define git_tree_entrycount PLUMB_GIT2(git_tree_entrycount)
#define git_tree_free PLUMB_GIT2(git_tree_free)
#define git_tree_lookup PLUMB_GIT2(git_tree_lookup)
#endif

#endif
