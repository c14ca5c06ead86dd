/** `greenfix fix` exit codes (DESIGN §3.4). */
export const ExitCode = {
  /** Verified and committed. */
  verified: 0,
  /** Finished without a verified tree; nothing committed. */
  notVerified: 1,
  /** Usage or configuration error. */
  usage: 2,
  /** Model or infrastructure failure. */
  failure: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A problem with how greenfix was invoked or configured: exit 2, message shown as is. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
