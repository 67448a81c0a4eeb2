/*
 * runner/buildcache.h: the build cache, built variants kept across runs
 * under the key of everything that decides their bytes (issue 20).
 *
 * The cache is a folder ($XDG_CACHE_HOME/plumb/builds, else
 * ~/.cache/plumb/builds) of entries, one folder per key (64 hex digits):
 *
 *   <key>/tree/     the variant's folder, or only its artifact
 *   <key>/manifest  every file and folder of tree/: path, mode, and for a
 *                   file its size and SHA-256 (runner/buildcache-tree.c)
 *   <key>/log       the build log of the build that made it
 *   <key>/entry     what the entry is, the folder it was built in, the
 *                   manifest's SHA-256 and the key material (text, written
 *                   last: see below)
 *
 * An entry is made in a folder "tmp-<pid>-<n>" beside the others and
 * renamed to its key once complete, so a run killed while storing leaves
 * no entry that could be restored (the tmp- folders of dead processes are
 * removed by the next prune).  An entry holds regular files and folders
 * only, none writable by group or world: a tree with a symbolic link or a
 * special file is not stored.
 *
 * What the cache proves before it restores: the folder is this user's and
 * not group- or world-writable (else it is not used at all, as ssh's
 * StrictModes refuses a ~/.ssh others may write); the entry and all it
 * holds are too, and it holds nothing but its four parts; its name is the
 * SHA-256 of the key material its entry file records; its manifest is
 * the one the entry records; tree/ holds exactly what the manifest lists;
 * and once copied out, every restored file has the size, mode and SHA-256
 * the manifest lists.  An entry that fails (tampered with, damaged, half
 * gone, or removed by a prune meanwhile) is refused, said in the note
 * with its path and the first thing that failed, and evicted.  Using an
 * entry touches <key>/entry: the least recently used entries go first
 * when the cache is pruned to its size.  A restored variant that fails a
 * later check of the run is evicted by the caller (buildcache_evict()).
 *
 * What the key is made of is the caller's (runner/build.c): the cache only
 * stores the text it is given ("material") and lists it.  The key names no
 * folder, but an entry is restored only into a build folder of the same
 * path as the one it was built in (a build embeds its folder in debug
 * information and __FILE__): one built in another work folder is a miss
 * there, and the build made instead takes its place.
 *
 * Ownership: struct buildcache is caller-owned storage, buildcache_open()
 * fills it and buildcache_close() frees it; buildcache_list() returns a
 * heap array that buildcache_list_free() frees.
 */
#ifndef PLUMB_RUNNER_BUILDCACHE_H
#define PLUMB_RUNNER_BUILDCACHE_H

#include <stddef.h>
#include <stdint.h>

struct plumb_err;

#define BUILDCACHE_SIZE_DEFAULT ((uint64_t)4 << 30)   /* build.cacheSize: 4G */

struct buildcache {
	char *dir;
	uint64_t limit;    /* bytes; 0: no limit */
	uint64_t total;    /* the entries' bytes at the last prune, plus those stored since */
	int counted;       /* total is known: a prune ran on this handle */
};

/* What an entry holds (the caller fills it to store; restore returns it). */
struct buildcache_meta {
	char key[65];
	char what[128];       /* "base pad 0 (b00) of tree 1a2b3c4d5e6f" */
	char sha256[65];      /* the artifact's digest (runner/build-verify.c's) */
	uint64_t size;        /* the artifact's bytes */
	uint64_t bytes;       /* the entry's bytes (tree and log) */
	uint64_t build_ns;    /* how long the build took */
	int64_t created;      /* unix time */
	int64_t used;         /* last restored (unix time) */
	int whole;            /* tree/ is the whole variant folder, else only the artifact */
	char manifest[65];    /* the SHA-256 of its manifest file (set by store and restore) */
	const char *material; /* store: the key's text; NULL in listings */
	const char *folder;   /* store: the folder it was built in; NULL in listings */
};

/* Open (make) dir, or the default folder when dir is NULL: PLUMB_EINPUT,
 * naming it, when it is not this user's or others may write it. */
int buildcache_open(struct buildcache *bc, const char *dir, uint64_t limit,
		    struct plumb_err *err);
void buildcache_close(struct buildcache *bc);

/* The SHA-256 (hex) of material: the key. */
void buildcache_key(const char *material, char key[65]);

/*
 * Restore entry key: its tree into dest (whole: dest is made; else the
 * artifact, at rel, is copied into the existing folder dest), its log to
 * log after a line saying where it came from ("from" names it; NULL: the
 * build cache), after the checks above; the artifact dest/rel must also
 * have the digest recorded.  1 restored (meta filled), 0 a miss (note
 * says why when the entry was there but refused, naming its folder:
 * "build cache entry DIR/KEY: tree/Makefile: its SHA-256 is not ..."; it
 * is evicted), 2 a miss because the entry was built in another folder
 * than folder (note says which; it stays until a store replaces it),
 * negative only when plumb is asked to stop.  On a miss dest is as it
 * was, or removed when it was made.
 */
int buildcache_restore(struct buildcache *bc, const char *key, const char *dest,
		       const char *rel, int whole, const char *folder, const char *log,
		       const char *from, struct buildcache_meta *meta,
		       char *note, size_t note_size, struct plumb_err *err);

/*
 * Store src (whole: the folder; else only the artifact src/rel) and log
 * under meta->key, then prune to the limit: the first store on a handle
 * reads every entry, later ones add their bytes to what it counted and
 * read them again only when that passes the limit (what other processes
 * store meanwhile is seen at their prune or the next full one: a handle
 * copied into build workers is pruned in full once they are done, see
 * runner/build.c).  An entry stored meanwhile by another run wins, unless
 * it was built in another folder than meta->folder: then it is replaced.
 */
int buildcache_store(struct buildcache *bc, const char *src, const char *rel, int whole,
		     const char *log, struct buildcache_meta *meta, struct plumb_err *err);

/* Remove entry key at once (a restored variant failed a later check). */
int buildcache_evict(struct buildcache *bc, const char *key, struct plumb_err *err);

/* Every complete entry, most recently used first. */
int buildcache_list(struct buildcache *bc, struct buildcache_meta **out, size_t *n,
		    struct plumb_err *err);
void buildcache_list_free(struct buildcache_meta *list);

/* Remove least recently used entries until the rest fit in limit bytes
 * (0: remove all), and leftovers of killed runs. */
int buildcache_prune(struct buildcache *bc, uint64_t limit, size_t *removed,
		     uint64_t *freed, struct plumb_err *err);

#endif
