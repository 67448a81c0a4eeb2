/*
 * formats/manifest.h: the C model of a bundle's manifest.json (DESIGN §7),
 * shared by the runner (which fills and writes it) and the reports, the
 * archive and `plumb bundle` (which read it).
 *
 * formats/manifest-fields.md is the field table (JSON path, type, unit,
 * required or optional, meaning); formats/bundle-v1.md carries it into the
 * normative specification.  The comments on the structs below name the
 * JSON member of every field.
 *
 * Reading (manifest_parse) treats the text as hostile: at most
 * MANIFEST_MAX_BYTES bytes, containers nested at most MANIFEST_MAX_DEPTH
 * deep, no duplicate keys, and every error is PLUMB_EINPUT with a message
 * that starts with the JSON path: "benches[2].sides.base.pads[1]: expected
 * number", "repo.base.commit: missing required field", "version: major
 * version 2 is not supported".  Members the model does not know are
 * ignored (a minor version only adds optional members) and are not kept:
 * writing a parsed manifest drops them.  An unknown major version is
 * rejected before any other member is looked at.
 *
 * Writing (manifest_write) first checks the same rules as reading
 * (manifest_validate), so a written manifest always reads back.  The output
 * is deterministic: members in the fixed order of the field table, opaque
 * objects (spec, host facts) with their keys sorted, integers as integers,
 * reals in the shortest form that reads back to the same double, two-space
 * indentation, a final newline.  Parsing a written manifest and writing it
 * again gives the same bytes.
 *
 * Absent optional fields: strings are NULL, json_t pointers NULL, doubles
 * NAN (test with isnan()), integers -1 (every integer field is >= 0 when
 * present), booleans MANIFEST_UNKNOWN (-1), and optional groups have
 * present == 0.  manifest_init() and the manifest_add_*() functions set
 * these defaults, so a builder only fills what it knows.
 *
 * Ownership: struct manifest is caller-owned storage; manifest_init() or a
 * successful manifest_parse() sets it up and manifest_release() frees
 * everything it points to.  Every string and array it points to is owned by
 * the manifest and allocated with malloc (a builder stores strdup()ed
 * strings, or uses manifest_set_str()); each json_t member holds one
 * reference owned by the manifest.  Pointers returned by manifest_add_*()
 * and manifest_find_*() are valid until the next manifest_add_*() on the
 * same array or manifest_release().
 */
#ifndef PLUMB_FORMATS_MANIFEST_H
#define PLUMB_FORMATS_MANIFEST_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "common/metric.h"
#include "common/units.h"
#include "common/verdict.h"

struct buf;
struct plumb_err;

#define MANIFEST_FORMAT "plumb-bundle"
#define MANIFEST_VERSION_MAJOR 1
#define MANIFEST_VERSION_MINOR 5   /* 1.5: the shift rule version 4 (within batches) */
#define MANIFEST_VERSION_MINOR_GBENCH 4  /* 1.4: mode gbench, benches[].gbench */
#define MANIFEST_VERSION_MINOR_SHIFT 3   /* 1.3: the shift rule, unchanged, benches[].shift */
#define MANIFEST_VERSION_MINOR_SOURCE 2  /* 1.2: source, an imported bundle */
#define MANIFEST_MAX_BYTES ((size_t)16 << 20)  /* manifest.json read limit */
#define MANIFEST_MAX_DEPTH 32                  /* nesting limit, top level = 1 */
#define MANIFEST_TIME_MAX 40                   /* RFC 3339 text, NUL included */
#define MANIFEST_LABEL_MAX 48                  /* variant label, NUL included */

#define MANIFEST_UNKNOWN (-1)   /* an absent boolean; 0 false, 1 true */

enum manifest_side {
	MANIFEST_SIDE_BASE,
	MANIFEST_SIDE_CANDIDATE,
	MANIFEST_SIDE_CONTROL      /* base pad 0 built and measured again */
};

enum manifest_method {          /* build.method, DESIGN §5.2 */
	MANIFEST_METHOD_LINK,
	MANIFEST_METHOD_ENV,
	MANIFEST_METHOD_NONE
};

enum manifest_mode {            /* benches[].mode */
	MANIFEST_MODE_PROCESS,
	MANIFEST_MODE_SAMPLES,
	MANIFEST_MODE_GBENCH       /* one Google Benchmark benchmark of a binary (1.4) */
};

