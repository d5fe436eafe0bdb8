import type { ScriptedStep } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { oscarsPage, parasiteHits, parasitePage } from './agent-harness.js';
import { startTestServer, type TestServer } from './server-harness.js';

/** A cited run the server tests share: two searches, two pages read, an answer citing both. */
export const citedRun = {
  question: 'Who directed the film that won Best Picture the year Parasite premiered?',
  parasiteUrl: 'https://en.wikipedia.org/wiki/Parasite_(2019_film)',
  oscarsUrl: 'https://en.wikipedia.org/wiki/91st_Academy_Awards',
  get pages() {
    return { [this.parasiteUrl]: parasitePage, [this.oscarsUrl]: oscarsPage };
  },
  search: { 'Parasite premiere': [parasiteHits[0]!], 'Best Picture 2019': [parasiteHits[1]!] },
  steps(): ScriptedStep[] {
    return [
      scriptedStep.search(['Parasite premiere', 'Best Picture 2019'], 'Find when Parasite premiered.'),
      scriptedStep.visit([this.parasiteUrl, this.oscarsUrl]),
      scriptedStep.answer(
        'Peter Farrelly directed Green Book[^1], which won Best Picture the year Parasite premiered[^2].',
        [
          {
            url: this.oscarsUrl,
            quote: 'Green Book won Best Picture. The film was directed by Peter Farrelly.',
          },
          { url: this.parasiteUrl, quote: 'premiered at the 2019 Cannes Film Festival on 21 May 2019' },
        ],
      ),
      scriptedStep.criteria(),
      scriptedStep.evaluation('definitive', true),
    ];
  },
};

/** Each `[^n]` marker the citations point at, in order, as it reads in `text`. */
export function citedMarkers(text: string, citations: Array<{ start_index: number; end_index: number }>) {
  return citations.map((citation) => text.slice(citation.start_index, citation.end_index));
}

/** The test server with the cited run scripted behind it. */
export function startCitedServer(): Promise<TestServer> {
  return startTestServer({ steps: citedRun.steps(), search: citedRun.search, pages: citedRun.pages });
}
