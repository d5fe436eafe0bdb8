import { statSync } from 'node:fs';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { resolveLlmSettings } from '../../../config/resolve-llm-settings.js';
import { isConfigError } from '../../../core/errors/index.js';
import { formatBytes } from '../../../embedded-model/download-model.js';
import { modelSpeed } from '../../../embedded-model/estimate-speed.js';
import { embeddedEngineFor } from '../../../providers/llm/embedded-language-model.js';
import type { CheckResult } from './doctor-checks.js';

/**
 * For the embedded model (llm.provider local-embedded): which model, where it runs (CPU, Metal,
 * CUDA, Vulkan), how many threads and why (chooseThreads), and how fast, measured now (and kept
 * for the estimate shown before a run).
 */
export async function checkLocalModel(config: DeepSearchConfig, signal?: AbortSignal): Promise<CheckResult> {
  try {
    const settings = resolveLlmSettings(config, 'agent');
    const engine = await embeddedEngineFor(settings, { maxContextTokens: config.llm.contextTokens });
    const speed = await modelSpeed(engine, { modelsDir: config.llm.embedded.modelsDir, fresh: true, signal });
    const { info } = engine;
    const offload = info.gpuLayers > 0 ? `, ${info.gpuLayers} layers on the GPU` : '';
    return {
      name: 'model',
      ok: true,
      detail:
        `${info.modelPath} (${formatBytes(statSync(info.modelPath).size)}) on ${info.backend} ` +
        `(${info.threads} threads${offload}), ${info.contextTokens}-token window, loaded in ` +
        `${(info.loadMs / 1000).toFixed(1)}s: reads ${speed.promptPerSecond} tokens/s, writes ` +
        `${speed.outputPerSecond} tokens/s; threads: ${speed.threadsReason}`,
    };
  } catch (error) {
    return {
      name: 'model',
      ok: false,
      detail: error instanceof Error ? error.message : String(error),
      fix: isConfigError(error)
        ? 'do what the line above says (deepsearch model list shows the downloaded models)'
        : 'the model file may be damaged or too new for this node-llama-cpp: deepsearch model pull it again, or update node-llama-cpp',
    };
  }
}
