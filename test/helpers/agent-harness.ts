import { runAgent as runAgentLoop } from '../../src/agent/run-agent.js';
import type { DeepSearchConfig } from '../../src/config/config-schema.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { DeepSearchResult } from '../../src/events/deep-search-result.js';
import { sharedQuickJsCodeRunner } from '../../src/providers/code-runner/quickjs-code-runner.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import type { EmbeddingProvider } from '../../src/providers/spec/embedding-provider.js';
import type { PageReader } from '../../src/providers/spec/page-reader.js';
import type { Reranker } from '../../src/providers/spec/reranker.js';
import type { SearchHit, SearchProvider } from '../../src/providers/spec/search-provider.js';
import type { HostHealth } from '../../src/retrieval/host-health.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm, type ScriptedLlm, type ScriptedStep } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';

export interface HarnessOptions {
  steps: ScriptedStep[];
  search?: Record<string, SearchHit[]>;
  /** URL → HTML served by the fake reader (run through the real extractor). */
  pages?: Record<string, string>;
  config?: Parameters<typeof createTestConfig>[0];
  searchProvider?: SearchProvider;
  reader?: PageReader;
  signal?: AbortSignal;
  embedding?: EmbeddingProvider;
  reranker?: Reranker;
  hostHealth?: HostHealth;
  history?: Array<{ question: string; answer: string }>;
  /** Runs the agent as given, without the runtime's default QuickJS code runner. */
  withoutCodeRunner?: boolean;
}

export interface HarnessRun {
  result: DeepSearchResult;
  events: AgentEvent[];
  llm: ScriptedLlm;
  config: DeepSearchConfig;
}

/** Runs the real loop with a scripted LLM and table-driven search and reader. */
export async function runAgent(question: string, options: HarnessOptions): Promise<HarnessRun> {
  const llm = createScriptedLlm(options.steps);
  const config = createTestConfig(options.config);
  const events: AgentEvent[] = [];
  const result = await runAgentLoop({
    question,
    config,
    llm: createLlmClient({ config, createModel: () => llm }),
    search: options.searchProvider ?? createFakeSearch(options.search ?? {}),
    reader: options.reader ?? createFakeReader(options.pages ?? {}),
    signal: options.signal,
    embedding: options.embedding,
    reranker: options.reranker,
    hostHealth: options.hostHealth,
    // As the runtime gives it: the coding action is offered with QuickJS unless a test leaves it out.
    codeRunner: options.withoutCodeRunner ? undefined : sharedQuickJsCodeRunner(config.sandbox),
    history: options.history,
    onEvent: (event) => events.push(event),
    now: () => new Date('2026-11-21T12:00:00Z'),
  });
  return { result, events, llm, config };
}

export function eventsOf<T extends AgentEvent['type']>(
  events: AgentEvent[],
  type: T,
): Array<Extract<AgentEvent, { type: T }>> {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

export const parasitePage = `<html><head><title>Parasite (2019 film)</title></head><body><article>
<h1>Parasite (2019 film)</h1>
<p>Parasite is a 2019 South Korean black comedy thriller film directed by Bong Joon-ho.</p>
<p>The film premiered at the 2019 Cannes Film Festival on 21 May 2019, where it became the first South Korean film to win the Palme d'Or.</p>
<p>It was released in South Korea on 30 May 2019 and went on to win four Academy Awards.</p>
</article></body></html>`;

export const oscarsPage = `<html><head><title>91st Academy Awards</title></head><body><article>
<h1>91st Academy Awards</h1>
<p>The 91st Academy Awards ceremony honored the best films of 2018 and took place on February 24, 2019.</p>
<p>Green Book won Best Picture. The film was directed by Peter Farrelly.</p>
<p>Other nominees included Roma, The Favourite and Black Panther.</p>
</article></body></html>`;

export const parasiteHits: SearchHit[] = [
  {
    url: 'https://en.wikipedia.org/wiki/Parasite_(2019_film)',
    title: 'Parasite (2019 film) - Wikipedia',
    snippet: 'Parasite premiered at the 2019 Cannes Film Festival on 21 May 2019.',
  },
  {
    url: 'https://en.wikipedia.org/wiki/91st_Academy_Awards',
    title: '91st Academy Awards - Wikipedia',
    snippet: 'Green Book won Best Picture at the ceremony held on February 24, 2019.',
  },
];