enum manifest_direction {       /* benches[].direction, only for unswept and noisy */
	MANIFEST_DIRECTION_UNSET,
	MANIFEST_DIRECTION_SLOWER,
	MANIFEST_DIRECTION_FASTER
};

/* tool: what wrote the bundle. */
struct manifest_tool {
	char *name;        /* tool.name, required ("plumb") */
	char *version;     /* tool.version, required ("0.1.0") */
};

/* repo.base and repo.candidate: one checked-out side. */
struct manifest_commit {
	char *ref;         /* .ref, required: as written ("v1.2.0", "HEAD~3") */
	char *commit;      /* .commit, required: full object id, lower-case hex (40 or 64) */
	char *tree;        /* .tree, optional: tree id, lower-case hex (40 or 64) */
	char *subject;     /* .subject, optional: first line of the message */
	char *author;      /* .author, optional: "Name <email>" */
	char *time;        /* .time, optional: commit time, RFC 3339 UTC */
	int dirty;         /* .dirty, optional boolean: built from a dirty working copy */
};

struct manifest_repo {
	char *url;                        /* repo.url, optional: path or URL of the repository */
	struct manifest_commit base;      /* repo.base, required */
	struct manifest_commit candidate; /* repo.candidate, required */
};

/* build.variants[].hot[]: one hot symbol in one built artifact. */
struct manifest_hot_symbol {
	char *name;        /* .name, required: symbol name */
	int64_t address;   /* .address, required: st_value, bytes */
	int64_t size;      /* .size, required: st_size, bytes */
	char *sha256;      /* .sha256, optional: SHA-256 of the symbol's bytes, hex */
};

/* build.variants[]: one built program (a side at a pad). */
struct manifest_variant {
	enum manifest_side side;      /* .side, required: base | candidate | control */
	int64_t pad;                  /* .pad, required: pad index K (shift K * padBytes) */
	char *artifact_path;          /* .artifact.path: kept artifact, relative path */
	int64_t artifact_size;        /* .artifact.size: bytes */
	char *artifact_sha256;        /* .artifact.sha256: hex; .artifact is optional,
	                                 all three present together or none */
	int64_t build_ns;             /* .buildNs, optional: build wall time, ns */
	int64_t pad_offset;           /* .padOffset, optional: bytes of its pad (absent: pad x padBytes) */
	int cached;                   /* .cached, optional: restored from the build cache
	                                 (written only when true) */
	char *reused_bisect;          /* .reused.bisect, optional (the control only): the
	                                 bisect whose earlier comparison built it */
	int64_t reused_comparison;    /* .reused.comparison: that comparison (>= 1); 0 absent */
	struct manifest_hot_symbol *hot;  /* .hot, optional: verified hot symbols */
	size_t n_hot;
};

struct manifest_build {
	enum manifest_method method;      /* build.method, required: link | env | none */
	int64_t pad_bytes;                /* build.padBytes, required: bytes per pad step */
	char *command;                    /* build.command, optional: as run */
	char *pad_offsets;                /* build.padOffsets, optional: "linear" | "spread" */
	struct manifest_variant *variants;/* build.variants, required (may be empty) */
	size_t n_variants;
};

/* host: facts read at start and end (DESIGN §8); keys defined by runner/host*. */
struct manifest_host {
	json_t *start;       /* host.start, required: object */
	json_t *end;         /* host.end, optional: object */
	char *fingerprint;   /* host.fingerprint, optional: comparability fingerprint */
};

/* run.order[r]: the variants of round r in the order they ran. */
struct manifest_round {
	size_t *variants;    /* indexes into build.variants (labels in JSON) */
	size_t n;
};

/* run.conditions[r]: what the machine was doing when round r started. */
struct manifest_condition {
	int64_t at_ns;       /* .atNs, required: ns since the first benchmark run */
	double load[3];      /* .load, optional: 1, 5 and 15-minute load averages (NAN: absent) */
	int64_t cur_khz_min; /* .curKhzMin, optional: lowest current CPU frequency, kHz */
	int64_t cur_khz_max; /* .curKhzMax, optional: highest current CPU frequency, kHz */
};

/* run.labels: --label K=V pairs, written sorted by key. */
struct manifest_label {
	char *key;
	char *value;
};

