import { availableParallelism } from 'node:os';
import { llmRoles } from '../../config/config-ids.js';
import type { DeepSearchConfig } from '../../config/config-schema.js';
import { resolveLlmSettings } from '../../config/resolve-llm-settings.js';

/**
 * How many run threads `serve` starts: the setting, at most one fewer than the cores (a run thread
 * pays for its messages and its own heap, and earns it back only on a core the server's thread
 * leaves free: on one core, none), or none when runs must stay in the server's thread: the
 * embedded model loads into the thread that calls it (each run thread would load it again), and a
 * database kept in memory (`:memory:`) is one per connection, so a thread's runs would be
 * recorded, or its documents searched, where the server never looks.
 */
export function runThreadCount(
  config: DeepSearchConfig,
  setting: number,
  cores: number = availableParallelism(),
): number {
  if (usesEmbeddedModel(config)) return 0;
  if (config.runs.file === ':memory:' || config.knowledge.file === ':memory:') return 0;
  return Math.max(0, Math.min(setting, cores - 1));
}

function usesEmbeddedModel(config: DeepSearchConfig): boolean {
  return llmRoles.some((role) => {
    try {
      return resolveLlmSettings(config, role).provider === 'local-embedded';
    } catch {
      return false;
    }
  });
}
