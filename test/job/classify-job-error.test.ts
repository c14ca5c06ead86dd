import { StateFileError } from '../../src/fix/state-file.js';
import { classifyJobError } from '../../src/job/classify-job-error.js';
import { SandboxCapacityError, SandboxLimitError } from '../../src/sandbox/errors.js';

describe('classifyJobError', () => {
  it('a damaged state file ends the job for good, saying how to start afresh (never by message text)', () => {
    const verdict = classifyJobError(new StateFileError('/w/jobs/j/state.json', 'not_json', 'Unexpected end of JSON input'));
    expect(verdict.retryable).toBe(false);
    expect(verdict.sentence).toContain('(not_json)');
    expect(verdict.sentence).toContain('`/agent retry` starts afresh');
    // The same words in a plain Error are just an error: retried.
    expect(classifyJobError(new Error('/w/jobs/j/state.json is not a usable greenfix state file (not_json)')).retryable).toBe(true);
  });

  it('ends a job stopped by the disk watchdog for good, saying why', () => {
    const verdict = classifyJobError(new SandboxLimitError('disk', 10240, 'disk limit reached: the worktree grew past 10240 MB'));
    expect(verdict).toEqual({ retryable: false, sentence: 'Stopped: disk limit reached: the worktree grew past 10240 MB. Nothing was published.' });
  });

  it('retries a job that found every sandbox uid in use', () => {
    expect(classifyJobError(new SandboxCapacityError('uids-exhausted', 'every sandbox uid is in use')).retryable).toBe(true);
  });
});
