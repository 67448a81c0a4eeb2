/*
 * runner/run-profile.c: hot = auto.  The first warmup run of base pad 0
 * and of candidate pad 0 of every benchmark is sampled with the software
 * CPU clock (runner/profile.h); after the warmup runs each side's samples
 * are resolved to its artifact's symbols, the symbols covering
 * bench.NAME.hotCoverage (default PROFILE_COVERAGE) of them are the side's hot set, and every symbol of
 * either side's hot set is compared, base pad 0 against candidate pad 0
 * (runner/hotcode.h).  The verdict's hot-code identity is that of this
 * whole set together with the symbols bench.NAME.hot names
 * (run-judge.c).  A run without warmup runs, or on a kernel that
 * refuses the sampling event, has no profile, and says why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "runner/build-internal.h"
#include "runner/elfsym.h"
#include "runner/run-internal.h"
#include "common/banned.h"

static int side_of(const struct runner_variant *v)
{
	return v->side == RUNNER_CANDIDATE ? 1 : 0;
}

struct profile *run_profile_for(struct run_state *st, struct bench_state *b, size_t vi,
				unsigned round, unsigned pass)
{
	const struct runner_variant *v = &st->build.variants[vi];

	if (round != 0 || pass != 1 || v->control || v->pad != 0 || !v->elf)
		return NULL;
	return &b->prof[side_of(v)];
}

int run_profile_collect(struct run_state *st, struct bench_state *b, size_t vi,
			struct profile *p, struct plumb_err *err)
{
	(void)b;
	return profile_collect(p, st->build.variants[vi].elf, err);
}

static const struct runner_variant *pad0(const struct run_state *st, int side)
{
	for (size_t i = 0; i < st->build.nvariants; i++) {
		const struct runner_variant *v = &st->build.variants[i];
		if (!v->control && v->pad == 0 && side_of(v) == side)
			return v;
	}
	return NULL;
}

static int note(struct bench_state *b, const char *text, struct plumb_err *err)
{
	free(b->profile_note);
	b->profile_note = strdup(text);
	return b->profile_note ? 0 : plumb_err_oom(err, "profile");
}

/* Add name to the compared set unless it is there (or unknown). */
static int want(struct bench_state *b, const char *name, struct plumb_err *err)
{
	struct runner_hot *h;

	if (strcmp(name, "(unknown)") == 0)
		return 0;
	for (size_t k = 0; k < b->nauto; k++)
		if (strcmp(b->auto_hot[k].symbol, name) == 0)
			return 0;
	h = realloc(b->auto_hot, (b->nauto + 1) * sizeof(*h));
	if (!h)
		return plumb_err_oom(err, "profile");
	b->auto_hot = h;
	memset(&h[b->nauto], 0, sizeof(*h));
	if (!(h[b->nauto].symbol = strdup(name)))
		return plumb_err_oom(err, "profile");
	b->nauto++;
	return 0;
}

int run_profile_resolve(struct run_state *st, struct bench_state *b, struct plumb_err *err)
{
	const struct runner_variant *v[2] = { pad0(st, 0), pad0(st, 1) };
	struct elf_image *img[2] = { NULL, NULL };
	int r = 0;

	if (st->cfg->run.warmup_runs == 0)
		return note(b, "no profile: hot = auto samples the first warmup run (run.warmupRuns = 0)", err);
	if (!v[0] || !v[1] || !v[0]->elf || !v[1]->elf)
		return note(b, "no profile: pad 0 of a side has no ELF file to resolve samples in", err);
	for (int s = 0; s < 2 && r == 0; s++) {
		if (b->prof[s].n == 0)
			continue;
		r = profile_resolve(&b->prof[s], v[s]->elf, b->cb->hot_coverage, &b->phot[s],
				    &b->nall[s], &b->nhot[s], err);
		for (size_t k = 0; r == 0 && k < b->nhot[s]; k++)
			r = want(b, b->phot[s][k].name, err);
	}
	if (r < 0)
		return r;
	if (b->prof[0].n == 0 || b->prof[1].n == 0)
		return note(b, "no profile: no sample fell inside the artifact (the kernel refused "
			    "software sampling, or the benchmark ran too briefly for a 100 us clock)", err);
	if ((r = elf_image_open(v[0]->elf, &img[0], err)) < 0 ||
	    (r = elf_image_open(v[1]->elf, &img[1], err)) < 0)
		goto out;
	for (size_t k = 0; k < b->nauto && r >= 0; k++) {
		struct runner_hot *h = &b->auto_hot[k];
		r = runner_compare_symbol(img[0], img[1], elf_image_machine(img[0]), h->symbol,
					  &h->cmp, err);
		if (r < 0 && r != PLUMB_EINTERNAL) {
			/* Two local symbols of one name: which one ran is unknown. */
			memset(&h->cmp, 0, sizeof(h->cmp));
			h->cmp.verdict = HOTCODE_CHANGED;
			snprintf(h->cmp.detail, sizeof(h->cmp.detail), "%.200s", err->msg);
			plumb_err_clear(err);
			r = 1;
		} else if (r == 0) {
			/* Hot on one side, absent from the other: not the same code. */
			memset(&h->cmp, 0, sizeof(h->cmp));
			h->cmp.verdict = HOTCODE_CHANGED;
			snprintf(h->cmp.detail, sizeof(h->cmp.detail), "defined on one side only");
		}
	}
	if (r > 0)
		r = 0;
out:
	elf_image_free(img[0]);
	elf_image_free(img[1]);
	return r;
}

void run_profile_release(struct bench_state *b)
{
	for (int s = 0; s < 2; s++) {
		profile_close(&b->prof[s]);
		profile_hot_free(b->phot[s], b->nall[s]);
		b->phot[s] = NULL;
		b->nall[s] = b->nhot[s] = 0;
	}
	for (size_t k = 0; k < b->nauto; k++)
		free(b->auto_hot[k].symbol);
	free(b->auto_hot);
	b->auto_hot = NULL;
	b->nauto = 0;
	free(b->profile_note);
	b->profile_note = NULL;
}
