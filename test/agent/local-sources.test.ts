import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderAnswerMarkdown } from '../../src/agent/citations/format-footnotes.js';
import { createFileReader } from '../../src/providers/reader/file/file-reader.js';
import { createSchemeReader } from '../../src/providers/reader/scheme-reader.js';
import type { Page, PageReader } from '../../src/providers/spec/page-reader.js';
import { HostHealth } from '../../src/retrieval/host-health.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, runAgent } from '../helpers/agent-harness.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deepsearch-local-sources-'));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const tideNotes = `# Brest tide notes

Measured by the harbour office in March.

High tide in Brest on 3 March came at 11:42, with a coefficient of 95.
Low tide followed at 17:58.
`;

/** Records the sources asked of each scheme. */
function spying(reader: PageReader, calls: string[]): PageReader {
  return {
    specificationVersion: 'v1',
    id: reader.id,
    read: (url, options) => {
      calls.push(url);
      return reader.read(url, options);
    },
  };
}

describe('local sources in the loop', () => {
  it('reads a file: source named in the question and cites it with a verified quote', async () => {
    const path = join(directory, 'tide notes.md');
    await writeFile(path, tideNotes);
    const fileUrl = pathToFileURL(path).href;
    const web = createFakeReader({});
    const fileCalls: string[] = [];
    const reader = createSchemeReader({
      readers: {
        'https:': web,
        'http:': web,
        'file:': spying(createFileReader({ allowFiles: true, roots: [directory] }), fileCalls),
      },
    });
    const hostHealth = new HostHealth();
    const { result, llm, events } = await runAgent(`When was high tide in Brest on 3 March? See ${fileUrl}`, {
      reader,
      hostHealth,
      steps: [
        { ...scriptedStep.visit(['1']), expect: { schemaName: 'agent_action', promptIncludes: fileUrl } },
        scriptedStep.answer('High tide in Brest on 3 March came at 11:42[^1].', [
          { url: fileUrl, quote: 'high tide in brest on 3 march came at 11:42' },
        ]),
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    expect(fileCalls).toEqual([fileUrl]);
    expect(web.calls).toEqual([]);
    expect(result.origin).toBe('evaluated');
    expect(result.references).toEqual([
      {
        index: 1,
        url: fileUrl,
        title: 'Brest tide notes',
        quote: 'High tide in Brest on 3 March came at 11:42',
        quoteKind: 'exact',
      },
    ]);
    expect(result.answer).toBe('High tide in Brest on 3 March came at 11:42[^1].');
    expect(renderAnswerMarkdown(result.answer, result.references)).toContain(
      `[^1]: "High tide in Brest on 3 March came at 11:42" [Brest tide notes](${fileUrl})`,
    );
    expect(result.visitedUrls).toEqual([fileUrl]);
    expect(eventsOf(events, 'read-end')).toMatchObject([{ url: fileUrl, ok: true }]);
    // A local file has no host: nothing is recorded for it, nothing is saved.
    expect(hostHealth.snapshot()).toEqual({});
  });

  it('a failed local read is a note in the run, and leaves host health untouched', async () => {
    const fileUrl = pathToFileURL(join(directory, 'missing.md')).href;
    const reader = createSchemeReader({
      readers: { 'file:': createFileReader({ allowFiles: true, roots: [directory] }) },
    });
    const hostHealth = new HostHealth();
    const { result, events } = await runAgent(`What does ${fileUrl} say?`, {
      reader,
      hostHealth,
      steps: [
        scriptedStep.visit([fileUrl]),
        {
          ...scriptedStep.finalAnswer('I could not read the file.'),
          expect: { schemaName: 'final_answer', promptIncludes: 'no such file' },
        },
      ],
      config: { budget: { maxSteps: 2 } },
    });
    expect(eventsOf(events, 'read-end')).toMatchObject([
      { url: fileUrl, ok: false, error: expect.stringContaining('no such file') },
    ]);
    expect(result.answer).toContain('could not read');
    expect(hostHealth.snapshot()).toEqual({});
  });

  it('never reads a file: link found on a web page, even when the model asks for it', async () => {
    const webUrl = 'https://tides.example/brest';
    const html = `<html><head><title>Brest tides</title></head><body><article><h1>Brest tides</h1>
<p>High tide in Brest on 3 March came at 11:42 according to the harbour office.</p>
<p>More at <a href="https://tides.example/archive">the archive</a>.</p></article></body></html>`;
    const web = createFakeReader({ [webUrl]: html });
    // As if a reader had kept the page's file: links (the builtin extractor already drops them).
    const leakyWeb: PageReader = {
      specificationVersion: 'v1',
      id: 'leaky',
      read: async (url, options): Promise<Page> => {
        const page = await web.read(url, options);
        return { ...page, links: [...page.links, { url: 'file:///etc/passwd', text: 'secrets' }] };
      },
    };
    const fileCalls: string[] = [];
    const reader = createSchemeReader({
      readers: {
        'https:': leakyWeb,
        'file:': spying(createFileReader({ allowFiles: true }), fileCalls),
      },
    });
    const hostHealth = new HostHealth();
    const { result, llm } = await runAgent('When was high tide in Brest on 3 March?', {
      reader,
      hostHealth,
      search: { 'Brest tide 3 March': [{ url: webUrl, title: 'Brest tides', snippet: 'tides' }] },
      steps: [
        scriptedStep.search(['Brest tide 3 March']),
        scriptedStep.visit([webUrl]),
        {
          ...scriptedStep.visit(['file:///etc/passwd']),
          expect: { schemaName: 'agent_action', promptExcludes: 'file:///etc/passwd' },
        },
        scriptedStep.answer('High tide came at 11:42[^1].', [
          { url: webUrl, quote: 'High tide in Brest on 3 March came at 11:42' },
          { url: 'file:///etc/passwd', quote: 'root:x:0:0' },
        ]),
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    expect(fileCalls).toEqual([]);
    expect(result.visitedUrls).toEqual([webUrl]);
    expect(result.references.map((reference) => reference.url)).toEqual([webUrl]);
    // The web page's host is recorded as usual.
    expect(Object.keys(hostHealth.snapshot())).toEqual(['tides.example']);
  });
});
