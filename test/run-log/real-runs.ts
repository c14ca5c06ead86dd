import { join } from 'node:path';
import { BUGGY_REPO, FIX_EDIT, runCli, writeScript, type CliRun } from '../cli/helpers.js';
import { makeRepo } from '../support/make-repo.js';

/** A journal produced by the built CLI (real git, real bwrap, a scripted model) and where its run lives. */
export interface RealRun {
  run: CliRun;
  dir: string;
  journal: string;
}

export const LEAKED_TOKEN = 'ghs_abcdefghijklmnopqrstuvwxyz0123456789';

/** Runs `greenfix fix` on a fresh copy of the buggy repository with `turns` as the model's script. */
export async function realRun(parent: string, name: string, turns: Array<Array<[string, unknown]>>, extra: { env?: Record<string, string>; resume?: boolean } = {}): Promise<RealRun> {
  const base = join(parent, name);
  const repo = makeRepo(join(base, 'repo'), BUGGY_REPO);
  const script = writeScript(base, turns);
  const args = ['fix', '--repo', repo, '--task', `${name}: add subtracts instead of adding`, '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json'];
  const env = { GREENFIX_WORKDIR: join(base, 'work') };
  let run = await runCli(args, { ...env, ...extra.env });
  if (extra.resume) run = await runCli([...args, '--resume'], env);
  const m = /what it did, step by step: greenfix log --run (\S+)/.exec(run.stderr);
  if (!m?.[1]) throw new Error(`no run directory named in:\n${run.stderr}`);
  return { run, dir: m[1], journal: join(m[1], 'journal.jsonl') };
}

export const SCRIPTS = {
  fix: [[['read_file', { path: 'lib.sh' }]], [['run_tests', {}]], [FIX_EDIT], [['run_tests', {}]], [['finish', { summary: 'add adds now' }]]] as Array<Array<[string, unknown]>>,
  refusal: [[FIX_EDIT], [['finish', { summary: 'trust me' }]], [['finish', { summary: 'cannot verify', gave_up: true }]]] as Array<Array<[string, unknown]>>,
  stuck: Array.from({ length: 12 }, () => [['read_file', { path: 'lib.sh' }]]) as Array<Array<[string, unknown]>>,
  resumed: [
    [FIX_EDIT],
    [['edit_file', { path: 'lib.sh', old: '$1 + $2 )); }', new: '$1 + $2 )); }\n# checked' }]],
    [['run_tests', {}]],
    [['finish', { summary: 'fixed' }]],
  ] as Array<Array<[string, unknown]>>,
  /** 40 commands of 12,000+ characters each (the tool's clip), one that prints a token, then the fix. */
  huge: [
    [['run', { command: `echo "token=${LEAKED_TOKEN}"` }]],
    ...Array.from({ length: 40 }, (_, i) => [['run', { command: `head -c 300000 /dev/zero | tr '\\0' '${'abcdefghij'[i % 10]}'; echo` }]]),
    [FIX_EDIT],
    [['run_tests', {}]],
    [['finish', { summary: 'fixed after a lot of output' }]],
  ] as Array<Array<[string, unknown]>>,
};
