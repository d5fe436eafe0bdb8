import { describe, expect, it } from 'vitest';
import { createTestConfig } from '../testing/test-config.js';
import { loadConfig } from './load-config.js';
import { applyServiceSettings, serviceSettings } from './service-settings.js';

describe('service settings of a run', () => {
  it('keep provider choices, base URLs and models, never a key', () => {
    const config = createTestConfig({
      llm: {
        apiKey: 'sk-never-stored-4f9a2b7c',
        roles: { planner: { model: 'big', apiKey: 'sk-role-key-0b6e55aa' } },
      },
      search: { searxngUrl: 'http://127.0.0.1:8888', apiKeys: { brave: 'brave-key-41d2e8ab' } },
      embedding: { provider: 'jina', apiKey: 'jina_key_4f9a2b7c1d8e' },
    });
    const services = serviceSettings(config);
    expect(services.llm).toMatchObject({
      provider: 'openai-compatible',
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'scripted-model',
    });
    expect(services.llm.roles).toEqual({ planner: { model: 'big' } });
    expect(services.search.searxngUrl).toBe('http://127.0.0.1:8888');
    expect(services.embedding.provider).toBe('jina');
    expect(JSON.stringify(services)).not.toMatch(/key/i);
  });

  it("replace today's as a whole (a stored vendor never meets today's base URL); keys and flags set now stay", () => {
    const ran = createTestConfig({ llm: { provider: 'openai', baseURL: undefined, model: 'gpt-x' } });
    const today = loadConfig({
      env: {
        DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
        DEEPSEARCH_LLM_MODEL: 'qwen',
        OPENAI_API_KEY: 'sk-today-4f9a2b7c1d8e',
      },
      flags: { 'max-steps': '5' },
    });
    const resumed = applyServiceSettings(today, serviceSettings(ran));
    expect(resumed.llm).toMatchObject({ provider: 'openai', model: 'gpt-x' });
    expect(resumed.llm.baseURL).toBeUndefined();
    expect(resumed.budget.maxSteps).toBe(5);
    const flagged = loadConfig({
      env: { DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' },
      flags: { 'llm-model': 'now' },
    });
    const kept = applyServiceSettings(flagged, serviceSettings(ran), (path) => path === 'llm.model');
    expect(kept.llm.model).toBe('now');
  });
});
