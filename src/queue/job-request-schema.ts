import * as z from 'zod';
import type { JobRequest } from '../triggers/types.js';

/**
 * Runtime shape of a stored JobRequest. The queue re-reads requests written by earlier processes
 * (maybe earlier versions), so they are checked instead of trusted. Unknown keys are kept: a newer
 * writer may add optional fields.
 */
const repoSchema = z.looseObject({
  id: z.number().int(),
  owner: z.string(),
  name: z.string(),
  cloneUrl: z.string(),
  defaultBranch: z.string(),
});

const ciSchema = z.looseObject({
  headSha: z.string(),
  headRef: z.string(),
  checks: z.array(z.string()),
  checkRunIds: z.array(z.number().int()),
  workflowRunId: z.number().int().optional(),
});

const reviewSchema = z.looseObject({
  reviewId: z.number().int().optional(),
  commentId: z.number().int().optional(),
  body: z.string(),
});

const configGateSchema = z.union([z.looseObject({ label: z.string() }), z.looseObject({ reviewOnRequestChanges: z.literal(true) })]);

export const jobRequestSchema = z.looseObject({
  kind: z.enum(['issue', 'retry', 'ci_fix', 'review', 'doctor']),
  installationId: z.number().int(),
  repo: repoSchema,
  number: z.number().int(),
  target: z.enum(['issue', 'pull_request']),
  title: z.string(),
  body: z.string(),
  sender: z.string(),
  instructions: z.string().optional(),
  ci: ciSchema.optional(),
  review: reviewSchema.optional(),
  configGate: configGateSchema.optional(),
}) satisfies z.ZodType<JobRequest>;
