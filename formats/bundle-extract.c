/*
 * formats/bundle-extract.c: `plumb bundle extract BUNDLE DIR`.
 *
 * Three steps, so that a bad bundle leaves nothing behind and a good one
 * never writes outside DIR:
 *   1. verify the whole bundle (bundle_verify_fd: nothing is written);
 *   2. read it again and write every member with libarchive's
 *      archive_write_disk, its secure flags on (no "..", no absolute
 *      names, no writing through symbolic links, no overwriting), into a
 *      fresh private folder DIR/.plumb-extract.XXXXXX, hashing every member
 *      again against step 1;
 *   3. move the members into DIR with renameat(), opening every parent
 *      folder with O_NOFOLLOW, then remove the private folder.
 * The secure flags refuse absolute names, so step 2 runs with DIR as the
 * working folder and names relative to it; the previous working folder is
 * restored afterwards.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "common/err.h"
#include "common/fileio.h"
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "formats/digest.h"
#include "common/banned.h"

#define TMP_PREFIX ".plumb-extract."

/* Is the folder empty?  1 yes, 0 no, -1 error (errno). */
static int dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int empty = 1;

	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			empty = 0;
			break;
		}
	}
	closedir(d);
	return empty;
}

/* Remove a folder tree below dirfd (no links followed); best effort. */
static void rm_tree(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *de;

	if (fd < 0) {
		unlinkat(dirfd, name, 0);
		return;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
			rm_tree(fd, de->d_name);
		else
			unlinkat(fd, de->d_name, 0);
	}
	closedir(d);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/*
 * Open the folder holding name below base, component by component without
 * following links, creating missing folders when create is set.  Returns
 * the fd (the caller closes it) and points *leaf at the last component.
 */
static int open_parent(int base, const char *dir, const char *name, int create,
		       const char **leaf, struct plumb_err *err)
{
	const char *p = name, *slash;
	int fd = dup(base);

	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, "dup");
	while ((slash = strchr(p, '/')) != NULL) {
		char comp[BUNDLE_MAX_COMPONENT + 1];
		size_t len = (size_t)(slash - p);
		int next;

		memcpy(comp, p, len);
		comp[len] = '\0';
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, comp, 0755) < 0 && errno != EEXIST) {
				int e = errno;
				close(fd);
				return plumb_err_errno(err, PLUMB_EIO, e, name, "create folder");
			}
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			int e = errno;
			close(fd);
			if (e == ENOENT && !create) {
				*leaf = NULL;   /* nothing there yet: no clash possible */
				return -2;
			}
			if (e == ENOTDIR || e == ELOOP)
				return plumb_err_set(err, PLUMB_EINPUT, "%s/%.*s: exists and is "
						     "not a folder", dir, (int)(slash - name), name);
			return plumb_err_errno(err, PLUMB_EIO, e, name, "open folder");
		}
		close(fd);
		fd = next;
		p = slash + 1;
	}
	*leaf = p;
	return fd;
}

