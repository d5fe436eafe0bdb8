import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiReply,
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { alwaysPassingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

// A page of writers' notes, one untitled paragraph each, longer than a page's share of a small
// prompt: the selector keeps sentences, not whole paragraphs.
const writers: Array<[name: string, text: string]> = [
  [
    'Henry Roth',
    'Henry Roth (February 8, 1906 – October 13, 1995) was an American novelist and short story writer whose books about immigrant life in New York were rediscovered decades after they first appeared. His first novel appeared in 1934 to mixed reviews and sold few copies. He spent his later years in New Mexico and was born in Tysmenitz.',
  ],
  [
    'Erskine Childers',
    'Erskine Childers (25 June 1870 – 24 November 1922) was a writer and politician whose novel about two yachtsmen on the German coast became a model for the spy story. He served in the Boer War and later in the navy. He was born in London and grew up in County Wicklow.',
  ],
  [
    'Mary Lavin',
    'Mary Lavin (10 June 1912 – 25 March 1996) was a short story writer and novelist who spent most of her life in Ireland and wrote about widows, farms and small towns. Her stories appeared in many magazines. She was born in East Walpole, Massachusetts.',
  ],
  [
    'Joseph Roth',
    'Joseph Roth (2 September 1894 – 27 May 1939) was a journalist and novelist whose family saga of the Habsburg empire is still read in many languages. He wrote for newspapers in Vienna and Berlin. He was born in Brody, a town near the border.',
  ],
  [
    'Olive Schreiner',
    'Olive Schreiner (24 March 1855 – 11 December 1920) was a novelist, pacifist and political activist whose first book, published under a pen name, was read widely in London. She spent years in England. She was born at a mission station in the Cape Colony.',
  ],
  [
    'Italo Svevo',
    'Italo Svevo (19 December 1861 – 13 September 1928) was a businessman and novelist whose third novel, about a man who cannot stop smoking, found readers late in his life. He worked for a bank and then a paint firm. He was born in Trieste.',
  ],
  [
    'Stella Benson',
    'Stella Benson (6 January 1892 – 6 December 1933) was a novelist, poet and travel writer who lived for years in China and wrote about the people she met on her travels. She won a prize for a late novel. She was born in Lutwyche Hall, Shropshire.',
  ],
  [
    'Bruno Schulz',
    'Bruno Schulz (12 July 1892 – 19 November 1942) was a writer, painter and art teacher whose two books of stories turned a small town into a world of myth. He taught drawing at a school. He was born in Drohobych.',
  ],
];
// More notes of the same shape, so the page is longer than its share of the prompt.
const places = [
  'Gdansk',
  'Lviv',
  'Riga',
  'Tartu',
  'Vilnius',
  'Kaunas',
  'Brno',
  'Pecs',
  'Cluj',
  'Split',
  'Ohrid',
  'Varna',
];
for (const [index, place] of places.entries())
  writers.push([
    `Anna Verhoeven ${index + 2}`,
    `Anna Verhoeven ${index + 2} (1 May 1880 – 2 June 1950) was a poet and essayist whose letters about travel, trade and music were collected long after the war by her students. She taught school for many years. She was born in ${place}.`,
  ]);
const html = `<html><head><title>Writers born far from where they wrote</title></head><body><article><h1>Writers born far from where they wrote</h1>${writers
  .map(([, text]) => `<p>${text}</p>`)
  .join('')}</article></body></html>`;
const question = 'Who was born in Tysmenitz?';
const query = 'born in Tysmenitz';

let web: FakeHttpServer;
let searxng: FakeHttpServer;
let llm: FakeOpenAiServer;
let pageUrl: string;
const reply = (object: unknown) => ({ content: JSON.stringify(object) });

function agent(request: FakeOpenAiRequest): FakeOpenAiReply {
  if (request.prompt.includes('and was born in Tysmenitz.') && request.system.includes('<action-answer>'))
    return reply({
      think: 'The page says it.',
      step: {
        action: 'answer',
        answer: { text: 'Henry Roth[^1].', references: [{ url: pageUrl, quote: 'was born in Tysmenitz' }] },
      },
    });
  if (request.system.includes('<action-visit>') && request.prompt.includes(pageUrl))
    return reply({ think: 'Read it.', step: { action: 'visit', visit: { targets: [pageUrl] } } });
  return reply({ think: 'Search it.', step: { action: 'search', search: { queries: [query] } } });
}

beforeAll(async () => {
  web = await startFakeWeb({ pages: { '/writers': { html } } });
  pageUrl = `${web.url}/writers`;
  searxng = await startFakeSearxng({
    results: {
      [query]: [{ url: pageUrl, title: 'Writers born far away', content: 'Where writers were born.' }],
    },
  });
  llm = await startFakeOpenAi({
    routes: {
      agent_action: agent,
      query_rewrite: () => reply({ think: 'Keep it.', queries: [query] }),
      ...alwaysPassingEvaluation(reply),
    },
  });
});

afterAll(async () => {
  await Promise.all([web.close(), searxng.close(), llm.close()]);
});

describe('deepsearch ask: what the model reads of a page without headings (built CLI)', () => {
  it('puts the name a paragraph opens with beside the later sentence that answers', async () => {
    const run = await runBuiltCli(['ask', question, '--json'], {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      // A small prompt: the page gets about 500 characters of it, not the whole page.
      DEEPSEARCH_LLM_CONTEXT_TOKENS: '2560',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
      DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
      DEEPSEARCH_READER: 'builtin',
    });
    expect(run.code, run.stderr).toBe(0);
    const read = llm.requests.find(
      (request) => request.prompt.includes(`url="${pageUrl}"`) && request.prompt.includes('Tysmenitz.'),
    );
    expect(read, 'a prompt holding the page').toBeDefined();
    const source = read!.prompt.slice(read!.prompt.indexOf(`url="${pageUrl}"`));
    const body = source.slice(0, source.indexOf('</source>'));
    // The page was cut to sentences; a paragraph whose later sentence was kept without its first
    // comes with the name it opens with, as a titled paragraph comes with its title.
    expect(body).toContain('He spent his later years in New Mexico and was born in Tysmenitz.');
    const pieces = body
      .slice(body.indexOf('>\n') + 2)
      .trim()
      .split('\n[…]\n');
    expect(pieces.join('').length).toBeLessThan(html.length / 2);
    const names = pieces.flatMap((piece, index) => (writers.some(([name]) => name === piece) ? [index] : []));
    expect(names.length).toBeGreaterThan(0);
    for (const index of names) {
      const paragraph = writers.find(([name]) => name === pieces[index])![1];
      expect(paragraph.startsWith(`${pieces[index]} (`)).toBe(true);
      expect(paragraph.slice(pieces[index]!.length)).toContain(pieces[index + 1]!);
    }
    expect(JSON.parse(run.stdout).answer).toContain('Henry Roth');
  });
});
