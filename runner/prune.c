/*
 * runner/prune.c: removing kept run folders by age; see prune.h.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/buf.h"
#include "common/err.h"
#include "runner/prune.h"
#include "runner/workdir.h"
#include "common/banned.h"

int prune_age_parse(const char *where, const char *s, long *out, struct plumb_err *err)
{
	unsigned long long n = 0;
	const char *p = s;
	long unit = 86400;

	if (!s || !*s)
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (unsigned long long)(*p - '0');
		if (n > 100000ull * 86400)
			goto bad;
	}
	if (p == s)
		goto bad;
	switch (*p) {
	case '\0': break;
	case 'd': unit = 86400; p++; break;
	case 'h': unit = 3600; p++; break;
	case 'm': unit = 60; p++; break;
	case 's': unit = 1; p++; break;
	default: goto bad;
	}
	if (*p || n == 0 || n * (unsigned long long)unit > 100000ull * 86400)
		goto bad;
	*out = (long)(n * (unsigned long long)unit);
	return 0;
bad:
	return plumb_err_set(err, PLUMB_EARG, "%s: '%s' is not an age (like 14d, 36h or 90m)",
			     where, s ? s : "");
}

long prune_folder_pid(const char *name)
{
	const char *dash = strrchr(name, '-');
	char *end;
	long pid;

	if (!dash)
		return 0;
	pid = strtol(dash + 1, &end, 10);
	return *end || pid <= 0 ? 0 : pid;
}

int prune_runs(const char *workdir, time_t now, long age, size_t *removed, uint64_t *bytes,
	       struct plumb_err *err)
{
	struct dirent *de;
	DIR *d;
	int r = 0;

	*removed = 0;
	*bytes = 0;
	d = opendir(workdir);
	if (!d)
		return errno == ENOENT ? 0 : plumb_err_errno(err, PLUMB_EIO, errno, workdir, "open");
	while ((de = readdir(d)) && r == 0) {
		struct stat st;
		uint64_t size = 0;
		long pid = prune_folder_pid(de->d_name);
		char *kept;
		if (strncmp(de->d_name, "run-", 4) != 0)
			continue;
		/* A live run's folder is its own, kept or not. */
		if (pid && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue;
		kept = buf_strdupf("%s/%s/kept", workdir, de->d_name);
		if (!kept) {
			r = plumb_err_oom(err, "run folder");
			break;
		}
		if (lstat(kept, &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime < now - age) {
			kept[strlen(kept) - strlen("/kept")] = '\0';
			if (workdir_tree_size(kept, &size, err) < 0)
				size = 0;
			plumb_err_clear(err);
			if ((r = workdir_remove_tree(kept, err)) == 0) {
				(*removed)++;
				*bytes += size;
			}
		}
		free(kept);
	}
	closedir(d);
	return r;
}
