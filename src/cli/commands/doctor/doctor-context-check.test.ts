import { describe, expect, it } from 'vitest';
import type { ContextWindow } from '../../../platform/llm-context/probe-context-window.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { createTestConfig } from '../../../testing/test-config.js';
import { checkContextWindow } from './doctor-context-check.js';

function runtimeWith(window: ContextWindow | undefined, mode: 'json-schema' | 'prompt'): DeepSearchRuntime {
  const llm = {
    describe: () => ({ structuredOutput: mode }),
    contextWindow: async () => window,
  };
  return { llm } as unknown as DeepSearchRuntime;
}

const config = createTestConfig({ llm: { contextTokens: 32_768 } });

describe('checkContextWindow', () => {
  it('passes when the server window holds the budget, naming the structured-output mode', async () => {
    const result = await checkContextWindow(
      config,
      runtimeWith({ tokens: 32_768, source: 'Ollama /api/ps' }, 'json-schema'),
    );
    expect(result).toMatchObject({ name: 'context', ok: true });
    expect(result.detail).toContain('window 32768 tokens (Ollama /api/ps) holds the budget of 32768');
    expect(result.detail).toContain('JSON schema');
  });

  it('says prompts will be fitted to a smaller window, with the fix, and fails below 4k', async () => {
    const small = await checkContextWindow(
      config,
      runtimeWith({ tokens: 8192, source: 'llama.cpp /props' }, 'prompt'),
    );
    expect(small.ok).toBe(true);
    expect(small.detail).toContain('smaller than the budget of 32768');
    expect(small.detail).toContain('small-context profile');
    expect(small.detail).toContain('prompt mode');
    const tiny = await checkContextWindow(
      config,
      runtimeWith({ tokens: 2048, source: 'Ollama num_ctx' }, 'json-schema'),
    );
    expect(tiny.ok).toBe(false);
    expect(tiny.fix).toContain('OLLAMA_CONTEXT_LENGTH');
  });

  it('passes when the server does not say its window', async () => {
    const result = await checkContextWindow(config, runtimeWith(undefined, 'json-schema'));
    expect(result).toMatchObject({ ok: true });
    expect(result.detail).toContain('does not say its window');
  });
});
