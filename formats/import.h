/*
 * formats/import.h: results of other benchmark tools made into bundles
 * (`plumb import`, docs/import.md).
 *
 * Three sources are read, each recognised by its content, never by its
 * file name (a gzip stream is unpacked first):
 *
 *   hyperfine         `--export-json`: {"results": [{"command", "times", ...}]}
 *   pyperf            suite or single-benchmark JSON, plain or .json.gz:
 *                     {"version": "1.0", "benchmarks": [{"runs": [...]}]}
 *   Google Benchmark  `--benchmark_out` JSON: {"context": {...},
 *                     "benchmarks": [{"name", "run_type", "real_time", ...}]}
 *
 * import_load() parses one file into a struct import_file: its entries
 * (a hyperfine command, a pyperf benchmark, a Google Benchmark benchmark)
 * with their samples converted to plumb's units (ns for times), the
 * source's own version and host facts when it records them, and
 * warnings.  import_bundle() pairs entries into base and candidate sides
 * and writes a bundle whose every benchmark has one pad per side.
 *
 * Every file is untrusted: at most IMPORT_MAX_BYTES bytes (also after
 * gunzip), holding at most IMPORT_MAX_JSON JSON values nested at most
 * IMPORT_MAX_DEPTH deep, strings of at most IMPORT_MAX_STRING bytes, at
 * most IMPORT_MAX_ENTRIES entries and IMPORT_MAX_VALUES sample values.
 * The file is read in chunks (formats/jsonpull.h), twice: the sample
 * arrays go straight into the entries' series, and the rest is held as
 * JSON trees of at most IMPORT_MAX_HELD bytes at a time (as jsonpull.h
 * estimates them: the top level, and one hyperfine result, pyperf
 * benchmark or Google Benchmark repetition), so that an import keeps
 * within the memory bundle-v1.md promises for any input; every
 * error is PLUMB_EINPUT naming the file and the JSON path (and, for JSON
 * syntax, the line and column).  Names and command lines are kept as the
 * source wrote them; only the bundle's benchmark names are made to fit
 * samples.tsv (control characters written as \xHH escapes).
 *
 * Ownership: struct import_file is caller-owned storage; import_load()
 * fills it and import_file_release() frees everything it points to.
 * struct import_opts and its strings are borrowed for the call.
 */
#ifndef PLUMB_FORMATS_IMPORT_H
#define PLUMB_FORMATS_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/metric.h"
#include "formats/bundle.h"

struct plumb_err;
struct sign_secret_key;

#define IMPORT_MAX_BYTES   ((size_t)64 << 20)   /* one file, before and after gunzip */
#define IMPORT_MAX_DEPTH   32                   /* JSON nesting, top level = 1 */
#define IMPORT_MAX_FILES   64                   /* files of one import */
#define IMPORT_MAX_ENTRIES 4096                 /* entries of one file */
#define IMPORT_MAX_JSON    ((size_t)2000000)    /* JSON values of one file */
#define IMPORT_MAX_STRING  ((size_t)1 << 20)    /* bytes of one string (decoded) */
#define IMPORT_MAX_HELD    ((size_t)16 << 20)   /* JSON held outside the sample arrays */
#define IMPORT_MAX_VALUES  ((size_t)1000000)    /* sample values of one file */
#define IMPORT_MAX_METRICS 2                    /* series per entry (wall, cpu) */
#define IMPORT_MESSAGE_MAX 200                  /* bytes kept of a Google Benchmark message */

enum import_tool {
	IMPORT_HYPERFINE,
	IMPORT_PYPERF,
	IMPORT_GBENCH
};

/* One metric of an entry: value k belongs to round round[k] (from 1). */
struct import_series {
	enum metric_id metric;
	double *value;        /* ns for times */
	uint32_t *round;
	size_t n;
	uint32_t rounds;      /* the largest round */
};

