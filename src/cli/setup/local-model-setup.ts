import type { DeepSearchConfig } from '../../config/config-schema.js';
import { withSettings } from '../../config/frozen-config.js';
import { noLlmMessage, resolveLlmSettings } from '../../config/resolve-llm-settings.js';
import { ConfigError } from '../../core/errors/index.js';
import { formatBytes } from '../../embedded-model/download-model.js';
import { defaultThreads, type EmbeddedEngineInfo } from '../../embedded-model/embedded-engine.js';
import {
  estimateOutputSpeed,
  estimateStepTime,
  type MeasuredSpeed,
  modelSpeed,
} from '../../embedded-model/estimate-speed.js';
import { installRuntimeCommand, isLlamaRuntimeInstalled } from '../../embedded-model/load-llama-runtime.js';
import type { ManifestModel } from '../../embedded-model/model-manifest.js';
import { embeddedEngineFor } from '../../providers/llm/embedded-language-model.js';
import type { CliIo } from '../io/cli-io.js';
import { formatDuration } from '../progress/download-progress.js';
import { modelStoreFor, pullModel } from './pull-model.js';

export interface LocalModelOptions {
  quiet?: boolean;
  /** `ask`, `research` and `serve` may offer the download; other commands only use a model already there. */
  offerDownload?: boolean;
  /** --yes: download without asking. */
  yes?: boolean;
}

/**
 * With no LLM configured and no local server found: the embedded model. A model downloaded
 * earlier is used at once (with a note); otherwise, in a terminal, the default one is offered
 * (name, size, licence, where it goes, how fast it will roughly be) and downloaded on yes, or
 * without asking with --yes. Anything else ends in the error that names the commands.
 */
export async function setUpLocalModel(
  io: CliIo,
  config: DeepSearchConfig,
  options: LocalModelOptions,
): Promise<DeepSearchConfig | undefined> {
  if (!(await isLlamaRuntimeInstalled())) throw noLlmError(config, { runtime: false });
  const store = modelStoreFor(config);
  const installed = store.list();
  const chosen = installed.find((model) => model.isDefault) ?? installed[0];
  if (chosen) {
    const chosenConfig = useModel(config, chosen.path);
    if (!options.quiet) {
      io.stderr.write(
        `deepsearch: note: no LLM configured, using the local model ${chosen.name} (deepsearch model list)\n`,
      );
    }
    return chosenConfig;
  }
  if (!options.offerDownload) return undefined;
  const entry = store.find('default');
  const terminal = Boolean(io.stdin.isTTY && io.stderr.isTTY);
  if (!entry || (!options.yes && !terminal)) throw noLlmError(config, { runtime: true });
  if (!options.yes && !(await askToDownload(io, entry, store.modelsDir)))
    throw noLlmError(config, { runtime: true });
  return useModel(config, await pullModel(io, config, entry, { quiet: options.quiet }));
}

function useModel(config: DeepSearchConfig, path: string): DeepSearchConfig {
  return withSettings(config, { llm: { provider: 'local-embedded', model: path, baseURL: undefined } });
}

function noLlmError(config: DeepSearchConfig, state: { runtime: boolean }): ConfigError {
  const entry = modelStoreFor(config).find('default');
  const size = entry ? ` (${formatBytes(entry.sizeBytes)})` : '';
  const steps = state.runtime
    ? `run deepsearch model pull to download a local model${size} run in-process`
    : `install the in-process runtime (${installRuntimeCommand}) and run deepsearch model pull to download a local model${size}`;
  return new ConfigError(`${noLlmMessage}; or, with nothing else installed, ${steps}`, {
    code: 'config_missing_llm',
  });
}

async function askToDownload(io: CliIo, entry: ManifestModel, modelsDir: string): Promise<boolean> {
  const speed = estimateOutputSpeed(entry.sizeBytes);
  io.stderr.write(
    'deepsearch: no LLM is configured and none runs on this machine (Ollama, LM Studio, llama.cpp, vLLM).\n' +
      `It can download a local model and run it in-process: ${entry.name} (${entry.title}),\n` +
      `${formatBytes(entry.sizeBytes)}, licence ${entry.license}, needs about ${entry.memoryGb} GB of memory, ` +
      `saved in ${modelsDir}.\n` +
      `Roughly ${speed} tokens/s written on this machine's CPU (estimated from its memory speed; faster with a GPU).\n` +
      'Download it now? [y/N] ',
  );
  const answer = await readLine(io);
  return /^y(es)?$/i.test(answer.trim());
}

/** One line typed at the terminal ('' when stdin ends or the run is cancelled). */
function readLine(io: CliIo): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const stdin = io.stdin;
    const finish = () => {
      stdin.off('data', onData);
      stdin.off('end', finish);
      io.signal.removeEventListener('abort', finish);
      stdin.pause();
      resolve(text.split('\n')[0] ?? '');
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (text.includes('\n') || text.includes('\r')) finish();
    };
    stdin.on('data', onData);
    stdin.on('end', finish);
    io.signal.addEventListener('abort', finish, { once: true });
    stdin.resume();
  });
}

/**
 * Before a run on the embedded model: loads it (the run needs it next) and says how long a step
 * will roughly take here, from a speed measured once per model and machine.
 */
export async function announceLocalModel(io: CliIo, config: DeepSearchConfig): Promise<void> {
  const settings = resolveLlmSettings(config, 'agent');
  const engine = await embeddedEngineFor(settings, { maxContextTokens: config.llm.contextTokens });
  const speed = await modelSpeed(engine, { modelsDir: config.llm.embedded.modelsDir, signal: io.signal });
  const { info } = engine;
  const window = Math.floor(info.contextTokens * info.estimatedPerRealToken);
  const step = estimateStepTime(
    speed,
    Math.min(window, config.llm.contextTokens) / info.estimatedPerRealToken,
  );
  io.stderr.write(
    `deepsearch: note: local model ${settings.model} on ${info.backend} (${info.threads} threads, ` +
      `${info.contextTokens}-token window, loaded in ${(info.loadMs / 1000).toFixed(1)}s): about ` +
      `${formatDuration(step.seconds)} per step (reads ${speed.promptPerSecond} tokens/s, writes ` +
      `${speed.outputPerSecond} tokens/s${speed.cached ? ', measured earlier' : ''})${fewerThreads(engine.info, speed)}\n`,
  );
}

/** Why the model runs on fewer threads than its default, when the speed probe saw them stall. */
function fewerThreads(info: EmbeddedEngineInfo, speed: MeasuredSpeed): string {
  if (info.threadsFromSetting || speed.threads >= defaultThreads(info.maxThreads)) return '';
  return `; ${speed.threadsReason} (deepsearch doctor measures again; --llm-threads sets them)`;
}
