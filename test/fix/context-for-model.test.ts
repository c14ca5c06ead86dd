import { contextForModel } from '../../src/fix/context-for-model.js';
import { FIX_CONTEXT } from '../../src/fix/defaults.js';
import type { ChatModel } from '../../src/model/types.js';

const model = (contextWindow?: number): ChatModel => ({ name: 'm', ...(contextWindow ? { contextWindow } : {}), complete: () => Promise.reject(new Error('not asked')) });

describe('contextForModel', () => {
  it('keeps the configured budget when the window has room, and caps it where the window is smaller', () => {
    expect(contextForModel(model(400_000), 20_000)).toEqual({ ...FIX_CONTEXT, maxTokens: 20_000 });
    expect(contextForModel(model(), 100_000).maxTokens).toBe(100_000);
    // A 32k local model asked for 60,000: its window less a full reply.
    expect(contextForModel(model(32_768), 60_000).maxTokens).toBe(32_768 - 4_096);
  });
});