struct import_entry {
	char *name;           /* as the source names it */
	char *command;        /* hyperfine: the command line; else NULL */
	int samples;          /* 1: several values per round (pyperf: a run's values) */
	struct import_series series[IMPORT_MAX_METRICS];
	size_t n_series;
	char **notes;         /* remarks that become benches[].notes */
	size_t n_notes;
};

/* A Google Benchmark benchmark with no repetition left, and why: "every
 * repetition had error_occurred (error_message: ...)", "every repetition
 * was skipped (skip_message: ...)" or "aggregates only (...)". */
struct import_left {
	char *name;
	char *why;
};

struct import_file {
	char *path;
	enum import_tool tool;
	char *tool_version;   /* the source's version, or NULL (unknown) */
	json_t *facts;        /* host facts the source recorded (its own keys), or NULL */
	json_t *hostfacts;    /* the same in host.start's shape, or NULL */
	struct import_entry *entries;
	size_t n_entries;
	char **warnings;      /* said on stderr and kept in the bundle (source.warnings) */
	size_t n_warnings;
	struct import_left *left;   /* Google Benchmark: benchmarks left out (also warned) */
	size_t n_left;
	char sha256[DIGEST_HEX];
	int gzip;             /* the file was a gzip stream */
};

/* The source's name as tool.name records it: "hyperfine", "pyperf", "google-benchmark". */
const char *import_tool_name(enum import_tool t);

/* Read and parse path; f is initialized here. */
int import_load(const char *path, struct import_file *f, struct plumb_err *err);

/* Parse an in-memory document (the unit tests); name is used in messages.
 * f is filled as far as it got: release it whatever the result. */
int import_parse(const char *name, const char *data, size_t len,
		 struct import_file *f, struct plumb_err *err);

/*
 * One run's output of a Google Benchmark binary (--benchmark_format=json:
 * `plumb run`, bench.NAME.mode = gbench) read by the reader import_load()
 * uses: the same entries, units and limits, a benchmark with no
 * repetition left in f->left.  No entry at all is not an error here (the
 * runner names the benchmark it missed); text that is not Google
 * Benchmark JSON is PLUMB_EINPUT naming name.  Release f in every case.
 */
int import_parse_gbench(const char *name, const char *data, size_t len,
			struct import_file *f, struct plumb_err *err);

void import_file_release(struct import_file *f);

/*
 * The length of a Google Benchmark name's family: the name without the
 * arguments its registration added at the end (/8, /-3, /n:8,
 * /threads:2, /repeats:3, /real_time, /process_time, /manual_time), so
 * BM_Copy/8 and BM_Copy/64 are of BM_Copy, Fixture/Test/2 of Fixture/Test,
 * BM_T<int> of itself.
 */
size_t import_gbench_family_len(const char *name);

struct import_opts {
	const char *base;        /* --base NAME: the entry that is the base side, or NULL */
	const char *candidate;   /* --candidate NAME */
	const char *metric;      /* --metric wall|cpu, or NULL (wall) */
	const char *const *labels;  /* --label KEY=VALUE, as `plumb run` takes them */
	size_t n_labels;
	const struct sign_secret_key *sign_key;
	const char *created;     /* RFC 3339 time the bundle says it was made; NULL: now */
};

/* What import_bundle() made. */
struct import_result {
	char id[BUNDLE_ID_HEX];
	size_t n_benches;
	char **skipped;          /* entries left out, with why (caller frees with the result) */
	size_t n_skipped;
};

void import_result_release(struct import_result *r);

/*
 * Pair the entries of files (n >= 1) into base and candidate, judge each
 * pair with one pad a side and write the bundle out.  With opts->base and
 * opts->candidate the two entries of those names (searched in every file)
 * are one benchmark; else two files are base and candidate and their
 * entries pair by name.  Anything else is PLUMB_EARG.  Once their rows
 * are written, the series' values and rounds are released (their counts
 * stay), so that they are not held beside the analysis.
 */
int import_bundle(struct import_file *files, size_t n, const char *out,
		  const struct import_opts *opts, struct import_result *res,
		  struct plumb_err *err);

#endif
