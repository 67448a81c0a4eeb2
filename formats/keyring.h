/*
 * formats/keyring.h: the public keys a bundle's signature is checked
 * against, found once for every command that trusts a signature (`plumb
 * audit`, `plumb run --from`, `plumb audit --remeasure`): the keys named
 * with -p KEY.pub, else every *.pub of the trusted-keys folder,
 * $XDG_CONFIG_HOME/plumb/trusted (else ~/.config/plumb/trusted; a
 * relative XDG_CONFIG_HOME is ignored, as the XDG base directory spec
 * says).  A missing folder holds no key; a key file that does not load is
 * PLUMB_EINPUT naming it.
 *
 * Ownership: struct keyring is caller-owned storage; keyring_init() sets
 * it up empty, keyring_load() fills it, keyring_release() frees what it
 * holds (and leaves it empty).
 */
#ifndef PLUMB_FORMATS_KEYRING_H
#define PLUMB_FORMATS_KEYRING_H

#include <stddef.h>

#include "formats/sign.h"

struct plumb_err;

struct keyring {
	char **paths;                  /* the key files, in order: as given, or the folder's sorted */
	struct sign_public_key *keys;  /* keys[i] read from paths[i] */
	size_t n;
	int from_folder;               /* the keys are the trusted-keys folder's */
	char *folder;                  /* the folder looked at; NULL when keys were given or
	                                  neither XDG_CONFIG_HOME nor HOME names one */
};

void keyring_init(struct keyring *k);

/*
 * Load the n key files of paths, or with n == 0 the *.pub of folder (NULL:
 * the trusted-keys folder above).  k must be empty (keyring_init()).
 */
int keyring_load(struct keyring *k, const char *const *paths, size_t n, const char *folder,
		 struct plumb_err *err);

void keyring_release(struct keyring *k);

#endif
