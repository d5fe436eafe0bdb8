import * as z from 'zod';
import { agentConfigSchema, budgetConfigSchema } from './agent-config-schema.js';
import { cacheConfigSchema, knowledgeConfigSchema } from './cache-config-schema.js';
import { llmConfigSchema, vendorKeysSchema } from './llm-config-schema.js';
import { networkConfigSchema } from './network-config-schema.js';
import { readerConfigSchema } from './reader-config-schema.js';
import { researchConfigSchema } from './research-config-schema.js';
import {
  embeddingConfigSchema,
  rerankConfigSchema,
  retrievalConfigSchema,
} from './retrieval-config-schema.js';
import { runsConfigSchema } from './runs-config-schema.js';
import { sandboxConfigSchema } from './sandbox-config-schema.js';
import { scaleConfigSchema } from './scale-config-schema.js';
import { searchConfigSchema } from './search-config-schema.js';
import { serverConfigSchema } from './server-config-schema.js';
import { sectionDefaults, setting } from './setting.js';
import { watchConfigSchema } from './watch-config-schema.js';

// The config is one schema, one file per section; each setting is declared once on its section's
// schema, with its variable, flag and description (setting.ts).
export * from './agent-config-schema.js';
export * from './cache-config-schema.js';
export { type LlmRole, llmRoles, type SearchKeyProviderId, searchKeyProviderIds } from './config-ids.js';
export * from './llm-config-schema.js';
export * from './reader-config-schema.js';
export * from './research-config-schema.js';
export * from './retrieval-config-schema.js';
export * from './runs-config-schema.js';
export * from './sandbox-config-schema.js';
export * from './scale-config-schema.js';
export * from './search-config-schema.js';
export * from './server-config-schema.js';
export { oneOffParse } from './setting.js';
export * from './watch-config-schema.js';

export const configSchema = z
  .object({
    llm: llmConfigSchema.default(sectionDefaults(llmConfigSchema)),
    keys: vendorKeysSchema.default({}),
    search: searchConfigSchema.default(sectionDefaults(searchConfigSchema)),
    reader: readerConfigSchema.default(sectionDefaults(readerConfigSchema)),
    cache: cacheConfigSchema.default(sectionDefaults(cacheConfigSchema)),
    knowledge: knowledgeConfigSchema.default(sectionDefaults(knowledgeConfigSchema)),
    budget: budgetConfigSchema.default(sectionDefaults(budgetConfigSchema)),
    agent: agentConfigSchema.default(sectionDefaults(agentConfigSchema)),
    embedding: embeddingConfigSchema.default(sectionDefaults(embeddingConfigSchema)),
    rerank: rerankConfigSchema.default(sectionDefaults(rerankConfigSchema)),
    retrieval: retrievalConfigSchema.default(sectionDefaults(retrievalConfigSchema)),
    server: serverConfigSchema.default(sectionDefaults(serverConfigSchema)),
    sandbox: sandboxConfigSchema.default(sectionDefaults(sandboxConfigSchema)),
    research: researchConfigSchema.default(sectionDefaults(researchConfigSchema)),
    runs: runsConfigSchema.default(sectionDefaults(runsConfigSchema)),
    network: networkConfigSchema.default(sectionDefaults(networkConfigSchema)),
    scale: scaleConfigSchema.default(sectionDefaults(scaleConfigSchema)),
    watch: watchConfigSchema.default(sectionDefaults(watchConfigSchema)),
    debug: setting(z.boolean().default(false), {
      env: 'DEEPSEARCH_DEBUG',
      flag: 'debug',
      description: 'verbose diagnostics',
    }),
  })
  .strict();

/**
 * The loaded config: read-only, in its type and at run time (loadConfig freezes it). A run's own
 * settings are a derived copy (deriveConfig), never a change to the loaded one.
 */
export type DeepSearchConfig = DeepReadonly<z.infer<typeof configSchema>>;

type DeepReadonly<T> = T extends (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [Key in keyof T]: DeepReadonly<T[Key]> }
    : T;
export type DeepSearchConfigInput = z.input<typeof configSchema>;
export type LlmConfig = DeepSearchConfig['llm'];
export type SearchConfig = DeepSearchConfig['search'];
export type ReaderConfig = DeepSearchConfig['reader'];
export type ExtractionConfig = ReaderConfig['extraction'];
export type CacheConfig = DeepSearchConfig['cache'];
export type KnowledgeConfig = DeepSearchConfig['knowledge'];
export type BudgetConfig = DeepSearchConfig['budget'];
export type AgentConfig = DeepSearchConfig['agent'];
export type EmbeddingConfig = DeepSearchConfig['embedding'];
export type RerankConfig = DeepSearchConfig['rerank'];
export type RetrievalConfig = DeepSearchConfig['retrieval'];
export type VendorKeys = DeepSearchConfig['keys'];
export type ServerConfig = DeepSearchConfig['server'];
export type SandboxConfig = DeepSearchConfig['sandbox'];
export type ResearchConfig = DeepSearchConfig['research'];
export type ScaleConfig = DeepSearchConfig['scale'];
/** Dollars per million tokens by model id (runs.prices): run costs and `deepsearch eval`. */
export type PriceTable = DeepSearchConfig['runs']['prices'];
export type RunsConfig = DeepSearchConfig['runs'];
export type WatchConfig = DeepSearchConfig['watch'];
export type NetworkConfig = DeepSearchConfig['network'];
