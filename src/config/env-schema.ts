import * as z from 'zod';
import { SetupAllowSchema } from './domain-pattern.js';
import { MODEL_PROFILE_NAMES, REASONING_EFFORTS } from './model-profile-names.js';

/**
 * One zod rule per variable of DESIGN §3.5. `VAR=` (blank) means unset, as in a .env file. Rules
 * involving several variables (setup mode, the private key) live in env-rules.ts.
 */
const blankIsUnset = (v: unknown) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v);
const opt = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());

const httpUrl = (example: string) =>
  z.string().refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), { message: `must be an http(s) URL such as ${example}` });

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `must be a whole number from ${min} to ${max}` });

/** USD as a plain decimal (no exponent, no currency sign): `5`, `0.50`. */
const usd = (max: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { message: `must be an amount in USD greater than 0 and at most ${max}, such as 5 or 0.50` })
    .transform(Number)
    .refine((n) => n > 0 && n <= max, { message: `must be an amount in USD greater than 0 and at most ${max}, such as 5 or 0.50` });

/** describeIssue words it: "must be one of `a`, `b`". */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

const noSpaces = (what: string) => z.string().regex(/^\S+$/, { message: `must be ${what} without whitespace (a stray newline or quote?)` });

export const EnvSchema = z.object({
  APP_ID: opt(integer(1, Number.MAX_SAFE_INTEGER)),
  PRIVATE_KEY: opt(z.string()),
  PRIVATE_KEY_PATH: opt(z.string()),
  WEBHOOK_SECRET: opt(z.string()),
  PORT: opt(integer(0, 65_535)),
  HOST: opt(noSpaces('a host name or address')),
  LOG_LEVEL: opt(oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const)),
  LOG_FORMAT: opt(oneOf(['json', 'pretty'] as const)),
  GHE_HOST: opt(
    z.string().regex(/^[A-Za-z0-9.-]+(:\d+)?$/, { message: 'must be a host name such as github.example.com, without https://' }),
  ),
  GHE_PROTOCOL: opt(oneOf(['https', 'http'] as const)),
  WEBHOOK_PROXY_URL: opt(httpUrl('https://smee.io/abc123')),
  OPENAI_BASE_URL: opt(httpUrl('https://api.openai.com/v1')),
  OPENAI_API_KEY: opt(noSpaces('a key')),
  GREENFIX_MODEL: opt(z.string().regex(/^(scripted:.+|\S+)$/, { message: 'must be a model name without whitespace, or scripted:FILE' })),
  // The endpoint's rules (model/provider-profile.ts); unset: chosen from the base URL and the model.
  GREENFIX_MODEL_PROFILE: opt(oneOf(MODEL_PROFILE_NAMES)),
  GREENFIX_REASONING_EFFORT: opt(oneOf(REASONING_EFFORTS)),
  // JSON or a JSON file's path; its content is checked where the model is configured (model/prices.ts).
  GREENFIX_PRICES: opt(z.string()),
  GREENFIX_WORKDIR: opt(z.string()),
  GREENFIX_DB: opt(z.string()),
  GREENFIX_CONCURRENCY: opt(integer(1, 64)),
  GREENFIX_ROLE: opt(oneOf(['all', 'receiver', 'worker'] as const)),
  REDIS_URL: opt(
    z.string().refine((v) => URL.canParse(v) && /^rediss?:$/.test(new URL(v).protocol), {
      message: 'must be a redis:// or rediss:// URL',
    }),
  ),
  GREENFIX_SANDBOX: opt(oneOf(['on', 'bwrap', 'off'] as const)),
  // Resources per job (docs/sandbox.md); the sandbox re-checks them when it starts (sandbox-settings.ts).
  GREENFIX_SANDBOX_UIDS: opt(z.string().regex(/^\d+-\d+$/, { message: 'must be FIRST-LAST, two whole numbers such as 2147000000-2147000999' })),
  GREENFIX_SANDBOX_MEMORY_MB: opt(integer(64, 1_048_576)),
  GREENFIX_SANDBOX_PIDS: opt(integer(16, 4_194_304)),
  GREENFIX_SANDBOX_DISK_MB: opt(integer(1, 16_777_216)),
  GREENFIX_SETUP_ALLOW: opt(SetupAllowSchema),
  // A YAML or JSON file of named setup secrets (setup-secrets.ts), read and checked at startup.
  GREENFIX_SETUP_SECRETS_FILE: opt(z.string()),
  GREENFIX_SHUTDOWN_GRACE_SECONDS: opt(integer(0, 3600)),
  GREENFIX_JOB_RETENTION_DAYS: opt(integer(0, 3650)),
  GREENFIX_QUEUE_RETENTION_DAYS: opt(integer(1, 3650)),
  // 64 KiB (a push event of a big PR is larger) to 25 MiB (GitHub's own cap on payloads).
  GREENFIX_WEBHOOK_MAX_BYTES: opt(integer(65_536, 26_214_400)),
  // 0 turns the dependency cache off; at most 1 TiB.
  GREENFIX_CACHE_MB: opt(integer(0, 1_048_576)),
  // Spend caps over time (UTC day / calendar month) and the reservation of a job without max_cost_usd.
  GREENFIX_REPO_DAILY_USD: opt(usd(1_000_000)),
  GREENFIX_REPO_MONTHLY_USD: opt(usd(1_000_000)),
  GREENFIX_INSTALLATION_MONTHLY_USD: opt(usd(1_000_000)),
  GREENFIX_JOB_RESERVE_USD: opt(usd(1_000)),
  // Environment images (docs/configuration.md): the default, the registries' credentials and plain-HTTP hosts, the cache's cap.
  GREENFIX_DEFAULT_IMAGE: opt(noSpaces('an image reference such as python:3.12-slim')),
  GREENFIX_REGISTRY_AUTH_FILE: opt(z.string()),
  GREENFIX_INSECURE_REGISTRIES: opt(
    z.string().regex(/^[A-Za-z0-9.-]+(:\d+)?(,\s*[A-Za-z0-9.-]+(:\d+)?)*$/, { message: 'must be registry hosts separated by commas, such as registry.internal:5000' }),
  ),
  GREENFIX_IMAGE_CACHE_MB: opt(integer(256, 16_777_216)),
  GREENFIX_PUBLIC_URL: opt(httpUrl('https://greenfix.example.com')),
  GREENFIX_RUN_LINK_SECRET: opt(z.string().min(16, { message: 'must be at least 16 characters' })),
});

export type ParsedEnv = z.infer<typeof EnvSchema>;

/** The variable names, for callers that pass only greenfix's variables on (never the whole environment). */
export const ENV_VARIABLES = Object.keys(EnvSchema.shape) as Array<keyof ParsedEnv>;
