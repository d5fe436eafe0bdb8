import type { RunContext } from '../run-context.js';
import type { AgentState } from '../state/agent-state.js';
import type { StoredPage } from '../state/page-store.js';
import { errorMessage, isFatal } from '../steps/step-errors.js';

/** Pages with more chunks than this are scored lexically only: embedding them would cost too much. */
const maxEmbeddedChunks = 600;

/** The text page snippets are selected for: the step's question, with the original one when different. */
export function snippetQuery(state: AgentState, question: string): string {
  return question === state.question ? question : `${question}\n${state.question}`;
}

/**
 * With an embedding service, embeds the step's snippet query once (task `query`) so snippet
 * selection can blend in similarity. A failure only costs the blend: snippets stay lexical.
 */
export async function prepareQuestionVector(context: RunContext, question: string): Promise<void> {
  const { state } = context;
  if (context.embedding.builtin || state.pages.all().length === 0) return;
  const query = snippetQuery(state, question);
  if (state.questionVectors.has(query)) return;
  try {
    const { vectors } = await context.embedding.embed([query], { task: 'query', signal: context.signal });
    if (vectors[0]) state.questionVectors.set(query, vectors[0]);
  } catch (error) {
    if (isFatal(error)) throw error;
    context.emit({
      type: 'warning',
      step: context.step,
      message: `question embedding failed: ${errorMessage(error)}`,
    });
  }
}

/** With an embedding service, embeds a new page's chunks (task `passage`, late chunking:
 * each chunk's vector sees the page around it). */
export async function embedPageChunks(context: RunContext, page: StoredPage): Promise<void> {
  if (context.embedding.builtin) return;
  const chunks = context.state.pages.chunksOf(page);
  if (chunks.length < 2 || chunks.length > maxEmbeddedChunks) return;
  try {
    const { vectors, failures } = await context.embedding.embed(
      chunks.map((chunk) => chunk.text),
      { task: 'passage', lateChunking: true, signal: context.signal },
    );
    context.state.pages.setChunkVectors(page, vectors);
    if (failures.length > 0) {
      context.emit({
        type: 'warning',
        step: context.step,
        message: `some chunks of ${page.url} were not embedded: ${failures[0]!.message}`,
      });
    }
  } catch (error) {
    if (isFatal(error)) throw error;
    context.emit({
      type: 'warning',
      step: context.step,
      message: `embedding ${page.url} failed: ${errorMessage(error)}`,
    });
  }
}