struct manifest_run {
	int64_t seed;                   /* run.seed, required: round order shuffle seed */
	int64_t rounds;                 /* run.rounds, required: timed rounds per variant */
	char *start;                    /* run.start, optional: RFC 3339 UTC */
	char *end;                      /* run.end, optional: RFC 3339 UTC */
	struct manifest_round *order;   /* run.order, optional: one entry per round */
	size_t n_order;                 /* 0 when run.order is absent */
	int64_t warmup_runs;            /* run.warmup.runs: untimed runs per variant */
	char *warmup_policy;            /* run.warmup.policy: "auto" | "none" | "<N>";
	                                   run.warmup is optional, both or none */
	int counters_available;         /* run.counters.available, optional boolean */
	char *counters_reason;          /* run.counters.reason, optional */
	char *containment_method;       /* run.containment.method: "cgroup2" |
	                                   "subreaper"; run.containment optional */
	char *containment_reason;       /* run.containment.reason, optional */
	char *project;                  /* run.project, optional: the project's identity
	                                   (run.project, else the repository's remote URL
	                                   or first commit id); the archive keeps series
	                                   apart by it */
	struct manifest_label *labels;  /* run.labels, optional object of strings */
	size_t n_labels;
	struct manifest_condition *conditions;  /* run.conditions, optional: one per round */
	size_t n_conditions;            /* 0 when run.conditions is absent */
	json_t *sweep;                  /* run.sweep, optional object: the adaptive sweep
	                                   (run.pads = auto), checked by formats/manifest-sweep.h */
	json_t *valgrind;               /* run.valgrind, optional object (formats/manifest-valgrind.h) */
};

/* benches[].sides.<side>.counters: hardware counters, centers over pads. */
struct manifest_counters {
	int present;
	/* By counter k of common/metric.h, each optional (NAN: absent), a
	 * count, in the member the metric's row names (.cycles,
	 * .instructions, .branchMisses). */
	double value[METRIC_NCOUNTERS];
};

/* benches[].sides.base / .candidate / .control: one side's reduction. */
struct manifest_side_stats {
	int present;            /* 0: the side is absent */
	double *pads;           /* .pads, required: pad medians, index = pad, >= 1 */
	size_t n_pads;
	double center;          /* .center, required: median of pads */
	double min;             /* .min, required: smallest pad median */
	double max;             /* .max, required: largest pad median */
	double spread;          /* .spread, optional: (max - min) / center */
	int64_t rounds;         /* .rounds, optional: fewest valid rounds of any pad */
	double p99;             /* .p99, optional: samples mode, center of pad p99s */
	double co_p99;          /* .coP99, optional: same, coordinated-omission corrected */
	double range_lo;        /* .rangeLo, optional: the rule's range (margin: union of */
	double range_hi;        /* .rangeHi, optional:  the pad medians' intervals) */
	struct manifest_counters counters;   /* .counters, optional */
};

/* benches[].rule: the verdict rule that judged the benchmark (stats/rule.h).
 * Absent: the seeds' overlap rule, version 1. */
struct manifest_rule {
	int present;
	char *name;             /* .name, required: "overlap" | "margin" */
	int64_t version;        /* .version, required: 1 (overlap), 2 (margin) */
	double confidence;      /* .confidence, required: pad and ratio intervals */
	double noise_factor;    /* .noiseFactor, required but for shift: the gap must exceed
	                           this x noise */
	int64_t resamples;      /* .resamples, required but for shift: bootstrap replicates */
	int64_t seed;           /* .seed, required but for shift: bootstrap seed */
	double min_effect;      /* .minEffect, required for shift only (NAN absent) */
};

/* benches[].shift: the shift rule's comparison of the pad medians (stats/shift.h). */
struct manifest_shift {
	int present;
	double estimate;        /* .estimate, required: Hodges-Lehmann shift, relative */
	double lo, hi;          /* .lo, .hi, required: its interval */
	double level;           /* .level, required: the interval's exact coverage */
	double p;               /* .p, required: exact two-sided Mann-Whitney p */
	double p_min;           /* .pMin, required: the smallest p these pads allow */
};

/* benches[].interval: the ratio's bootstrap interval at rule.confidence. */
struct manifest_interval {
	int present;
	double lo, hi;          /* .lo, .hi, required */
};

/* benches[].noiseBasis: what the noise figure is made of (relative to the base center). */
struct manifest_noise_basis {
	int present;
	double figure;          /* .figure, required: the noise the rule used */
	double rounds;          /* .rounds, required: median half-width of the pad intervals */
	double control;         /* .control, optional: |control - base pad 0| / base center */
	double margin;          /* .margin, required: what the gap had to exceed */
	double gap;             /* .gap, optional: distance between the ranges (< 0: overlap) */
};

