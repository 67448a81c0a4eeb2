/*
 * formats/bisect.c: the bisect record's storage and names (formats/bisect.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/bisect.h"
#include "common/banned.h"

void bisect_record_init(struct bisect_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->outcome = BISECT_RUNNING;
}

void bisect_record_release(struct bisect_record *rec)
{
	for (size_t i = 0; i < rec->ncommits; i++) {
		free(rec->commits[i].subject);
		free(rec->commits[i].author);
	}
	for (size_t i = 0; i < rec->nsteps; i++)
		free(rec->steps[i].bundle);
	free(rec->commits);
	free(rec->steps);
	free(rec->bench);
	free(rec->metric);
	free(rec->good_ref);
	free(rec->bad_ref);
	bisect_record_init(rec);
}

struct bisect_step *bisect_record_add_step(struct bisect_record *rec)
{
	struct bisect_step *v = realloc(rec->steps, (rec->nsteps + 1) * sizeof(*v)), *s;

	if (!v)
		return NULL;
	rec->steps = v;
	s = &v[rec->nsteps++];
	memset(s, 0, sizeof(*s));
	s->hot_identical = MANIFEST_UNKNOWN;
	s->ratio = NAN;
	return s;
}

size_t bisect_record_limit(const struct bisect_record *rec)
{
	size_t n = rec->ncommits > 1 ? rec->ncommits - 1 : 1, log2n = 0;

	while (((size_t)1 << log2n) < n)
		log2n++;
	return log2n + 2;
}

void bisect_record_builds(const struct bisect_record *rec, struct bisect_builds *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < rec->nsteps; i++) {
		const struct bisect_builds *s = &rec->steps[i].builds;
		t->built += s->built;
		t->cached += s->cached;
		t->controls += s->controls;
		t->reused += s->reused;
		t->build_ns += s->build_ns;
		t->setup_ns += s->setup_ns;
		t->checkout_ns += s->checkout_ns;
		t->fresh_ns += s->fresh_ns;
		t->control_ns += s->control_ns;
		t->restore_ns += s->restore_ns;
	}
}

const char *bisect_kind_name(enum bisect_kind k)
{
	switch (k) {
	case BISECT_CHECK: return "check";
	case BISECT_STEP: return "step";
	case BISECT_AGAINST_BAD: return "against-bad";
	case BISECT_CONFIRM: return "confirm";
	}
	return "step";
}

const char *bisect_outcome_name(enum bisect_outcome o)
{
	switch (o) {
	case BISECT_RUNNING: return "stopped";
	case BISECT_FOUND: return "found";
	case BISECT_NOT_FASTER: return "not-faster";
	case BISECT_STUCK: return "undecided";
	case BISECT_UNCONFIRMED: return "unconfirmed";
	}
	return "stopped";
}

const char *bisect_call_name(enum bisect_call c)
{
	switch (c) {
	case BISECT_CALL_SLOWER: return "slower";
	case BISECT_CALL_SAME: return "not slower";
	case BISECT_CALL_UNDECIDED: return "undecided";
	}
	return "undecided";
}
