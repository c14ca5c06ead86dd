import { classifyJobError } from '../../src/run/classify-job-error.js';
import { SandboxCapacityError, SandboxLimitError } from '../../src/sandbox/errors.js';

describe('classifyJobError: sandbox limits', () => {
  it('ends a job stopped by the disk watchdog for good, saying why', () => {
    const verdict = classifyJobError(new SandboxLimitError('disk', 10240, 'disk limit reached: the worktree grew past 10240 MB'));
    expect(verdict).toEqual({ retryable: false, sentence: 'Stopped: disk limit reached: the worktree grew past 10240 MB. Nothing was published.' });
  });

  it('retries a job that found every sandbox uid in use', () => {
    expect(classifyJobError(new SandboxCapacityError('uids-exhausted', 'every sandbox uid is in use')).retryable).toBe(true);
  });
});