/* benches[].detectable: the smallest change the rule would call here. */
struct manifest_detectable {
	int present;
	double slower;          /* .slower, required: candidate / base - 1 */
	double faster;          /* .faster, required: 1 - candidate / base */
};

/* benches[].noise: the control's run-to-run noise (DESIGN §6). */
struct manifest_noise {
	int present;
	double relative;        /* .relative, required: |pad 0 - control| / center */
	int too_noisy;          /* .tooNoisy, required boolean */
};

/* benches[].hot.symbols[]: identity of one hot symbol, base vs candidate. */
struct manifest_hot_cmp {
	char *name;             /* .name, required */
	int identical;          /* .identical, required boolean */
	char *verdict;          /* .verdict, optional: "identical", "identical except
	                           addresses" or "changed" (true only for identical) */
};

/* benches[].hot: are the hot symbols' bytes the same in base and candidate? */
struct manifest_hot {
	int present;
	int identical;                    /* .identical, required boolean: all of them */
	struct manifest_hot_cmp *symbols; /* .symbols, optional */
	size_t n_symbols;
};

/* benches[].profile.<side>: software-clock samples of pad 0 during warmup. */
struct manifest_profile_sym {
	char *name;             /* .name, required: a symbol of the artifact, or "(unknown)" */
	double share;           /* .share, required: of the samples inside the artifact */
};
struct manifest_profile_side {
	int present;
	int64_t samples;        /* .samples, required: samples inside the artifact */
	struct manifest_profile_sym *symbols;  /* .symbols, required: the hot set, largest first */
	size_t n_symbols;
};
/* benches[].profile: where the time went (hot = auto). */
struct manifest_profile {
	int present;
	double coverage;        /* .coverage, required: share the hot set covers */
	struct manifest_profile_side base, candidate;   /* .base, .candidate, optional */
};

/* benches[].checksum: the benchmark's checksum= oracle (DESIGN §5.5). */
struct manifest_checksum {
	int present;
	int consistent;         /* .consistent, required boolean: all variants of each side agree */
	char *base;             /* .base, optional: base's value */
	char *candidate;        /* .candidate, optional: candidate's value */
};

/* benches[].gbench: mode gbench, which benchmark of the binary this is (1.4). */
struct manifest_gbench {
	int present;
	char *section;          /* .section, required: the [bench "NAME"] that ran the binary */
	char *name;             /* .name, required: the Google Benchmark name ("BM_x/8") */
	char *family;           /* .family, required: its family, the name before the first '/' */
};

/* benches[].steadyState: the warmup detector (samples mode, warmup auto). */
struct manifest_steady {
	int present;
	int64_t window;         /* .window, required: samples in the trailing window */
	double tolerance;       /* .tolerance, required: relative */
	int64_t unsettled;      /* .unsettled, required: series with no steady state */
	double start;           /* .start, optional: median index of the first kept sample */
};

struct manifest_bench {
	char *name;                       /* .name, required, unique */
	enum manifest_mode mode;          /* .mode, required */
	enum metric_id metric;      /* .metric, required */
	struct manifest_gbench gbench;    /* .gbench, required in mode gbench, else absent */
	char *failure;                    /* .failure, optional: why it failed (--keep-going) */
	char *failure_log;                /* .failureLog, optional: the logs/ member of the failed run */
	char *warmup;                     /* .warmup, optional: samples-mode warmup policy of
	                                     this benchmark ("auto" | "none" | "<N>"); absent:
	                                     run.warmup.policy */
	struct manifest_side_stats base;      /* .sides.base, required unless failure */
	struct manifest_side_stats candidate; /* .sides.candidate, required unless failure */
	struct manifest_side_stats control;   /* .sides.control, optional */
	double ratio;                     /* .ratio, optional: candidate center / base center */
	enum verdict verdict;    /* .verdict, required unless failure */
	enum manifest_direction direction;/* .direction, required for unswept only */
	struct manifest_noise noise;      /* .noise, optional */
	struct manifest_rule rule;        /* .rule, optional (absent: overlap v1) */
	char *reason;                     /* .reason, optional: why the verdict */
	struct manifest_interval interval;/* .interval, optional */
	struct manifest_shift shift;      /* .shift, optional (rule shift) */
	char *work;                       /* .work, optional: "same" | "different", the
	                                     proof that both sides did the same work */
	struct manifest_noise_basis noise_basis;  /* .noiseBasis, optional */
	struct manifest_detectable detectable;    /* .detectable, optional */
	struct manifest_hot hot;          /* .hot, optional */
	struct manifest_profile profile;  /* .profile, optional */
	struct manifest_checksum checksum;/* .checksum, optional */
	struct manifest_steady steady;    /* .steadyState, optional */
	char **notes;                     /* .notes, optional: lines for the reports */
	size_t n_notes;
	json_t *valgrind;                 /* .valgrind, optional object (formats/manifest-valgrind.h) */
};

