import { describe, expect, it } from 'vitest';
import { downloadName } from '../research/download-name.js';
import type { RunEvent } from './api-client.js';
import { formatTokens } from './dom.js';
import { exportFileName, runToMarkdown } from './export-run.js';
import { parseHostList, readSettings, rerunOptions, toRequestOptions } from './settings.js';
import { shortUrl, timelineEntry } from './timeline-entry.js';

const event = (body: Record<string, unknown>): RunEvent => ({ seq: 3, at: 0, runId: 'r', type: '', ...body });

describe('the options of a stored run, sent again (Retry)', () => {
  it('keeps the options of the async API and drops recorded settings it would refuse', () => {
    expect(
      rerunOptions({ reasoning_effort: 'high', only_hostnames: ['a.org'], budget: { maxSteps: 8 }, llm: {} }),
    ).toEqual({ reasoning_effort: 'high', only_hostnames: ['a.org'] });
    expect(rerunOptions(undefined)).toEqual({});
  });
});

describe('settings → request options', () => {
  it('maps presets, provider and host lists, sending nothing for empty fields', () => {
    expect(
      toRequestOptions({
        effort: 'high',
        searchProvider: ' brave ',
        onlyHosts: 'nodejs.org, https://www.MDN.dev/docs\nnodejs.org',
        badHosts: '',
        language: 'de',
      }),
    ).toEqual({
      reasoning_effort: 'high',
      search_provider: 'brave',
      only_hostnames: ['nodejs.org', 'www.mdn.dev'],
      language: 'de',
    });
    expect(toRequestOptions(readSettings({ getItem: () => null }))).toEqual({});
  });

  it('reads stored settings defensively', () => {
    expect(readSettings({ getItem: () => 'not json' }).effort).toBe('');
    expect(readSettings({ getItem: () => '{"effort":"extreme","language":"fr"}' })).toMatchObject({
      effort: '',
      language: 'fr',
    });
    expect(parseHostList('a.com/path; b.org  ')).toEqual(['a.com', 'b.org']);
  });
});

describe('timeline entries', () => {
  it('shows searches with their queries and updates the same line when they end', () => {
    const start = timelineEntry(event({ type: 'search-start', step: 2, queries: ['q1', 'q2'] }));
    const end = timelineEntry(
      event({ type: 'search-end', step: 2, queries: ['q1', 'q2'], hits: 7, newUrls: 5, failures: [] }),
    );
    expect(start).toMatchObject({
      key: 'r:search-2',
      title: 'Searching 2 queries',
      items: [{ text: 'q1' }, { text: 'q2' }],
    });
    expect(end).toMatchObject({ key: 'r:search-2', title: 'Searched: 7 results, 5 new', tone: 'ok' });
  });

  it('lists the pages about to be read by host and path, so pages of one site differ', () => {
    expect(
      timelineEntry(
        event({
          type: 'read-start',
          step: 2,
          urls: [
            'https://www.a.example/wiki/Paris',
            'https://www.a.example/wiki/Lyon/',
            'https://b.example/',
          ],
        }),
      ),
    ).toMatchObject({
      title: 'Reading 3 pages',
      items: [
        { text: 'a.example/wiki/Paris', href: 'https://www.a.example/wiki/Paris' },
        { text: 'a.example/wiki/Lyon' },
        { text: 'b.example' },
      ],
    });
    expect(shortUrl(`https://a.example/${'x'.repeat(80)}`)).toHaveLength(60);
  });

  it('shows pages read with title and host, failures with the reason', () => {
    expect(
      timelineEntry(
        event({ type: 'read-end', step: 1, url: 'https://www.a.example/x', ok: true, title: 'A page' }),
      ),
    ).toMatchObject({
      title: 'Read',
      items: [{ text: 'A page', href: 'https://www.a.example/x', note: 'a.example' }],
    });
    expect(
      timelineEntry(
        event({ type: 'read-end', step: 1, url: 'https://b.example/', ok: false, error: 'HTTP 404' }),
      ),
    ).toMatchObject({
      title: 'Could not read',
      tone: 'bad',
      items: [{ text: 'b.example', href: 'https://b.example/', note: 'HTTP 404' }],
    });
    expect(
      timelineEntry(
        event({
          type: 'read-end',
          step: 1,
          url: 'https://b.example/a',
          ok: false,
          error: 'https://b.example/a answered HTTP 404',
        }),
      ),
    ).toMatchObject({ items: [{ text: 'b.example/a', note: 'answered HTTP 404' }] });
  });

  it('streams thinking into one collapsible entry per step and shows persona lines', () => {
    expect(timelineEntry(event({ type: 'think-delta', step: 1, delta: 'Hm' }))).toMatchObject({
      key: 'r:think-1',
      detail: 'Hm',
      appendDetail: true,
    });
    expect(
      timelineEntry(event({ type: 'action', step: 1, action: 'search', think: 'Hm, search.' })),
    ).toMatchObject({
      key: 'r:think-1',
      detail: 'Hm, search.',
    });
    expect(
      timelineEntry(
        event({ type: 'persona', persona: 'librarian', message: 'found 3 sources', section: 'History' }),
      ),
    ).toMatchObject({ kind: 'persona', title: 'Librarian · History: found 3 sources' });
    expect(timelineEntry(event({ type: 'llm-call' }))).toBeNull();
  });

  it('keeps research sections apart and summarises plan, coverage and fact check', () => {
    const sectionStep = timelineEntry({ ...event({ type: 'step-start', step: 1 }), runId: 'section-2' });
    expect(sectionStep?.key).toBe('section-2:step-1');
    expect(timelineEntry(event({ type: 'run-start', question: 'q' }))).toBeNull();
    expect(timelineEntry(event({ type: 'run-start', question: 'When?', parentRunId: 'p' }))).toMatchObject({
      kind: 'step',
      title: 'Section question: When?',
    });
    expect(
      timelineEntry(
        event({
          type: 'research-plan',
          plan: { title: 'Paris', sections: [{ id: 's1', heading: 'Origins', questions: ['a', 'b'] }] },
        }),
      ),
    ).toMatchObject({ title: 'Plan: Paris (1 section)', items: [{ text: 'Origins', note: '2 questions' }] });
    expect(
      timelineEntry(
        event({ type: 'coverage', section: 's1', hop: 2, ratio: 0.5, covered: [], missing: ['b'] }),
      ),
    ).toMatchObject({ title: 's1: 50% covered after hop 2', detail: 'Still missing:\n- b' });
    // With the plan seen, a section is named by its heading, not its id.
    const sectionHeadings = new Map([['s1', 'Origins']]);
    expect(
      timelineEntry(
        event({ type: 'coverage', section: 's1', hop: 1, ratio: 1, covered: ['a'], missing: [] }),
        { sectionHeadings },
      ),
    ).toMatchObject({ title: 'Origins: 100% covered after hop 1' });
    expect(
      timelineEntry(event({ type: 'persona', persona: 'librarian', message: 'all covered', section: 's1' }), {
        sectionHeadings,
      }),
    ).toMatchObject({ title: 'Librarian · Origins: all covered' });
    expect(
      timelineEntry(event({ type: 'fact-check', claims: 5, supported: 4, revised: 1, removed: 0 })),
    ).toMatchObject({ title: 'Fact check: 4 of 5 claims supported, 1 revised, 0 removed', tone: 'ok' });
  });
});

