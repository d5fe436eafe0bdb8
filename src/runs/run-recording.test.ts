import { describe, expect, it } from 'vitest';
import { createTestConfig } from '../testing/test-config.js';
import { startRecording } from './run-recording.js';
import { createRunStore } from './run-store.js';

const page = (url: string, text: string, fetchedAt: string) => ({
  url,
  title: `title ${url}`,
  text,
  markdown: text,
  step: 1,
  fetchedAt,
});
const result = (urls: string[]) => ({
  answer: 'a',
  references: urls.map((url, index) => ({
    index: index + 1,
    url,
    title: url,
    quote: 'q',
    quoteKind: 'exact',
  })),
});

function record(store: ReturnType<typeof createRunStore>, runId: string, resumed = false) {
  return startRecording({
    store,
    runId,
    question: 'q',
    config: createTestConfig(),
    redact: (text) => text,
    record: resumed ? { resumed: store.get(runId)! } : {},
    warn: (message) => {
      throw new Error(message);
    },
  })!;
}

describe('recording the sources a run cites', () => {
  it('keeps the pages read that the result cites (once per URL), none it does not', () => {
    const store = createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 10 } });
    const recording = record(store, 'r1');
    recording.pageRead(page('https://a.example/x', 'text of a', '2026-12-05T10:00:00.000Z'));
    recording.pageRead(page('https://b.example/', 'not cited', '2026-12-05T10:00:01.000Z'));
    recording.settle({
      result: result(['https://a.example/x', 'https://A.example/x', 'https://snippet.example/']),
    });
    expect(store.sources('r1').map((source) => [source.url, source.text, source.fetchedAt])).toEqual([
      ['https://a.example/x', 'text of a', '2026-12-05T10:00:00.000Z'],
    ]);
  });

  it("a resumed run's pages read before the resume come from the checkpoint it went on from", () => {
    const store = createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 10 } });
    const first = record(store, 'r2');
    const earlier = page('https://early.example/', 'read before the kill', '2026-12-01T00:00:00.000Z');
    first.pageRead(earlier);
    void first.checkpoint({
      $schemaVersion: 1,
      step: 1,
      state: { pages: [{ keys: ['early.example/'], page: earlier }] },
      budget: {},
    } as never);
    const resumed = record(store, 'r2', true);
    resumed.pageRead(page('https://late.example/', 'read after', '2026-12-02T00:00:00.000Z'));
    resumed.settle({ result: result(['https://early.example/', 'https://late.example/']) });
    expect(store.sources('r2').map((source) => [source.text, source.fetchedAt])).toEqual([
      ['read before the kill', '2026-12-01T00:00:00.000Z'],
      ['read after', '2026-12-02T00:00:00.000Z'],
    ]);
  });
});