/* Before moving anything: nothing in dir may stand in a member's way. */
static int check_clashes(int dirfd, const char *dir, const struct bundle_info *info,
			 struct plumb_err *err)
{
	for (size_t i = 0; i < info->n_members; i++) {
		const struct bundle_member *m = &info->members[i];
		const char *leaf;
		struct stat st;
		int fd = open_parent(dirfd, dir, m->name, 0, &leaf, err);

		if (fd == -2)
			continue;
		if (fd < 0)
			return fd;
		if (fstatat(fd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (m->is_dir ? !S_ISDIR(st.st_mode) : S_ISDIR(st.st_mode))) {
			close(fd);
			return plumb_err_set(err, PLUMB_EINPUT, "%s/%s: exists and is %s", dir,
					     m->name, m->is_dir ? "not a folder" : "a folder");
		}
		close(fd);
	}
	return 0;
}

/* Step 2: write every member under tmp (relative to the working folder). */
static int write_members(int fd, const char *path, const char *tmp,
			 const struct bundle_info *info, struct plumb_err *err)
{
	struct bundle_reader r;
	struct bundle_entry e;
	struct archive *disk;
	struct archive_entry *ae;
	char name[BUNDLE_MAX_NAME + 64];
	size_t idx = 0;
	int rc;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "seek");
	rc = bundle_reader_open_fd(&r, fd, path, NULL, err);
	if (rc < 0)
		return rc;
	disk = archive_write_disk_new();
	ae = archive_entry_new();
	if (!disk || !ae) {
		rc = plumb_err_oom(err, "extract");
		goto out;
	}
	archive_write_disk_set_options(disk, ARCHIVE_EXTRACT_SECURE_NODOTDOT |
				       ARCHIVE_EXTRACT_SECURE_SYMLINKS |
				       ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS |
				       ARCHIVE_EXTRACT_NO_OVERWRITE |
				       ARCHIVE_EXTRACT_TIME);
	while ((rc = bundle_reader_next(&r, &e, err)) > 0) {
		const struct bundle_member *m = idx < info->n_members ? &info->members[idx] : NULL;
		struct digest d;
		unsigned char sha[DIGEST_BYTES];
		const void *p;
		size_t len;

		idx++;
		/* The same bundle as in step 1, member for member. */
		if (!m || strcmp(m->name, e.name) != 0 || m->is_dir != e.is_dir ||
		    m->size != e.size) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: changed while it was being "
					   "extracted", path);
			break;
		}
		snprintf(name, sizeof(name), "%s/%s", tmp, e.name);
		archive_entry_clear(ae);
		archive_entry_set_pathname(ae, name);
		archive_entry_set_filetype(ae, e.is_dir ? AE_IFDIR : AE_IFREG);
		/* Kept artifacts are executables (bundle-v1.md): they come out runnable. */
		archive_entry_set_perm(ae, e.is_dir || strncmp(e.name, "artifacts/", 10) == 0 ? 0755
										 : 0644);
		archive_entry_set_size(ae, (la_int64_t)e.size);
		archive_entry_set_mtime(ae, (time_t)e.mtime, 0);
		if (archive_write_header(disk, ae) != ARCHIVE_OK) {
			rc = plumb_err_set(err, PLUMB_EIO, "%s: %s", e.name,
					   archive_error_string(disk));
			break;
		}
		rc = digest_init(&d, e.size >= BUNDLE_THREADED_HASH, err);
		if (rc < 0)
			break;
		while ((rc = bundle_reader_data(&r, &p, &len, err)) > 0) {
			if (archive_write_data(disk, p, len) != (la_ssize_t)len) {
				rc = plumb_err_set(err, PLUMB_EIO, "%s: %s", e.name,
						   archive_error_string(disk));
				break;
			}
			rc = digest_update(&d, p, len, err);
			if (rc < 0)
				break;
		}
		if (rc < 0) {
			digest_release(&d);
			break;
		}
		digest_final(&d, sha, err);
		if (!e.is_dir && memcmp(sha, m->sha256, DIGEST_BYTES) != 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s' changed while it "
					   "was being extracted", path, e.name);
			break;
		}
		if (archive_write_finish_entry(disk) != ARCHIVE_OK) {
			rc = plumb_err_set(err, PLUMB_EIO, "%s: %s", e.name,
					   archive_error_string(disk));
			break;
		}
	}
	if (rc == 0)
		rc = bundle_reader_finish(&r, err);
	if (rc == 0 && idx != info->n_members)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: changed while it was being extracted",
				   path);
	if (rc == 0 && archive_write_close(disk) != ARCHIVE_OK)
		rc = plumb_err_set(err, PLUMB_EIO, "%s: %s", tmp, archive_error_string(disk));
out:
	if (disk)
		archive_write_free(disk);
	if (ae)
		archive_entry_free(ae);
	bundle_reader_close(&r);
	return rc;
}