struct manifest {
	int64_t version_minor;            /* minorVersion as read (written: MANIFEST_VERSION_MINOR) */
	struct manifest_tool tool;        /* tool, required */
	char *created;                    /* created, required: RFC 3339 UTC */
	json_t *spec;                     /* spec, required: effective configuration, object */
	struct manifest_repo repo;        /* repo, required */
	struct manifest_build build;      /* build, required */
	struct manifest_host host;        /* host, required */
	struct manifest_run run;          /* run, required */
	json_t *provenance;               /* provenance, optional: what a re-run needs
	                                     (environment values, commands, inputs,
	                                     toolchain, remote); object, keys of
	                                     formats/bundle-v1.md */
	json_t *range;                    /* range, optional object: a bundle of a
	                                     `run --range` job (formats/manifest-range.h) */
	json_t *source;                   /* source, optional: an imported bundle's origin
	                                     (plumb import: tool, files, sides); with it
	                                     repo.<side>.commit is optional */
	struct manifest_bench *benches;   /* benches, required (may be empty) */
	size_t n_benches;
};

/* An empty manifest with every optional field absent. */
void manifest_init(struct manifest *m);

/* Free everything m points to; m is as after manifest_init() again. */
void manifest_release(struct manifest *m);

/*
 * Parse len bytes of manifest.json into m (which need not be initialized).
 * On failure m is left initialized and empty, err names the JSON path.
 */
int manifest_parse(struct manifest *m, const char *json, size_t len,
		   struct plumb_err *err);

/*
 * Check the rules manifest_parse() enforces beyond types: required fields,
 * formats (hex ids, RFC 3339 times), ranges (min <= center <= max, min and
 * max the extremes of pads), unique benchmark names and variants, run.order
 * naming existing variants, once per round.  Errors name the JSON path.
 */
int manifest_validate(const struct manifest *m, struct plumb_err *err);

/* Validate, then append the deterministic manifest.json text to out. */
int manifest_write(const struct manifest *m, struct buf *out,
		   struct plumb_err *err);

/* Builders: append a zeroed element with every optional field absent. */
struct manifest_variant *manifest_add_variant(struct manifest *m,
					      enum manifest_side side, int64_t pad,
					      struct plumb_err *err);
struct manifest_bench *manifest_add_bench(struct manifest *m, const char *name,
					  struct plumb_err *err);

/* Append a copy of text to mb's notes (benches[].notes); -1 when memory runs out. */
int manifest_add_note(struct manifest_bench *mb, const char *text);

/* A round's conditions with every optional field absent. */
void manifest_condition_init(struct manifest_condition *c);

/* Replace *slot with a copy of s (NULL clears it); -1 when memory runs out. */
int manifest_set_str(char **slot, const char *s);

/* Lookups: NULL when absent. */
const struct manifest_bench *manifest_find_bench(const struct manifest *m,
						 const char *name);
const struct manifest_variant *manifest_find_variant(const struct manifest *m,
						     enum manifest_side side,
						     int64_t pad);

/* A variant's label as used in run.order: "<side>/<pad>" ("base/0"). */
void manifest_variant_label(const struct manifest_variant *v,
			    char out[MANIFEST_LABEL_MAX]);

/* Enum names as written in JSON ("base", "link", "samples", "placement"). */
const char *manifest_side_name(enum manifest_side s);
const char *manifest_method_name(enum manifest_method m);
const char *manifest_mode_name(enum manifest_mode m);
const char *manifest_direction_name(enum manifest_direction d); /* NULL for UNSET */

/* Format Unix seconds as RFC 3339 UTC ("2024-05-01T12:00:00Z"); -1 out of range. */
int manifest_time_format(int64_t unix_seconds, char out[MANIFEST_TIME_MAX]);

/*
 * Parse an RFC 3339 UTC time as the manifest holds them:
 * "YYYY-MM-DDTHH:MM:SS[.fraction]Z"; the fraction is dropped.  Returns 0,
 * or -1 when s is not such a time.
 */
int manifest_time_parse(const char *s, int64_t *unix_seconds);

#endif
