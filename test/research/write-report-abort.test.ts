import { describe, expect, it } from 'vitest';
import { AbortedError } from '../../src/core/errors/index.js';
import type { ResearchEvidence } from '../../src/events/research-result.js';
import type { LlmClient } from '../../src/providers/spec/llm-client.js';
import { createResearchContext } from '../../src/research/research-context.js';
import { writeReport } from '../../src/research/write/write-report.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createTestConfig } from '../../src/testing/test-config.js';

// Two sources, so the writer compares them (a call of its own, started with the drafts).
const section = (id: string, heading: string, url: string) => ({
  section: { id, heading, questions: [`What about ${heading}?`] },
  findings: [
    {
      question: `What about ${heading}?`,
      answer: `${heading} changed.[^1]`,
      references: [
        { index: 1, url, title: heading, quote: `${heading} changed`, quoteKind: 'exact' as const },
      ],
      confidence: 'high' as const,
      runId: `part-${id}`,
    },
  ],
  coverage: { items: [], ratio: 1, hops: 1 },
});
const sales = section('s1', 'Sales', 'https://ehpa.example.org/sales');
const policy = section('s2', 'Policy', 'https://iea.example.org/policy');

const evidence: ResearchEvidence = {
  plan: {
    topic: 'Heat pumps',
    title: 'Heat pumps',
    language: 'English',
    sections: [sales.section, policy.section],
    dataPoints: [],
  },
  sections: [sales, policy],
  contradictions: [],
};

describe('research writer, cancelled while drafting', () => {
  it('rejects with the abort and leaves no rejection unhandled (comparing sources fails first)', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    // Every call waits until the run is cancelled; the first one started (comparing sources) is
    // the first to fail, while the sections' drafts are still pending.
    const llm: LlmClient = {
      specificationVersion: 'v1',
      generateObject: (request) => {
        calls.push(request.schemaName ?? '');
        return new Promise((_, reject) =>
          request.signal?.addEventListener('abort', () => reject(new AbortedError()), { once: true }),
        );
      },
      generateText: () => Promise.reject(new Error('no text calls here')),
    };
    const config = createTestConfig();
    const research = createResearchContext({
      topic: evidence.plan.topic,
      config,
      llm,
      search: createFakeSearch({}),
      reader: createFakeReader({}),
      signal: controller.signal,
    });
    try {
      const written = writeReport(research, evidence);
      await new Promise((done) => setTimeout(done, 20));
      expect(calls.sort()).toEqual(['research_contradictions', 'research_section', 'research_section']);
      controller.abort();
      await expect(written).rejects.toThrow(AbortedError);
      await new Promise((done) => setTimeout(done, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
