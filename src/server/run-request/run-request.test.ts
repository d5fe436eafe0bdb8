import { describe, expect, it } from 'vitest';
import { budgetPresets } from '../../config/budget-presets.js';
import { createTestConfig } from '../../testing/test-config.js';
import { type ChatRequest, chatRequestSchema } from './chat-request-schema.js';
import { toChatRunRequest } from './run-request.js';

const config = createTestConfig({
  budget: { maxSteps: 12 },
  search: { boostHostnames: ['docs.python.org'], searxngUrl: 'http://127.0.0.1:8888' },
});
const context = { config, models: ['deepsearch'], searchProviders: ['fake', 'searxng', 'brave', 'serper'] };
const request = (extra: Record<string, unknown> = {}): ChatRequest =>
  chatRequestSchema.parse({
    model: 'deepsearch',
    messages: [{ role: 'user', content: 'What is new in Python 3.14?' }],
    ...extra,
  });

describe('toChatRunRequest', () => {
  it('keeps the server config when the request sets nothing', () => {
    const run = toChatRunRequest(request(), context);
    expect(run.config).toEqual(config);
    expect(run).toMatchObject({
      question: 'What is new in Python 3.14?',
      history: [],
      stream: false,
      includeUsage: false,
      thinkTags: false,
    });
  });

  it('reads every OpenAI effort in any case: none and minimal run the low preset, xhigh the high one', () => {
    const budgetFor = (effort: string) =>
      toChatRunRequest(request({ reasoning_effort: effort }), context).config.budget;
    expect(budgetFor('NONE')).toEqual(budgetPresets.low);
    expect(budgetFor('minimal')).toEqual(budgetPresets.low);
    expect(budgetFor('Medium')).toEqual(budgetPresets.medium);
    expect(budgetFor('xhigh')).toEqual(budgetPresets.high);
    expect(() => request({ reasoning_effort: 'extreme' })).toThrow();
  });

  it('refuses only a tool_choice that forces a tool', () => {
    const choose = (tool_choice: unknown) => () => toChatRunRequest(request({ tool_choice }), context);
    for (const fine of ['auto', 'none', { type: 'allowed_tools', mode: 'auto', tools: [] }]) {
      expect(choose(fine)).not.toThrow();
    }
    expect(choose({ type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } })).not.toThrow();
    for (const forced of [
      'required',
      { type: 'function', function: { name: 'calc' } },
      { type: 'function', name: 'calc' },
      { type: 'web_search_preview' },
      { type: 'allowed_tools', mode: 'required', tools: [] },
    ]) {
      expect(choose(forced)).toThrow('tools are not supported');
    }
  });

  it('maps reasoning_effort to a budget preset, and explicit limits win over the preset', () => {
    expect(toChatRunRequest(request({ reasoning_effort: 'low' }), context).config.budget).toEqual(
      budgetPresets.low,
    );
    const high = toChatRunRequest(
      request({ reasoning_effort: 'high', max_steps: 5, budget_tokens: 50_000, max_attempts: 1 }),
      context,
    );
    expect(high.config.budget).toEqual({
      ...budgetPresets.high,
      maxSteps: 5,
      maxTokens: 50_000,
      maxAttempts: 1,
    });
  });

  it('maps host lists, language, no_direct_answer, search_provider and since onto the run config', () => {
    const run = toChatRunRequest(
      request({
        boost_hostnames: ['peps.python.org'],
        bad_hostnames: ['w3schools.com'],
        only_hostnames: ['python.org', 'docs.python.org'],
        language: 'French',
        no_direct_answer: true,
        search_provider: 'searxng',
        since: '30d',
      }),
      context,
    );
    expect(run.config.search).toMatchObject({
      provider: 'searxng',
      since: '30d',
      boostHostnames: ['peps.python.org'],
      badHostnames: ['w3schools.com'],
      onlyHostnames: ['python.org', 'docs.python.org'],
    });
    expect(run.config.agent).toMatchObject({ language: 'French', noDirectAnswer: true });
    expect(run.config.budget.maxSteps).toBe(12);
    expect(config.search.provider).toBe('fake');
  });

  it('reads stream, include_usage and think_tags', () => {
    const run = toChatRunRequest(
      request({ stream: true, stream_options: { include_usage: true }, think_tags: true }),
      context,
    );
    expect(run).toMatchObject({ stream: true, includeUsage: true, thinkTags: true });
  });

  it('refuses an unknown model with a 404 and an unknown search provider with a 400', () => {
    expect(() => toChatRunRequest(request({ model: 'gpt-4o' }), context)).toThrow(
      expect.objectContaining({ status: 404, code: 'model_not_found' }),
    );
    expect(() => toChatRunRequest(request({ search_provider: 'bing' }), context)).toThrow(
      expect.objectContaining({
        param: 'search_provider',
        message: "unknown search provider 'bing' (available: fake, searxng, brave, serper)",
      }),
    );
  });

  it('refuses an engine the server has no key for, naming the variable, and takes one it has a key for', () => {
    expect(() => toChatRunRequest(request({ search_provider: 'brave' }), context)).toThrow(
      expect.objectContaining({
        param: 'search_provider',
        code: 'search_provider_not_configured',
        message: expect.stringContaining('set BRAVE_API_KEY where the server runs'),
      }),
    );
    const keyed = createTestConfig({ search: { apiKeys: { serper: 'serper-secret' } } });
    const run = toChatRunRequest(request({ search_provider: 'serper' }), { ...context, config: keyed });
    expect(run.config.search.provider).toBe('serper');
    const noInstance = createTestConfig({});
    expect(() =>
      toChatRunRequest(request({ search_provider: 'searxng' }), { ...context, config: noInstance }),
    ).toThrow(expect.objectContaining({ message: expect.stringMatching(/needs a SearXNG instance/) }));
  });
});
