import { describe, expect, it } from '@jest/globals';
import { createAfterAnswer } from '../../src/app/after-answer.js';

/** A task the test ends by hand. */
function heldTask(log: string[], name: string) {
  let end!: () => void;
  let fail!: (e: Error) => void;
  const task = () => {
    log.push(`start ${name}`);
    return new Promise<void>((resolve, reject) => ((end = resolve), (fail = reject)));
  };
  return { task, end: () => end(), fail: (message: string) => fail(new Error(message)) };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('createAfterAnswer', () => {
  it('runs at most `concurrency` tasks at once, the others in order as slots free up; idle() waits for all', async () => {
    const log: string[] = [];
    const warnings: string[] = [];
    const after = createAfterAnswer({ warn: (_obj, msg) => warnings.push(msg), concurrency: 2 });
    const tasks = ['a', 'b', 'c', 'd'].map((name) => heldTask(log, name));
    for (const [i, t] of tasks.entries()) after.run(`task ${i}`, t.task);
    let idle = false;
    const waiting = after.idle().then(() => (idle = true));
    await turns();
    expect(log).toEqual(['start a', 'start b']);
    tasks[1]!.fail('boom'); // a failure frees its slot too, and is only a warning
    await turns();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    expect(warnings).toEqual(['task 1 failed']);
    tasks[0]!.end();
    await turns();
    expect(log).toEqual(['start a', 'start b', 'start c', 'start d']);
    expect(idle).toBe(false);
    tasks[2]!.end();
    tasks[3]!.end();
    await waiting;
    expect(idle).toBe(true);
  });

  it('a task started from a running task waits its turn without blocking the one that started it', async () => {
    const log: string[] = [];
    const after = createAfterAnswer({ warn: () => undefined, concurrency: 1 });
    after.run('outer', async () => {
      log.push('outer');
      after.run('inner', async () => void log.push('inner'));
      log.push('outer done');
    });
    await after.idle();
    expect(log).toEqual(['outer', 'outer done', 'inner']);
  });

  it('refuses a concurrency that is not a positive integer', () => {
    expect(() => createAfterAnswer({ warn: () => undefined, concurrency: 0 })).toThrow(RangeError);
  });
});
