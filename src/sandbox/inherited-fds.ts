/**
 * Descriptors a sandboxed command starts with: 0, 1, 2 and those greenfix passes on purpose, nothing
 * else. Node marks every descriptor it opens close-on-exec, but one greenfix itself inherited (a
 * shell's `200<secret`, a supervisor's socket) is not, and libuv's spawn closes nothing: without
 * this step it would be open in every command, whatever uid or namespace that command runs in.
 *
 * The launch's first step is bash (dash cannot name a descriptor above 9): it closes every
 * descriptor from `keep` on, then runs the rest. /proc/self/fd lists the shell's own; the one its
 * glob used is already closed again, and closing it twice is harmless.
 */
export const CLOSE_INHERITED_FDS = 'k=$1; shift; for f in /proc/self/fd/*; do n=${f##*/}; if [ "$n" -ge "$k" ]; then eval "exec $n>&-"; fi; done';

/** The first descriptor a command must not have when greenfix passes `passed` descriptors from 3 on. */
export function firstClosedFd(passed: number): number {
  return 3 + passed;
}

/** `argv` started through bash with only 0, 1, 2 open (the unsandboxed runner's launch). */
export function withoutInheritedFds(bash: string, argv: readonly string[]): string[] {
  return [bash, '-c', `${CLOSE_INHERITED_FDS}; exec "$@"`, 'greenfix-launch', String(firstClosedFd(0)), ...argv];
}
