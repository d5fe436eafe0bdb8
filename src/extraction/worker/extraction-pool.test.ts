import { afterEach, describe, expect, it } from 'vitest';
import { hostileDocuments } from '../../../test/helpers/hostile-documents.js';
import { isProcessRunning } from '../../../test/helpers/process-state.js';
import { extractionConfigSchema } from '../../config/config-schema.js';
import { residentBytes } from '../../platform/child-process/process-memory.js';
import { htmlInput } from './content-extractor.js';
import { createExtractionPool, type ExtractionPool } from './extraction-pool.js';
import { acquireExtractionPool } from './shared-extraction-pool.js';

const pools: ExtractionPool[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});

function pool(settings: Record<string, unknown> = {}): ExtractionPool {
  const made = createExtractionPool(extractionConfigSchema.parse({ concurrency: 1, ...settings }));
  pools.push(made);
  return made;
}

const page = (html: string) => htmlInput({ html, url: 'https://site.test/page', providerId: 'test' });
const article =
  '<html><head><title>Pool</title></head><body><article><h1>Pool</h1><p>Parsed in a child process, far from the event loop of the process that asked for it.</p></article></body></html>';

describe('createExtractionPool', () => {
  it('parses HTML given with its URL in a child process, which stays for the next job', async () => {
    const extraction = pool();
    const first = await extraction.extract(page(article));
    expect(first.page).toMatchObject({
      title: 'Pool',
      url: 'https://site.test/page',
      contentType: 'text/html',
    });
    expect(first.page.text).toContain('Parsed in a child process');
    const [pid] = extraction.pids;
    expect(pid).not.toBe(process.pid);
    await extraction.extract(page(article));
    expect(extraction.pids).toEqual([pid]);
  });

  it('passes a page that fails to parse back as the reader error it is', async () => {
    await expect(
      pool().extract({
        requestedUrl: 'https://site.test/x.pdf',
        providerId: 'test',
        fetched: {
          url: 'https://site.test/x.pdf',
          status: 200,
          contentType: 'application/pdf',
          bytes: hostileDocuments.garbagePdf(),
          truncated: false,
        },
      }),
    ).rejects.toMatchObject({ code: 'page_unreadable', providerId: 'test' });
  });

  it('kills a job past its deadline, fails naming the limit, and starts a new process for the next', async () => {
    // 3,000 nested divs under a lifted depth limit: minutes of extraction.
    const extraction = pool({ timeoutSeconds: 1, maxNestingDepth: 1_000_000 });
    await extraction.extract(page(article));
    const [pid] = extraction.pids;
    await expect(extraction.extract(page(hostileDocuments.nestedDivs(3000)))).rejects.toMatchObject({
      code: 'page_over_limit',
      message:
        'https://site.test/page took more than 1 s to read; it was stopped (limit: DEEPSEARCH_EXTRACT_TIMEOUT)',
    });
    expect(extraction.pids).toEqual([]);
    await expect.poll(() => isProcessRunning(pid!)).toBe(false);
    expect((await extraction.extract(page(article))).page.title).toBe('Pool');
    expect(extraction.pids).not.toContain(pid);
  });

  it('sends pages behind one another to a process; a page behind a killed one is read by another process', async () => {
    const extraction = pool({ timeoutSeconds: 1, maxNestingDepth: 1_000_000 });
    await extraction.extract(page(article));
    const [pid] = extraction.pids;
    // One process, four pages at once: the hostile one first, three ordinary ones waiting behind it
    // in the same process. The hostile one is stopped at its deadline; the others did nothing wrong.
    const hostile = extraction.extract(page(hostileDocuments.nestedDivs(3000)));
    const ordinary = [1, 2, 3].map((n) =>
      extraction.extract(page(article.replace('Parsed in', `Page ${n} parsed in`))),
    );
    await expect(hostile).rejects.toMatchObject({ code: 'page_over_limit' });
    const read = await Promise.all(ordinary);
    expect(read.map((content) => content.page.text.match(/Page \d/)?.[0])).toEqual([
      'Page 1',
      'Page 2',
      'Page 3',
    ]);
    expect(extraction.pids).not.toContain(pid);
  });

  it("starts a waiting page's deadline when its turn comes, not when it was sent", async () => {
    // A page that takes about a second here; the deadline is 1.7 times its time, alone. Sent
    // together to one process, the second would pass that deadline if it were counted from its
    // sending (it waits for the first), and does not when counted from its turn.
    const slow = page(hostileDocuments.nestedDivs(300));
    const calibration = pool({ maxNestingDepth: 1_000_000 });
    await calibration.extract(page(article));
    let oneMs = 0;
    for (let run = 0; run < 2; run++) {
      const started = performance.now();
      await calibration.extract(slow);
      oneMs = Math.max(oneMs, performance.now() - started);
    }
    const extraction = pool({ timeoutSeconds: (1.7 * oneMs) / 1000, maxNestingDepth: 1_000_000 });
    await extraction.extract(page(article));
    const [pid] = extraction.pids;
    const both = await Promise.all([extraction.extract(slow), extraction.extract(slow)]);
    expect(both.map((content) => content.page.title)).toEqual(['Deep page', 'Deep page']);
    expect(extraction.pids).toEqual([pid]);
  });

  it.skipIf(process.platform !== 'linux')(
    'kills a job whose process passes its memory cap, ArrayBuffers included, naming the limit',
    async () => {
      // The inflate check lifted: PDF.js inflates a 400 MB stream into typed arrays, outside V8's heap.
      const extraction = pool({ memoryMb: 300, maxInflatedBytes: 2 ** 30 });
      const pdf = hostileDocuments.inflatingPdf(400);
      const input = page('');
      input.fetched = { ...input.fetched, contentType: 'application/pdf', bytes: pdf };
      await expect(extraction.extract(input)).rejects.toMatchObject({
        code: 'page_over_limit',
        message:
          'https://site.test/page needed more than 300 MB to read; it was stopped (limit: DEEPSEARCH_EXTRACT_MEMORY_MB)',
      });
      expect(extraction.pids).toEqual([]);
    },
  );

  it('kills the job of a read that is cancelled', async () => {
    const extraction = pool({ maxNestingDepth: 1_000_000 });
    await extraction.extract(page(article));
    const [pid] = extraction.pids;
    const controller = new AbortController();
    const pending = extraction.extract(page(hostileDocuments.nestedDivs(3000)), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    await expect.poll(() => isProcessRunning(pid!)).toBe(false);
  });
});

describe('acquireExtractionPool', () => {
  it('gives one pool per settings, whose processes end when the last lease is released', async () => {
    const settings = extractionConfigSchema.parse({ concurrency: 1, maxChars: 123_456 });
    const first = acquireExtractionPool(settings);
    const second = acquireExtractionPool({ ...settings });
    expect(second.extractor).toBe(first.extractor);
    await first.extractor.extract(page(article));
    const [pid] = (first.extractor as ExtractionPool).pids;
    expect(await residentBytes(pid!)).toBeGreaterThan(0);
    first.release();
    first.release();
    expect(await isProcessRunning(pid!)).toBe(true);
    second.release();
    await expect.poll(() => isProcessRunning(pid!)).toBe(false);
  });
});
