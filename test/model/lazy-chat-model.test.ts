import { lazyChatModel } from '../../src/model/lazy-chat-model.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';

const REQUEST = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

describe('lazyChatModel', () => {
  it('loads the implementation at the first request only, once, and answers through it', async () => {
    let loads = 0;
    const model = lazyChatModel('gpt-test', async () => {
      loads += 1;
      return new ScriptedModel([{ content: 'one' }, { content: 'two' }]);
    });
    expect(model.name).toBe('gpt-test');
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([model.complete({ ...REQUEST, turn: 0 }), model.complete({ ...REQUEST, turn: 1 })]);
    expect(loads).toBe(1);
    expect([a.message.content, b.message.content]).toEqual(['one', 'two']);
  });

  it('a failed load fails that request and is tried again at the next', async () => {
    let loads = 0;
    const model = lazyChatModel('m', async () => {
      loads += 1;
      if (loads === 1) throw new Error('module not found');
      return new ScriptedModel([{ content: 'ok' }]);
    });
    await expect(model.complete(REQUEST)).rejects.toThrow('module not found');
    expect((await model.complete(REQUEST)).message.content).toBe('ok');
    expect(loads).toBe(2);
  });
});
