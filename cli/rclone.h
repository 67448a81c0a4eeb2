/*
 * cli/rclone.h: give archive/remote.h its way of running rclone (the
 * runner's process harness).  Called once, before any command runs.
 */
#ifndef PLUMB_CLI_RCLONE_H
#define PLUMB_CLI_RCLONE_H

void cli_rclone_setup(void);

#endif
