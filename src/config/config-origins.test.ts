import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { resolveLlmSettings } from './resolve-llm-settings.js';

function missingModelMessage(options: Parameters<typeof loadConfig>[0]): string {
  try {
    resolveLlmSettings(loadConfig(options), 'agent');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a missing-model error');
}

describe('hints name where the setting is configured', () => {
  it("names the config file's key when the file set the server without a model", () => {
    const message = missingModelMessage({
      file: { $comment: 'ignored', llm: { $comment: 'ignored too', baseURL: 'http://127.0.0.1:11434/v1' } },
      fileName: '/home/me/deepsearch.config.json',
    });
    expect(message).toContain('set "llm.model" in deepsearch.config.json to a model it serves');
    expect(message).not.toContain('DEEPSEARCH_LLM_MODEL');
  });

  it('names the variable and the flag when the environment set the server', () => {
    const message = missingModelMessage({ env: { DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' } });
    expect(message).toContain('set DEEPSEARCH_LLM_MODEL (or --llm-model) to a model it serves');
  });
});
