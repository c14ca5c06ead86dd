import * as z from 'zod';

/**
 * The few webhook fields the triggers read, validated at the edge. Objects are not strict: GitHub
 * adds fields all the time, and a trigger must not break on one it does not use.
 */

export const Sender = z.object({
  login: z.string(),
  type: z.string().optional(),
});

export const Installation = z.object({ id: z.number().int() });

export const Repository = z.object({
  id: z.number().int(),
  name: z.string(),
  owner: z.object({ login: z.string() }),
  clone_url: z.string(),
  default_branch: z.string(),
});

/** What every event the triggers handle carries. */
export const BasePayload = z.object({
  sender: Sender,
  installation: Installation,
  repository: Repository,
});

export const Issue = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullish(),
  state: z.string().optional(),
  /** Present (an object) when the "issue" is a pull request. */
  pull_request: z.object({}).nullish(),
});

/** A pull request as listed in `check_run.pull_requests` and `workflow_run.pull_requests`. */
export const PullRequestRef = z.object({
  number: z.number().int(),
  head: z.object({ ref: z.string(), sha: z.string(), repo: z.object({ id: z.number().int() }) }),
  base: z.object({ ref: z.string(), repo: z.object({ id: z.number().int() }) }),
});

export type BasePayload = z.infer<typeof BasePayload>;
export type PullRequestRef = z.infer<typeof PullRequestRef>;
