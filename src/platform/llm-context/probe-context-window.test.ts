import { afterEach, describe, expect, it } from 'vitest';
import { createFakeServerSlot } from '../../../test/helpers/fake-server-slot.js';
import type { FakeHttpHandler, RecordedRequest } from '../../testing/fake-http-server.js';
import { sendJson } from '../../testing/fake-llm-script.js';
import { probeContextWindow } from './probe-context-window.js';

const slot = createFakeServerSlot();
afterEach(() => slot.close());

/** A server answering the given `METHOD /path` routes with JSON and everything else with 404, as real ones do. */
function serverWith(
  routes: Record<string, unknown | ((request: RecordedRequest) => unknown)>,
): FakeHttpHandler {
  return (request, response) => {
    const route = routes[`${request.method} ${request.path}`];
    if (route === undefined) return sendJson(response, 404, { error: 'not found' });
    sendJson(response, 200, typeof route === 'function' ? route(request) : route);
  };
}

async function probe(
  handler: FakeHttpHandler,
  model: string,
  extra: { apiKey?: string; timeoutMs?: number } = {},
) {
  const server = await slot.start(handler);
  const window = await probeContextWindow({ baseURL: `${server.url}/v1`, model, ...extra });
  return { window, server };
}

const ollamaList = { object: 'list', data: [{ id: 'qwen2.5:7b', object: 'model', owned_by: 'library' }] };

describe('probeContextWindow', () => {
  it('reads num_ctx from Ollama /api/show, asking for the model by name', async () => {
    const { window, server } = await probe(
      serverWith({
        'GET /v1/models': ollamaList,
        'GET /api/ps': { models: [] },
        'POST /api/show': {
          parameters: 'stop                           "<|im_end|>"\nnum_ctx                        8192',
          model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 },
        },
      }),
      'qwen2.5:7b',
    );
    expect(window).toEqual({ tokens: 8192, source: 'Ollama /api/show num_ctx' });
    const show = server.requests.find((request) => request.path === '/api/show')!;
    expect(JSON.parse(show.body)).toEqual({ model: 'qwen2.5:7b' });
  });

  it('prefers the loaded model in Ollama /api/ps, then falls back to the model maximum', async () => {
    const show = {
      parameters: '',
      model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 },
    };
    const loaded = await probe(
      serverWith({
        'GET /api/ps': { models: [{ name: 'llama3.1:8b', model: 'llama3.1:8b', context_length: 4096 }] },
        'POST /api/show': show,
      }),
      'llama3.1:8b',
    );
    expect(loaded.window).toEqual({
      tokens: 4096,
      source: 'Ollama /api/ps context_length (the loaded model)',
    });
    const idle = await probe(
      serverWith({ 'GET /api/ps': { models: [] }, 'POST /api/show': show }),
      'llama3.1:8b',
    );
    expect(idle.window?.tokens).toBe(131072);
  });

  it('reads n_ctx from llama.cpp /props, not the training length in /v1/models', async () => {
    const { window } = await probe(
      serverWith({
        'GET /v1/models': { object: 'list', data: [{ id: 'model.gguf', meta: { n_ctx_train: 131072 } }] },
        'GET /props': { default_generation_settings: { n_ctx: 4096, params: {} }, total_slots: 1 },
      }),
      'model.gguf',
    );
    expect(window).toEqual({ tokens: 4096, source: 'llama.cpp /props n_ctx' });
  });

  it("reads vLLM's max_model_len from /v1/models, sending the key", async () => {
    const { window, server } = await probe(
      serverWith({
        'GET /v1/models': {
          object: 'list',
          data: [
            { id: 'other', max_model_len: 2048 },
            { id: 'Qwen/Qwen2.5-7B-Instruct', object: 'model', max_model_len: 16384 },
          ],
        },
      }),
      'Qwen/Qwen2.5-7B-Instruct',
      { apiKey: 'sk-local' },
    );
    expect(window).toEqual({ tokens: 16384, source: '/v1/models max_model_len' });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-local');
  });

  it("reads LM Studio's loaded context length", async () => {
    const { window } = await probe(
      serverWith({
        'GET /api/v0/models/qwen2.5-7b-instruct': {
          id: 'qwen2.5-7b-instruct',
          state: 'loaded',
          max_context_length: 32768,
          loaded_context_length: 8192,
        },
      }),
      'qwen2.5-7b-instruct',
    );
    expect(window?.tokens).toBe(8192);
  });

  it('gives undefined for a server that says nothing, and for one that hangs', async () => {
    expect((await probe(serverWith({ 'GET /v1/models': ollamaList }), 'qwen2.5:7b')).window).toBeUndefined();
    const hanging = await probe(() => undefined, 'qwen2.5:7b', { timeoutMs: 200 });
    expect(hanging.window).toBeUndefined();
  });
});
