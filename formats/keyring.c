/*
 * formats/keyring.c: the trusted public keys; see keyring.h.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/path.h"
#include "formats/keyring.h"
#include "formats/sign.h"
#include "common/banned.h"

void keyring_init(struct keyring *k)
{
	memset(k, 0, sizeof(*k));
}

void keyring_release(struct keyring *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->paths[i]);
	free(k->paths);
	free(k->keys);
	free(k->folder);
	keyring_init(k);
}

static int add_path(struct keyring *k, const char *path, struct plumb_err *err)
{
	char **v = realloc(k->paths, (k->n + 1) * sizeof(*v));

	if (!v)
		return plumb_err_oom(err, "trusted keys");
	k->paths = v;
	if (!(v[k->n] = strdup(path)))
		return plumb_err_oom(err, "trusted keys");
	k->n++;
	return 0;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The trusted-keys folder: $XDG_CONFIG_HOME/plumb/trusted, else ~/.config/... */
static char *trusted_folder(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	/* The XDG base directory spec ignores a relative XDG_CONFIG_HOME. */
	if (xdg && xdg[0] == '/')
		return buf_strdupf("%s/plumb/trusted", xdg);
	if (home && home[0] == '/')
		return buf_strdupf("%s/.config/plumb/trusted", home);
	return NULL;
}

/* Every *.pub of the folder, sorted; a missing folder holds none. */
static int folder_keys(struct keyring *k, struct plumb_err *err)
{
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (!(d = opendir(k->folder)))
		return errno == ENOENT ? 0 : plumb_err_errno(err, PLUMB_EINPUT, errno, k->folder,
							     "open folder");
	while (rc == 0 && (de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		char *p;
		if (n < 5 || strcmp(de->d_name + n - 4, ".pub") != 0 || de->d_name[0] == '.')
			continue;
		if (!(p = path_join(k->folder, de->d_name)))
			rc = plumb_err_oom(err, "trusted keys");
		else
			rc = add_path(k, p, err);
		free(p);
	}
	closedir(d);
	if (k->n)
		qsort(k->paths, k->n, sizeof(*k->paths), cmp_str);
	k->from_folder = k->n > 0;
	return rc;
}

int keyring_load(struct keyring *k, const char *const *paths, size_t n, const char *folder,
		 struct plumb_err *err)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = add_path(k, paths[i], err);
	if (rc == 0 && n == 0) {
		k->folder = folder ? strdup(folder) : trusted_folder();
		if (folder && !k->folder)
			return plumb_err_oom(err, "trusted keys");
		if (k->folder)
			rc = folder_keys(k, err);
	}
	if (rc < 0 || k->n == 0)
		return rc;
	if (!(k->keys = calloc(k->n, sizeof(*k->keys))))
		return plumb_err_oom(err, "trusted keys");
	for (size_t i = 0; i < k->n; i++)
		if ((rc = sign_public_key_load(&k->keys[i], k->paths[i], err)) < 0)
			return rc;
	return 0;
}
