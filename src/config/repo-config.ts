import * as z from 'zod';
import { DEFAULT_BUDGETS } from './budget-defaults.js';
import { DomainPatternSchema } from './domain-pattern.js';

/**
 * `.github/greenfix.yml`: strict (an unknown key is an error, not a silent typo), every key
 * optional with a default. Budgets are capped so one repository cannot hold a worker for hours.
 */
const SetupCommandSchema = z.string().min(1).max(1000);
/** A setup secret's name, as the operator's file and `setup.secrets` spell it. */
export const SECRET_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

export const RepoConfigSchema = z
  .object({
    /** The label that starts a fix. */
    label: z.string().min(1).max(50).default('agent-fix'),
    /** Verify command; detected from the repository when absent. */
    verify: z.string().min(1).max(1000).optional(),
    /**
     * When a tree counts as verified: `all_pass` (the whole command exits 0) or `no_new_failures`
     * (for a base that is already red: nothing that passed on the base fails, and a failing or new
     * test passes; needs a test report greenfix can read, else it falls back to `all_pass`).
     */
    verify_mode: z.enum(['all_pass', 'no_new_failures']).default('all_pass'),
    tests: z
      .object({
        /**
         * A fix may delete, rename or skip tests that ran on the base (passed or failed): the tree
         * can still verify, and they are still listed in the evidence. Off: such a tree is not verified.
         */
        allow_removed: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    /**
     * Setup (installs dependencies, with network): its command (detected when absent), either as a
     * string or as `{ command, secrets }`, where `secrets` names the operator's setup secrets it
     * needs (GREENFIX_SETUP_SECRETS_FILE): they exist only in setup's environment, and only with
     * `network.allow` set, so they go nowhere else.
     */
    setup: z
      .union([
        SetupCommandSchema,
        z
          .object({
            command: SetupCommandSchema.optional(),
            secrets: z.array(z.string().regex(SECRET_NAME, 'a secret name is upper-case letters, digits and "_" (like NPM_TOKEN)')).max(20).default([]),
          })
          .strict(),
      ])
      .optional(),
    /** Prefix of greenfix's branches; the branch is `<prefix>issue-<n>`. */
    branch_prefix: z
      .string()
      .regex(/^[A-Za-z0-9._-]+\/$/, 'a branch prefix is letters, digits, ".", "_" or "-" and ends with "/"')
      .default('greenfix/'),
    /** Open pull requests as drafts. */
    draft: z.boolean().default(false),
    max_steps: z.number().int().min(1).max(200).default(DEFAULT_BUDGETS.maxSteps),
    max_tokens: z.number().int().min(10_000).max(5_000_000).default(DEFAULT_BUDGETS.maxTokens),
    timeout_minutes: z.number().int().min(1).max(180).default(DEFAULT_BUDGETS.timeoutMinutes),
    /** USD per job; no model call is made whose worst case would cross it. Unset: no money budget. */
    max_cost_usd: z.number().positive().max(1000).optional(),
    /**
     * Spend caps over time for this repository (UTC day, UTC calendar month). They can only lower
     * the operator's (GREENFIX_REPO_DAILY_USD / _MONTHLY_USD): the smaller one applies. A job over a
     * cap waits for the window to reset (`wait`) or ends failed (`refuse`).
     */
    caps: z
      .object({
        daily_usd: z.number().positive().max(1_000_000).optional(),
        monthly_usd: z.number().positive().max(1_000_000).optional(),
        on_reached: z.enum(['wait', 'refuse']).default('wait'),
      })
      .strict()
      .prefault({}),
    autofix: z
      .object({
        /** Fix red CI on greenfix's own PRs. */
        own: z.boolean().default(true),
        /** Fix red CI on humans' (same-repository) PRs. */
        humans: z.boolean().default(false),
        /** CI fix attempts per PR before greenfix stops and says so. */
        max_attempts: z.number().int().min(1).max(10).default(3),
      })
      .strict()
      .prefault({}),
    paths: z
      .object({
        /** Globs the agent may not change (the commit is refused if it does). */
        deny: z.array(z.string().min(1)).max(100).default([]),
        /** `.github/workflows/` is off limits unless this is true. */
        allow_workflows: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    review: z
      .object({
        /** Any `changes_requested` review by a collaborator starts a review job (not only `/agent` reviews). */
        on_request_changes: z.boolean().default(false),
        /** Resolve a thread greenfix answered when its lines changed in the verified commit. */
        resolve_threads: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    network: z
      .object({
        /**
         * The only domains the setup step may reach through the egress proxy (`registry.npmjs.org`,
         * `*.pythonhosted.org`); empty: any public host. Loopback and private addresses never.
         */
        allow: z.array(DomainPatternSchema).max(100).default([]),
      })
      .strict()
      .prefault({}),
    /**
     * PR rate limits (Renovate's prConcurrentLimit / prHourlyLimit): a job that would open a new PR
     * over one waits, and its status comment says so. Unset: no limit.
     */
    limits: z
      .object({
        /** Open greenfix PRs at most (branches under `branch_prefix`). */
        open_prs: z.number().int().min(1).max(1000).optional(),
        /** PRs greenfix opens in any hour at most. */
        prs_per_hour: z.number().int().min(1).max(1000).optional(),
      })
      .strict()
      .prefault({}),
    /**
     * The environment every command of a fix runs in: a prebuilt image whose root filesystem is the
     * sandbox's `/` (read-only), pinned by digest. Absent: `.devcontainer/devcontainer.json`'s
     * "image", else the operator's GREENFIX_DEFAULT_IMAGE, else the host's userland.
     */
    environment: z
      .object({
        image: z.string().trim().min(1).max(512).regex(/^\S+$/, 'an image reference has no whitespace (such as python:3.12-slim)').optional(),
      })
      .strict()
      .prefault({}),
    /** Extra instructions for the model, added to AGENTS.md. */
    instructions: z.string().max(10_000).optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    if (setupSecretNames(config).length > 0 && config.network.allow.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['setup', 'secrets'], message: 'setup secrets need `network.allow`: a secret goes only to the hosts listed there (your registry)' });
    }
  });

export type RepoConfig = z.infer<typeof RepoConfigSchema>;

/** The config of a repository without `.github/greenfix.yml`. */
export function defaultRepoConfig(): RepoConfig {
  return RepoConfigSchema.parse({});
}

/** The setup command the repository names (a string, or `setup.command`); undefined: detect it. */
export function setupCommand(config: Pick<RepoConfig, 'setup'>): string | undefined {
  return typeof config.setup === 'string' ? config.setup : config.setup?.command;
}

/** The operator's setup secrets the repository asks for (`setup.secrets`). */
export function setupSecretNames(config: Pick<RepoConfig, 'setup'>): string[] {
  return typeof config.setup === 'object' ? config.setup.secrets : [];
}
