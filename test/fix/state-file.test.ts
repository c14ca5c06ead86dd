import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { StateFile, StateFileError, STATE_VERSION } from '../../src/fix/state-file.js';
import type { RunState } from '../../src/fix/run-state.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const Target = z.strictObject({ branch: z.string() });
const FIX: RunState = { task: 'fix it', baseCommit: 'a'.repeat(40), createdAt: 1_700_000_000_000, commands: { setup: 'npm ci', verify: 'npm test' } };
const WORKSPACE = { gitDir: '/srv/mirror.git', baseCommit: 'a'.repeat(40), setAside: { 'coverage/x': '100644 ' + 'b'.repeat(40) }, artefacts: ['test-run.log'] };

function problemOf(path: string): string {
  try {
    StateFile.open(path, Target);
  } catch (error) {
    expect(error).toBeInstanceOf(StateFileError);
    return (error as StateFileError).problem;
  }
  throw new Error('opened');
}

describe('StateFile', () => {
  it('starts empty without writing anything, and a section set is on disk before set returns', () => {
    const path = join(temp.make(), 'state.json');
    const state = StateFile.open(path, Target);
    expect(state.get('job')).toBeUndefined();
    expect(existsSync(path)).toBe(false);

    state.set('job', { branch: 'greenfix/issue-1' });
    state.set('fix', FIX);
    state.workspaceStore().save({ gitDir: WORKSPACE.gitDir, baseCommit: WORKSPACE.baseCommit, setAside: new Map(Object.entries(WORKSPACE.setAside)), artefacts: new Set(['test-run.log']) });

    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: STATE_VERSION, job: { branch: 'greenfix/issue-1' }, fix: FIX, workspace: WORKSPACE });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // No temp file is left beside it.
    expect(readdirSync(join(path, '..'))).toEqual(['state.json']);
  });

  it('a second process loads every section as written (the workspace record as its map)', () => {
    const path = join(temp.make(), 'state.json');
    const first = StateFile.open(path, Target);
    first.set('job', { branch: 'b' });
    first.fixStore().set(FIX);
    first.workspaceStore().save({ gitDir: WORKSPACE.gitDir, baseCommit: WORKSPACE.baseCommit, setAside: new Map([['x', null]]), artefacts: new Set(['a.log']) });

    const again = StateFile.open(path, Target);
    expect(again.get('job')).toEqual({ branch: 'b' });
    expect(again.fixStore().get()).toEqual(FIX);
    expect(again.workspaceStore().load()).toEqual({ gitDir: WORKSPACE.gitDir, baseCommit: WORKSPACE.baseCommit, setAside: new Map([['x', null]]), artefacts: new Set(['a.log']) });
  });

  it('is loaded once: a later change on disk is not read back, and the next write replaces it', () => {
    const path = join(temp.make(), 'state.json');
    const state = StateFile.open(path, Target);
    state.set('job', { branch: 'mine' });
    writeFileSync(path, JSON.stringify({ version: STATE_VERSION, job: { branch: 'theirs' } }));
    expect(state.get('job')).toEqual({ branch: 'mine' });
    state.set('fix', FIX);
    expect(StateFile.open(path, Target).get('job')).toEqual({ branch: 'mine' });
  });

  it('refuses to write a section that does not fit the schema, and keeps the file as it was', () => {
    const path = join(temp.make(), 'state.json');
    const state = StateFile.open(path, Target);
    state.set('job', { branch: 'ok' });
    const before = readFileSync(path, 'utf8');
    expect(() => state.set('job', { branch: 7 } as unknown as { branch: string })).toThrow(z.ZodError);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(state.get('job')).toEqual({ branch: 'ok' });
  });

  it('a temp file left by a crash mid-write is ignored: the last complete version is what loads', () => {
    const path = join(temp.make(), 'state.json');
    StateFile.open(path, Target).set('job', { branch: 'complete' });
    writeFileSync(`${path}.tmp`, '{"version": 2, "job": {"branch": "ha');
    const state = StateFile.open(path, Target);
    expect(state.get('job')).toEqual({ branch: 'complete' });
    state.set('fix', FIX);
    expect(readdirSync(join(path, '..'))).toEqual(['state.json']);
  });

  it.each([
    ['truncated JSON (a torn write by something else)', '{"version": 2, "job": {"bra', 'not_json'],
    ['an empty file', '', 'not_json'],
    ['another version (the three files of greenfix before it)', JSON.stringify({ version: 1, task: 't' }), 'wrong_version'],
    ['no version at all', JSON.stringify({ job: { branch: 'b' } }), 'wrong_version'],
    ['a section of the wrong shape', JSON.stringify({ version: STATE_VERSION, job: { branch: 1 } }), 'invalid'],
    ['an unknown key', JSON.stringify({ version: STATE_VERSION, jobb: { branch: 'b' } }), 'invalid'],
    ['a workspace record with a bad base commit', JSON.stringify({ version: STATE_VERSION, workspace: { ...WORKSPACE, baseCommit: 'main' } }), 'invalid'],
  ])('a damaged file is a typed error naming the problem: %s', (_name, text, problem) => {
    const path = join(temp.make(), 'state.json');
    writeFileSync(path, text);
    expect(problemOf(path)).toBe(problem);
    // Nothing was lost: the damaged file is left for a person to read.
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('an unreadable path (a directory where the file should be) is a typed error too', () => {
    const dir = temp.make();
    expect(problemOf(dir)).toBe('unreadable');
  });

  it('the CLI variant has no job section: one there is invalid', () => {
    const path = join(temp.make(), 'state.json');
    writeFileSync(path, JSON.stringify({ version: STATE_VERSION, job: { branch: 'b' } }));
    expect(() => StateFile.open(path, z.never())).toThrow(StateFileError);
    writeFileSync(path, JSON.stringify({ version: STATE_VERSION, fix: FIX }));
    expect(StateFile.open(path, z.never()).get('fix')).toEqual(FIX);
  });
});

describe('a job directory left by the greenfix before the one state file', () => {
  it('is refused with a typed error instead of resumed from the worktree it left', async () => {
    const { jobFiles, makeJobDir, openJobState } = await import('../../src/job/files.js');
    const files = jobFiles(temp.make(), 'job-1');
    makeJobDir(join(files.dir, '..', '..'), files);
    writeFileSync(join(files.dir, 'run.json'), JSON.stringify({ version: 1, task: 't' }));
    expect(() => openJobState(files)).toThrow(StateFileError);
    expect(existsSync(join(files.dir, 'run.json'))).toBe(true);
  });
});
