import type { SettingSource } from './setting-sources.js';

/** The in-process model (`llm.provider: "local-embedded"`): where models live and how they run. */
export const embeddedSettingSources: readonly SettingSource[] = [
  {
    path: 'llm.embedded.modelsDir',
    env: 'DEEPSEARCH_MODELS_DIR',
    type: 'string',
    description: "folder of downloaded models (default: models/ in the user's data directory)",
  },
  {
    path: 'llm.embedded.manifest',
    env: 'DEEPSEARCH_MODEL_MANIFEST',
    type: 'string',
    description:
      'JSON file listing the models deepsearch model pull knows by name (default: the built-in list)',
  },
  {
    path: 'llm.embedded.threads',
    env: 'DEEPSEARCH_LLM_THREADS',
    type: 'integer',
    description: 'CPU threads of the embedded model (default: the machine’s math cores)',
  },
  {
    path: 'llm.embedded.gpu',
    env: 'DEEPSEARCH_LLM_GPU',
    type: 'string',
    description: 'auto | cpu | metal | cuda | vulkan: where the embedded model runs (default auto)',
  },
];
