/*
 * runner/demo.h: `plumb demo [DIR]`: a ready-made comparison to watch plumb
 * work on this machine in a few minutes.
 *
 * runner_demo_prepare() makes DIR a git repository holding the example
 * examples/interp (a placement-sensitive interpreter, hot function `run`)
 * with two commits: the base, and a candidate that changes only code
 * outside run() (main's usage message moves into a function of its own),
 * so run() is the same code at another address.  It writes DIR/plumb.conf
 * for the default adaptive sweep (run.pads = auto, spread offsets) with few
 * rounds and a budget of a few minutes; the caller then runs it
 * (runner_run) and writes the bundle into DIR.
 *
 * The example sources are looked up, first found wins, in:
 *   $PLUMB_EXAMPLES                      (a folder holding interp/)
 *   <folder of the plumb program>/examples        (a source tree build)
 *   <folder of the plumb program>/../share/plumb/examples   (a moved install)
 *   PLUMB_PKGDATADIR/examples            (`make install`: $(pkgdatadir))
 *
 * Ownership: paths are appended to caller-owned struct buf.
 */
#ifndef PLUMB_RUNNER_DEMO_H
#define PLUMB_RUNNER_DEMO_H

struct buf;
struct plumb_err;

/* Timed rounds, the sweep's budget and the argument of interp in the
 * demo's plumb.conf. */
#define DEMO_ROUNDS 6
#define DEMO_BUDGET "3m"
#define DEMO_ITERATIONS "4000000"

/* The folder holding interp/ (appended to out); PLUMB_EINPUT when none. */
int demo_find_examples(struct buf *out, struct plumb_err *err);

/*
 * Create the demo repository in dir (NULL: a new ./plumb-demo-XXXXXX).  A
 * dir that exists and is not an empty folder is PLUMB_EARG: nothing is
 * ever overwritten.  The repository's folder (absolute) is appended to
 * repo_dir.
 */
int runner_demo_prepare(const char *dir, struct buf *repo_dir, struct plumb_err *err);

/* The text of the candidate's interp.c from the base's; -1 when it does not apply. */
int demo_candidate_source(const char *base, struct buf *out);

#endif
