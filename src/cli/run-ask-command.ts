import { resolve } from 'node:path';
import { redactConfig } from '../config/redact-config.js';
import { InputError } from '../errors/index.js';
import { describeRetrievalProviders } from '../retrieval/create-retrieval-providers.js';
import { createRuntime, type DeepSearchRuntime } from '../runtime.js';
import { type CliIo, readPipedStdin } from './cli-io.js';
import { loadCliConfig } from './load-cli-config.js';
import { createProgressRenderer } from './progress-renderer.js';
import { renderResultText, resultJson } from './render-result.js';
import { createTerminal } from './terminal-style.js';

export interface AskCommandOptions {
  words: string[];
  flags: Record<string, unknown>;
  json: boolean;
  quiet: boolean;
  configPath: string | undefined;
  /** --kb: true, or the knowledge base file. */
  kb?: string | boolean;
}

/** `deepsearch ask`: live progress on stderr, the answer (or one JSON document) on stdout. */
export async function runAskCommand(io: CliIo, options: AskCommandOptions): Promise<void> {
  const question = options.words.join(' ').trim() || (await readPipedStdin(io.stdin));
  if (!question)
    throw new InputError('missing question: run deepsearch ask "your question"', { param: 'question' });
  const config = loadCliConfig(io, options.flags, options.configPath);
  if (typeof options.kb === 'string') config.knowledge.file = resolve(io.cwd, options.kb);
  if (options.kb) config.knowledge.merge = true;
  const runtime = createRuntime({ config });
  const errors = createTerminal(io.stderr, io.env);
  if (config.debug) printDebugHeader(runtime, errors.write);
  const onEvent = options.quiet ? undefined : createProgressRenderer(errors, { debug: config.debug });
  const result = await runtime.ask(question, { signal: io.signal, onEvent });
  if (options.json) io.stdout.write(`${resultJson(result)}\n`);
  else io.stdout.write(`\n${renderResultText(result, createTerminal(io.stdout, io.env))}\n`);
}

function printDebugHeader(runtime: DeepSearchRuntime, write: (line: string) => void): void {
  write(`config: ${JSON.stringify(redactConfig(runtime.config))}`);
  const roles = ['agent', 'evaluator', 'analyzer', 'beast', 'rewriter'] as const;
  for (const role of roles.filter((name) => name !== 'rewriter' || runtime.config.retrieval.queryRewrite)) {
    try {
      const described = runtime.llm.describe(role);
      write(
        `llm ${role}: ${described.provider} ${described.model}${described.baseURL ? ` at ${described.baseURL}` : ''} (${described.structuredOutput})`,
      );
    } catch (error) {
      write(`llm ${role}: ${(error as Error).message}`);
    }
  }
  write(`search: ${runtime.search.id} · reader: ${runtime.reader.id}`);
  for (const line of describeRetrievalProviders(runtime)) write(line);
}
