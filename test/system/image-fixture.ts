import { expect } from '@jest/globals';
import { DEFAULT_IMAGE_CACHE_MB } from '../../src/config/image-settings.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

/** The repository's test tool exists only in its image (test-images.ts): the fix verifies there or nowhere. */
const FILES = { 'answer.txt': '41\n', 'README.md': 'The answer is checked by the environment image.\n' };
const SCRIPT = [
  turn(['edit_file', { path: 'answer.txt', old: '41', new: '42' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: 'The answer is 42.' }]),
];

/** The deployment's image settings: skopeo and umoci from Debian, no default image, no credentials. */
export const IMAGE_SETTINGS = { insecureRegistries: [], cacheBytes: DEFAULT_IMAGE_CACHE_MB * 1024 * 1024, tools: { skopeo: '/usr/bin/skopeo', umoci: '/usr/bin/umoci' } };

/** The app with images on, a repository with `files` and `.github/greenfix.yml` = `config`; one labelled issue, run to the end. */
export async function labelledInImage(files: Record<string, string>, config: string, images: typeof IMAGE_SETTINGS & { authFile?: string } = IMAGE_SETTINGS): Promise<Harness> {
  const h = await startHarness({ files: { ...FILES, ...files }, script: SCRIPT, state: { config }, images });
  expect((await h.send('issues', labeled(h))).status).toBe(200);
  await h.settle();
  return h;
}

/** The PR body names `reference` pinned at a digest, and the check run names the same digest; returns it. */
export function expectPinnedEvidence(h: Harness, reference: string): string {
  const digest = /sha256:[a-f0-9]{64}/.exec(h.state.pulls[0]?.body ?? '')?.[0];
  expect(digest).toBeDefined();
  expect(h.state.pulls[0]!.body).toContain(`environment: \`${reference}\` pinned at \`${digest}\``);
  const check = h.state.checkRuns[0]!;
  expect(check.conclusion).toBe('success');
  expect(`${check.output.summary}\n${check.output.text ?? ''}`).toContain(digest!);
  return digest!;
}

/** The job's status comment. */
export function statusComment(h: Harness): string {
  return h.state.comments.find((c) => c.body.includes('greenfix:status'))?.body ?? '';
}