/* Step 3: move every member from tmp into dir. */
static int move_members(int dirfd, const char *dir, const char *tmp,
			const struct bundle_info *info, struct plumb_err *err)
{
	int tmpfd = openat(dirfd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (tmpfd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, tmp, "open folder");
	for (size_t i = 0; i < info->n_members; i++) {
		const struct bundle_member *m = &info->members[i];
		const char *leaf;
		int fd = open_parent(dirfd, dir, m->name, 1, &leaf, err);

		if (fd < 0) {
			close(tmpfd);
			return fd;
		}
		if (m->is_dir) {
			if (mkdirat(fd, leaf, 0755) < 0 && errno != EEXIST) {
				int e = errno;
				close(fd);
				close(tmpfd);
				return plumb_err_errno(err, PLUMB_EIO, e, m->name, "create folder");
			}
		} else if (renameat(tmpfd, m->name, fd, leaf) < 0) {
			int e = errno;
			close(fd);
			close(tmpfd);
			return plumb_err_errno(err, PLUMB_EIO, e, m->name, "move into place");
		}
		close(fd);
	}
	close(tmpfd);
	return fsync_parent(dir, err);
}

int bundle_extract(const char *path, const char *dir, int force,
		   const struct bundle_read_opts *opts, struct bundle_info *info,
		   struct plumb_err *err)
{
	char tmp[sizeof(TMP_PREFIX) + 6];
	char *tmp_path = NULL;
	struct stat st;
	int created = 0, fd, dirfd = -1, cwd = -1, rc;

	if (stat(dir, &st) == 0) {
		int empty;
		if (!S_ISDIR(st.st_mode))
			return plumb_err_set(err, PLUMB_EARG, "%s: exists and is not a folder", dir);
		empty = dir_is_empty(dir);
		if (empty < 0)
			return plumb_err_errno(err, PLUMB_EIO, errno, dir, "read folder");
		if (!empty && !force)
			return plumb_err_set(err, PLUMB_EARG, "%s: not empty (--force extracts "
					     "into it anyway, replacing files of the same names)", dir);
	} else if (errno != ENOENT) {
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, NULL);
	}
	fd = file_open_regular(path, 0, NULL, err);
	if (fd < 0)
		return fd;
	/* Step 1. */
	rc = bundle_verify_fd(fd, path, opts, info, err);
	if (rc < 0)
		goto out;
	if (stat(dir, &st) < 0) {
		rc = mkdir_p(dir, err);
		if (rc < 0)
			goto out;
		created = 1;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		rc = plumb_err_errno(err, PLUMB_EIO, errno, dir, "open folder");
		goto out;
	}
	rc = check_clashes(dirfd, dir, info, err);
	if (rc < 0)
		goto out;
	tmp_path = malloc(strlen(dir) + sizeof(tmp) + 2);
	if (!tmp_path) {
		rc = plumb_err_oom(err, dir);
		goto out;
	}
	snprintf(tmp_path, strlen(dir) + sizeof(tmp) + 2, "%s/%sXXXXXX", dir, TMP_PREFIX);
	if (!mkdtemp(tmp_path)) {
		rc = plumb_err_errno(err, PLUMB_EIO, errno, dir, "create a temporary folder");
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s", strrchr(tmp_path, '/') + 1);
	/* Step 2, relative to dir. */
	cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cwd < 0 || fchdir(dirfd) < 0) {
		rc = plumb_err_errno(err, PLUMB_EIO, errno, dir, "enter folder");
		rm_tree(dirfd, tmp);
		goto out;
	}
	rc = write_members(fd, path, tmp, info, err);
	if (fchdir(cwd) < 0 && rc == 0)
		rc = plumb_err_errno(err, PLUMB_EINTERNAL, errno, "working folder", "return to");
	/* Step 3. */
	if (rc == 0)
		rc = move_members(dirfd, dir, tmp, info, err);
	rm_tree(dirfd, tmp);
out:
	if (rc < 0 && created && dirfd >= 0 && dir_is_empty(dir) == 1)
		rmdir(dir);
	if (cwd >= 0)
		close(cwd);
	if (dirfd >= 0)
		close(dirfd);
	free(tmp_path);
	close(fd);
	if (rc < 0)
		bundle_info_release(info);
	return rc;
}
