import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { defaultConfigFileName } from '../../../config/config-file.js';
import { loadConfig } from '../../../config/load-config.js';
import { resolveProxySettings } from '../../../config/proxy-settings.js';
import { proxyVariables } from '../../../config/setting-sources.js';
import { AbortedError, InputError, isConfigError } from '../../../core/errors/index.js';
import { anySignal } from '../../../core/link-signals.js';
import { createOutboundFetch } from '../../../platform/http/outbound-fetch.js';
import { discoverLocalLlm, parseLocalLlmCandidates } from '../../../providers/llm/discover-local-llm.js';
import type { CliIo } from '../../io/cli-io.js';
import { assertWritableFile } from '../../io/output-file.js';
import type { InitCommandFlags } from './init-command.js';
import { buildInitConfig, type InitAnswers, renderConfigFile } from './init-config-file.js';

/**
 * `deepsearch init`: the config file from the flags, plus answers to questions in a terminal
 * (unless --yes). A local LLM server that answers is offered as the default. The result goes
 * through the config loader before it is written, so init never writes a file deepsearch rejects.
 */
export async function runInitCommand(io: CliIo, flags: InitCommandFlags): Promise<void> {
  const target = resolve(io.cwd, flags.config ?? io.env.DEEPSEARCH_CONFIG ?? defaultConfigFileName);
  if (existsSync(target) && !flags.force) {
    throw new InputError(`${target} exists: pass --force to overwrite it`, { param: 'config' });
  }
  // Before any question is asked: a missing folder is not found out after the answers.
  assertWritableFile(target, '--config', target);
  let answers: InitAnswers = {
    llmProvider: flags.llmProvider,
    llmBaseUrl: flags.llmBaseUrl,
    llmModel: flags.llmModel,
    searchProvider: flags.searchProvider,
    searxngUrl: flags.searxngUrl,
  };
  if (!answers.llmProvider && !answers.llmBaseUrl) answers = { ...(await localDefaults(io)), ...answers };
  if (io.stdin.isTTY && !flags.yes) answers = await ask(io, answers);
  const config = buildInitConfig(answers);
  try {
    loadConfig({ file: config, fileName: target });
  } catch (error) {
    if (isConfigError(error)) throw new InputError(`not written: ${error.message}`, { cause: error });
    throw error;
  }
  writeFileSync(target, renderConfigFile(config));
  io.stderr.write(`deepsearch: wrote ${target}; check it with deepsearch doctor\n`);
}

async function localDefaults(io: CliIo): Promise<InitAnswers> {
  const found = await discoverLocalLlm({
    candidates: parseLocalLlmCandidates(io.env.DEEPSEARCH_LOCAL_LLM_URLS),
    signal: io.signal,
    fetch: proxiedFetch(io),
  });
  if (!found) return {};
  io.stderr.write(
    `deepsearch: found ${found.candidate.name} at ${found.candidate.url} (model ${found.model})\n`,
  );
  return { llmProvider: 'openai-compatible', llmBaseUrl: found.baseURL, llmModel: found.model };
}

/**
 * The outbound fetch with the proxy variables alone: init writes the config, so the rest of the
 * environment (perhaps what the file is meant to fix) is not loaded.
 */
function proxiedFetch(io: CliIo): typeof globalThis.fetch {
  const names = Object.values(proxyVariables()).flat();
  const env = Object.fromEntries(names.map((name) => [name, io.env[name]]));
  return createOutboundFetch({ proxy: resolveProxySettings(loadConfig({ env })) });
}

async function ask(io: CliIo, answers: InitAnswers): Promise<InitAnswers> {
  // readline wants a stream it can listen on (resize events); io.stderr is only something to write
  // to (the redacting wrapper), so questions go through a Writable that forwards to it.
  const output = new Writable({
    write(chunk, _encoding, done) {
      io.stderr.write(String(chunk));
      done();
    },
  });
  const prompt = createInterface({ input: io.stdin, output, terminal: io.stdin.isTTY === true });
  // In a terminal readline reads Ctrl-C itself (raw mode) instead of the process getting SIGINT.
  const interrupted = new AbortController();
  prompt.on('SIGINT', () => interrupted.abort());
  const signal = anySignal(io.signal, interrupted.signal);
  const question = async (text: string, current: string | undefined): Promise<string | undefined> => {
    // Ctrl-C or SIGTERM while waiting for an answer ends init at once, writing nothing.
    const reply = await prompt
      .question(`${text}${current ? ` [${current}]` : ''}: `, { signal })
      .catch((error: unknown) => {
        if (signal.aborted) throw new AbortedError('init interrupted: nothing was written', { cause: error });
        throw error;
      });
    const trimmed = reply.trim();
    return trimmed === '' ? current : trimmed === '-' ? undefined : trimmed;
  };
  try {
    io.stderr.write('Enter keeps the value in brackets; - clears it.\n');
    const provider = await question(
      'LLM provider (openai-compatible for a local server, openai, anthropic, google)',
      answers.llmProvider ?? 'openai-compatible',
    );
    const local = provider === 'openai-compatible';
    const llmBaseUrl = local
      ? await question('LLM server URL', answers.llmBaseUrl ?? 'http://localhost:11434/v1')
      : undefined;
    const llmModel = await question(local ? 'Model' : 'Model (empty: the vendor default)', answers.llmModel);
    const searxngUrl = await question('SearXNG URL (empty: DuckDuckGo, no key needed)', answers.searxngUrl);
    return { ...answers, llmProvider: provider, llmBaseUrl, llmModel, searxngUrl };
  } finally {
    prompt.close();
  }
}
