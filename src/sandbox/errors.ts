/**
 * Typed sandbox failures. Callers branch on the class and its `reason`, never on message text;
 * the message is written for the person who has to fix the deployment.
 */

/** The isolation machinery itself is missing or does not work on this host. */
export class SandboxUnavailableError extends Error {
  readonly kind = 'sandbox-unavailable' as const;
  constructor(
    readonly reason: 'bwrap-missing' | 'tool-missing' | 'bwrap-broken' | 'node-missing',
    message: string,
  ) {
    super(message);
    this.name = 'SandboxUnavailableError';
  }
}

/** The sandbox configuration (environment variables, options) is invalid. */
export class SandboxConfigError extends Error {
  readonly kind = 'sandbox-config' as const;
  constructor(
    readonly reason: 'bad-mode' | 'bad-ro-path' | 'bad-uid-range' | 'bad-limit' | 'image-needs-sandbox',
    message: string,
  ) {
    super(message);
    this.name = 'SandboxConfigError';
  }
}

/** One request was refused before anything ran. */
export class SandboxRequestError extends Error {
  readonly kind = 'sandbox-request' as const;
  constructor(
    readonly reason: 'env-refused' | 'cwd-outside-workspace' | 'workspace-unreachable' | 'workspace-exposes-app' | 'bind-refused',
    message: string,
  ) {
    super(message);
    this.name = 'SandboxRequestError';
  }
}

/** The sandbox cannot take another job now (every uid of the range is leased). */
export class SandboxCapacityError extends Error {
  readonly kind = 'sandbox-capacity' as const;
  constructor(
    readonly reason: 'uids-exhausted',
    message: string,
  ) {
    super(message);
    this.name = 'SandboxCapacityError';
  }
}

/** A job was stopped by one of its limits (the disk watchdog): the job ends, it is not retried. */
export class SandboxLimitError extends Error {
  readonly kind = 'sandbox-limit' as const;
  constructor(
    readonly reason: 'disk',
    readonly limitMb: number,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxLimitError';
  }
}
