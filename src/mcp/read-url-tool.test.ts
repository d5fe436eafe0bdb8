import { describe, expect, it } from 'vitest';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import { readUrlTool } from './read-url-tool.js';

const shellReason =
  'an app shell whose scripts wrote no text within 20 s in Chromium (limit: DEEPSEARCH_READER_TIMEOUT)';

function runtimeReading(page: Record<string, unknown>): DeepSearchRuntime {
  const reader = {
    specificationVersion: 'v1',
    id: 'browser',
    read: async (url: string) => ({
      requestedUrl: url,
      url,
      title: 'App',
      markdown: '',
      text: '',
      links: [],
      contentType: 'text/html',
      ...page,
    }),
  };
  return { reader } as unknown as DeepSearchRuntime;
}

function context(runtime: DeepSearchRuntime) {
  return { runtime, owner: 'local', signal: new AbortController().signal, onEvent: () => undefined };
}

describe('read_url', () => {
  it('says why an app shell came out empty, in its text and its structured result', async () => {
    const output = await readUrlTool.run(
      { url: 'https://app.example/' },
      context(runtimeReading({ emptyShell: true, emptyReason: shellReason })),
    );
    expect(output.text).toContain(`note: this page is ${shellReason}`);
    expect(output.structured).toMatchObject({ url: 'https://app.example/', empty_reason: shellReason });
  });

  it('an ordinary page has no note', async () => {
    const output = await readUrlTool.run(
      { url: 'https://site.example/' },
      context(runtimeReading({ markdown: 'Text.', text: 'Text.' })),
    );
    expect(output.text).not.toContain('note:');
    expect(output.structured).not.toHaveProperty('empty_reason');
  });
});
