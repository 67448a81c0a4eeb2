/*
 * views/build-summary.h: what `plumb run --build-only` prints: every variant
 * (side, pad, folder, artifact, build time, hot-symbol addresses), the
 * shift check, the reproducibility check and the hot-code verdicts, as
 * text for people or as JSON for machines.
 *
 * Ownership: the text is appended to a caller-owned struct buf; the JSON
 * object is new and the caller json_decref()s it.
 */
#ifndef PLUMB_VIEWS_BUILD_SUMMARY_H
#define PLUMB_VIEWS_BUILD_SUMMARY_H

#include <stdio.h>

#include <jansson.h>

struct buf;
struct plumb_config;
struct plumb_err;
struct runner_result;

int runner_summary_text(const struct plumb_config *cfg, const struct runner_result *res,
			struct buf *out, struct plumb_err *err);

/* NULL when memory runs out. */
json_t *runner_summary_json(const struct plumb_config *cfg, const struct runner_result *res);

/*
 * For --dry-run: every command the configuration runs (build.cc's for the
 * pad object, build.command, run.setup, each benchmark's setup, prepare,
 * command and cleanup, run.cleanup) as it will be split, one comment line
 * each ("# build.command runs 4 words: [make] [lua] ..."; placeholders
 * stay as written), and the repo.url it fetches, escaped.
 */
int runner_commands_text(const struct plumb_config *cfg, struct buf *out, struct plumb_err *err);

/* The configuration's warnings (cfg->warnings), one "plumb: warning: " line each, escaped. */
void runner_config_warnings(const struct plumb_config *cfg, FILE *f);

#endif
