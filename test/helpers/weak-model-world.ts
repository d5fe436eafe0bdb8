import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import type { FakeOpenAiReply, FakeOpenAiRequest } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from './fake-searxng-server.js';
import { startFakeWeb } from './fake-web-server.js';

export const weakModelQuestion = 'When was the Varnholt Observatory founded, and by whom?';
export const weakModelQuery = 'Varnholt Observatory founded';

/** A page as a small model's weak run saw it: a heading right before the paragraph that answers. */
const observatoryPage = `<html><head><title>Varnholt Observatory</title></head><body><article>
<h1>Varnholt Observatory</h1>
<h2>Founding</h2>
<p>The Varnholt Observatory was founded in 1893 by the Kestrel Trust, a society of amateur astronomers.</p>
<h2>Instruments</h2>
<p>Its main telescope is a 60 cm refractor installed in 1911. See <a href="/instruments">the instruments</a> and <a href="/staff">the staff</a>.</p>
</article></body></html>`;

const otherPage = (
  title: string,
  text: string,
  links: string[],
) => `<html><head><title>${title}</title></head>
<body><article><h1>${title}</h1><p>${text}</p>
${links.map((link) => `<p>More: <a href="${link}">${link.slice(1)}</a>.</p>`).join('\n')}
</article></body></html>`;

export interface WeakModelWorld {
  web: FakeHttpServer;
  searxng: FakeHttpServer;
  /** The three pages search finds, which the model reads at step 2 and then keeps asking for. */
  readUrls: string[];
  close(): Promise<void>;
}

/** Fake web and SearXNG: one query finds three pages; each links to pages nobody has read yet. */
export async function startWeakModelWorld(): Promise<WeakModelWorld> {
  const web = await startFakeWeb({
    pages: {
      '/varnholt': { html: observatoryPage },
      '/history': {
        html: otherPage('History of Varnholt', 'The town of Varnholt grew around its harbour.', ['/harbour']),
      },
      '/astronomy-societies': {
        html: otherPage(
          'Amateur astronomy societies',
          'Many observatories of the 1890s were founded by amateur societies.',
          ['/societies-list'],
        ),
      },
      '/instruments': { html: otherPage('Instruments', 'A 60 cm refractor.', []) },
      '/staff': { html: otherPage('Staff', 'The observatory has four staff.', []) },
      '/harbour': { html: otherPage('Harbour', 'The harbour opened in 1850.', []) },
      '/societies-list': { html: otherPage('Societies', 'A list of societies.', []) },
    },
  });
  const readUrls = ['/varnholt', '/history', '/astronomy-societies'].map((path) => `${web.url}${path}`);
  const searxng = await startFakeSearxng({
    results: (query) =>
      query.toLowerCase().includes('varnholt')
        ? [
            { url: readUrls[0], title: 'Varnholt Observatory', content: 'An observatory founded in 1893.' },
            { url: readUrls[1], title: 'History of Varnholt', content: 'The town of Varnholt.' },
            { url: readUrls[2], title: 'Amateur astronomy societies', content: 'Founded by societies.' },
          ]
        : [],
  });
  return {
    web,
    searxng,
    readUrls,
    close: async () => {
      await web.close();
      await searxng.close();
    },
  };
}

const reply = (object: unknown): FakeOpenAiReply => ({ content: JSON.stringify(object) });

/**
 * A weak model that repeats itself: it searches the same query whenever search is offered, else
 * asks to read the same three pages whenever visit is offered (they were read at step 2), else
 * (with `stubborn`) proposes the same sub-question whenever reflect is offered, and answers only
 * when nothing else is offered. It follows the schema (a server holding it to the schema could not
 * pick an action the step does not offer). Usage is estimated from the request size, as for a
 * server that counts tokens.
 */
export function repeatingAgent(
  world: Pick<WeakModelWorld, 'readUrls'>,
  options: { stubborn?: boolean } = {},
) {
  const answer = {
    text: 'The Varnholt Observatory was founded in 1893 by the Kestrel Trust[^1].',
    references: [
      {
        url: world.readUrls[0],
        // The heading above the paragraph copied with it, as the weak model did.
        quote: 'Founding The Varnholt Observatory was founded in 1893 by the Kestrel Trust',
      },
    ],
  };
  return {
    agent_action: (request: FakeOpenAiRequest): FakeOpenAiReply => {
      if (request.system.includes('<action-search>'))
        return reply({
          think: 'Search it.',
          step: { action: 'search', search: { queries: [weakModelQuery] } },
        });
      if (request.system.includes('<action-visit>'))
        return reply({ think: 'Read them.', step: { action: 'visit', visit: { targets: world.readUrls } } });
      if (options.stubborn && request.system.includes('<action-reflect>'))
        return reply({
          think: 'Break it down.',
          step: { action: 'reflect', reflect: { questions: ['Who founded the Varnholt Observatory?'] } },
        });
      return reply({ think: 'Answer.', step: { action: 'answer', answer } });
    },
    query_rewrite: () => reply({ think: 'Keep it.', queries: [weakModelQuery] }),
    final_answer: () => reply({ think: 'Answer.', answer }),
  };
}