describe('token counts', () => {
  it('reads as k under a million and M from there', () => {
    expect([950, 7_680, 61_000, 1_000_000, 1_500_000].map(formatTokens)).toEqual([
      '950',
      '7.7k',
      '61k',
      '1M',
      '1.5M',
    ]);
  });
});

describe('export', () => {
  it('writes the question, the answer and footnotes with quotes', () => {
    const markdown = runToMarkdown({
      question: 'What is  the capital?',
      markdown: 'Paris.[^1]',
      references: [{ index: 1, url: 'https://a.example/', title: 'A [x]', quote: 'Paris is\nthe capital' }],
    });
    expect(markdown).toBe(
      '# What is the capital?\n\nParis.[^1]\n\n[^1]: [A x](https://a.example/) — "Paris is the capital"\n',
    );
    // A report: its own title and footnote definitions, each once; a definition it lacks is added.
    const report =
      '# Paris through the ages\n\nIt began on an island.[^1][^2]\n\n[^1]: "The city began" [A](https://a.example/)';
    expect(
      runToMarkdown({
        question: 'History of Paris',
        markdown: report,
        references: [
          { index: 1, url: 'https://a.example/', title: 'A', quote: 'The city began' },
          { index: 2, url: 'https://b.example/', title: 'B', quote: '' },
        ],
      }),
    ).toBe(`${report}\n\n[^2]: [B](https://b.example/)\n`);
    expect(exportFileName('What is the capital of France?', 'md')).toBe('what-is-the-capital-of-france.md');
    expect(exportFileName('???', 'json')).toBe('deepsearch-run.json');
    // A report: its title (edited in the outline review), as the server names HTML and PDF.
    const titled = '# Heat pumps in Europe, 2019–2024\n\nSummary.[^1]';
    expect(exportFileName('heat pumps?', 'md', titled)).toBe(
      downloadName('Heat pumps in Europe, 2019–2024', 'md', 'report'),
    );
    expect(exportFileName('heat pumps?', 'json', titled)).toBe('heat-pumps-in-europe-2019-2024.json');
    expect(exportFileName('What is X?', 'md', 'X is a letter.[^1]')).toBe('what-is-x.md');
    // Accented letters keep their letter; the name stays ASCII for any Content-Disposition header.
    expect(exportFileName('Île de la Cité, 2019–2024', 'pdf')).toBe('ile-de-la-cite-2019-2024.pdf');
  });
});
