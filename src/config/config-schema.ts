import * as z from 'zod';
import { llmRoles, searchKeyProviderIds } from './config-ids.js';
import { networkConfigSchema } from './network-config-schema.js';

export { type LlmRole, llmRoles, type SearchKeyProviderId, searchKeyProviderIds } from './config-ids.js';

export const llmProviderIds = [
  'openai',
  'openai-compatible',
  'anthropic',
  'google',
  'local-embedded',
] as const;
export type LlmProviderId = (typeof llmProviderIds)[number];

export const structuredOutputModes = ['auto', 'json-schema', 'prompt'] as const;
export type StructuredOutputMode = (typeof structuredOutputModes)[number];

/**
 * Parse options for the config, parsed once per process: without zod's compiled fast path, whose
 * code generation for each object schema costs a one-off parse (a CLI command) more than it saves.
 */
export const oneOffParse = { jitless: true } as const;

/** An absent section's value: the section parsed from {}, every default filled in. */
function sectionDefaults<Schema extends z.ZodType>(schema: Schema): () => z.output<Schema> {
  return () => schema.parse({}, oneOffParse);
}

const providerName = z.string().min(1);

/**
 * A service URL. `http://user:pass@host` is refused: fetch will not send credentials written in a
 * URL, and the URL would carry the password into every message that names it. The message never
 * repeats the value.
 */
const urlSetting = z.url().refine(
  (value) => {
    try {
      const parsed = new URL(value);
      return parsed.username === '' && parsed.password === '';
    } catch {
      return true;
    }
  },
  {
    message:
      'must not contain credentials (user:password@): fetch cannot send them; put the key in the ' +
      'matching API key setting, or use a proxy that adds the Authorization header',
  },
);

/** Settings a role may override; anything unset falls back to the top-level llm settings. */
export const llmRoleSettingsSchema = z
  .object({
    provider: providerName.optional(),
    baseURL: urlSetting.optional(),
    model: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    structuredOutput: z.enum(structuredOutputModes).optional(),
  })
  .strict();
export type LlmRoleSettings = z.infer<typeof llmRoleSettingsSchema>;

/** The in-process model (`llm.provider: "local-embedded"`, node-llama-cpp); see providers/llm/embedded/. */
export const embeddedGpuChoices = ['auto', 'cpu', 'metal', 'cuda', 'vulkan'] as const;
export const embeddedLlmSchema = z
  .object({
    /** CPU threads for the model; unset: node-llama-cpp's choice (the machine's math cores). */
    threads: z.number().int().min(1).max(256).optional(),
    gpu: z.enum(embeddedGpuChoices).default('auto'),
    /** Where `deepsearch model pull` puts models; unset: `models/` in the user's data directory. */
    modelsDir: z.string().min(1).optional(),
    /** A JSON file of models to pull by name instead of the built-in list (a mirror, an air-gapped copy). */
    manifest: z.string().min(1).optional(),
  })
  .strict();

export type EmbeddedLlmSettings = z.infer<typeof embeddedLlmSchema>;

export const llmConfigSchema = llmRoleSettingsSchema
  .extend({
    structuredOutput: z.enum(structuredOutputModes).default('auto'),
    /** Prompt budget per call, in tokens; default suits a 32k-context local model. */
    contextTokens: z.number().int().min(2048).default(32_768),
    timeoutSeconds: z.number().positive().default(120),
    maxRetries: z.number().int().min(0).max(10).default(2),
    roles: z.partialRecord(z.enum(llmRoles), llmRoleSettingsSchema).default({}),
    embedded: embeddedLlmSchema.default(sectionDefaults(embeddedLlmSchema)),
  })
  .strict();

/** Vendor keys from the vendors' usual variables; used when the provider matches. */
export const vendorKeysSchema = z
  .object({
    openai: z.string().min(1).optional(),
    anthropic: z.string().min(1).optional(),
    google: z.string().min(1).optional(),
    jina: z.string().min(1).optional(),
    cohere: z.string().min(1).optional(),
  })
  .strict();

/** Embeddings for query dedup and snippet scoring; `builtin` is lexical and needs no service. */
export const embeddingConfigSchema = z
  .object({
    provider: providerName.default('builtin'),
    baseURL: urlSetting.optional(),
    model: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    /** Ask for (and check) vectors of this size, where the service supports it. */
    dimensions: z.number().int().positive().optional(),
    batchSize: z.number().int().min(1).max(2048).default(64),
    /** Jina: embed a page's chunks with late chunking, so each chunk's vector sees the page around it. */
    lateChunking: z.boolean().default(true),
    timeoutSeconds: z.number().positive().default(30),
    maxRetries: z.number().int().min(0).max(10).default(2),
  })
  .strict();

/** Reranking of URL candidates (title + snippet + anchor text); `builtin` is BM25. */
export const rerankConfigSchema = z
  .object({
    provider: providerName.default('builtin'),
    baseURL: urlSetting.optional(),
    model: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    /** Documents per request; longer lists are sent in several requests. */
    batchSize: z.number().int().min(1).max(1000).default(100),
    timeoutSeconds: z.number().positive().default(30),
    maxRetries: z.number().int().min(0).max(10).default(2),
  })
  .strict();

export const retrievalConfigSchema = z
  .object({
    /** Queries at least this similar (cosine) to an earlier or sibling query are dropped. */
    dedupThreshold: z.number().min(0).max(1).default(0.86),
    /** Rewrite the agent's queries with the rewriter role before searching. */
    queryRewrite: z.boolean().default(true),
    /** URLs per host in the ranked list offered to the agent. */
    perHostCap: z.number().int().min(1).default(2),
    /** Candidates sent to the reranker each step (the best by the other signals). */
    rerankCandidates: z.number().int().min(1).max(1000).default(50),
    /** JSON file remembering hosts that failed or were paywalled, across runs. */
    hostHealthFile: z.string().min(1).optional(),
  })
  .strict();

export const searchConfigSchema = z
  .object({
    /**
     * One provider, or a comma-separated fallback chain tried in order: "searxng,duckduckgo".
     * `auto` (the default): SearXNG when an instance is configured, else DuckDuckGo, which needs no key.
     */
    provider: providerName.default('auto'),
    searxngUrl: urlSetting.optional(),
    apiKeys: z.partialRecord(z.enum(searchKeyProviderIds), z.string().min(1)).default({}),
    /** Endpoint overrides per provider (proxies, self-hosted gateways). */
    baseURLs: z.record(z.string(), urlSetting).default({}),
    /** Searches in flight at once per provider. */
    concurrency: z.number().int().min(1).max(64).default(4),
    /** Per-provider overrides of `concurrency`, e.g. {"duckduckgo": 1}. */
    providerConcurrency: z.record(z.string(), z.number().int().min(1).max(64)).default({}),
    resultsPerQuery: z.number().int().min(1).max(50).default(10),
    timeoutSeconds: z.number().positive().default(15),
    /** Hosts to prefer when ranking URLs. */
    boostHostnames: z.array(z.string().min(1)).default([]),
    /** Hosts never searched into or read. */
    badHostnames: z.array(z.string().min(1)).default([]),
    /** When set, only these hosts are searched and read. */
    onlyHostnames: z.array(z.string().min(1)).default([]),
  })
  .strict();

/**
 * How untrusted pages and documents are parsed: in a pool of child processes, each job with a
 * deadline and a memory cap (a job past either gets its process killed and the read fails), and
 * limits checked before the work that they bound. Warnings name the variable of the limit hit.
 */
export const extractionConfigSchema = z
  .object({
    /** Extraction processes (one job each at a time); more jobs wait. */
    concurrency: z.number().int().min(1).max(16).default(2),
    /** Wall-clock seconds one page or document may take to parse. */
    timeoutSeconds: z.number().positive().max(600).default(15),
    /** Resident memory of an extraction process, in MB, past which its job is stopped. */
    memoryMb: z.number().int().min(128).max(16_384).default(1024),
    /** PDF pages read; a longer PDF is read up to here and says so. */
    maxPdfPages: z.number().int().min(1).default(300),
    /** Bytes one PDF stream, or a DOCX's XML parts together, may inflate to (checked before inflating). */
    maxInflatedBytes: z
      .number()
      .int()
      .positive()
      .default(64 * 1024 * 1024),
    /** Elements nested in each other, measured before the page is parsed. */
    maxNestingDepth: z.number().int().min(16).default(256),
    /** Cells of one table above which it is written as plain rows, without column alignment. */
    maxTableCells: z.number().int().min(1).default(500),
    /** Characters of text kept from one page or document; the rest is cut and the cut is marked. */
    maxChars: z.number().int().min(1000).default(1_000_000),
  })
  .strict();

export const readerConfigSchema = z
  .object({
    /** auto: builtin, and the browser reader for app shells when Chromium is installed. */
    provider: providerName.default('auto'),
    timeoutSeconds: z.number().positive().default(20),
    maxBytes: z
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
    maxRedirects: z.number().int().min(0).max(20).default(5),
    /** Lets the reader (and search results) reach loopback/private addresses. Off by default. */
    allowPrivateNetwork: z.boolean().default(false),
    userAgent: z.string().min(1).optional(),
    /**
     * Lets the reader read local files (file: sources given in the question, on the command line or
     * by a local search provider; never a file: link found on a web page). Off by default.
     */
    allowFiles: z.boolean().default(false),
    /** With allowFiles: the folders files may be read from (empty: any file the process can read). */
    fileRoots: z.array(z.string().min(1)).default([]),
    /** Skip pages a site's robots.txt disallows. Off by default: pages are read for a person's question. */
    respectRobotsTxt: z.boolean().default(false),
    /** Chromium's executable (the browser reader, PDF export of reports); unset: the usual install paths are tried. */
    chromiumPath: z.string().min(1).optional(),
    /** Jina Reader (`provider: 'jina'`); the key is optional (keyless requests get a lower rate limit). */
    jina: z
      .object({ apiKey: z.string().min(1).optional(), baseURL: urlSetting.optional() })
      .strict()
      .default({}),
    extraction: extractionConfigSchema.default(sectionDefaults(extractionConfigSchema)),
  })
  .strict();

export const cacheKinds = ['search', 'page'] as const;
export type CacheKind = (typeof cacheKinds)[number];

export const cacheConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Folder of the SQLite file; unset means the user's data directory (defaultCacheDir in create-provider-cache.ts). */
    dir: z.string().min(1).optional(),
    /** How long an entry stays fresh, per kind. */
    ttlSeconds: z
      .object({
        search: z
          .number()
          .int()
          .min(0)
          .default(24 * 3600),
        page: z
          .number()
          .int()
          .min(0)
          .default(7 * 24 * 3600),
      })
      .strict()
      .default({ search: 24 * 3600, page: 7 * 24 * 3600 }),
  })
  .strict();

/** The local knowledge base (`deepsearch kb`, search provider `local`, `ask --kb`). */
export const knowledgeConfigSchema = z
  .object({
    /** The database file; unset means knowledge.sqlite in the user's data directory. */
    file: z.string().min(1).optional(),
    /** Merge local hits into every web search step (`ask --kb`). */
    merge: z.boolean().default(false),
    /** Search only this collection; unset means all. */
    collection: z.string().min(1).optional(),
    /** Largest file `kb add` reads: a longer text file is read up to here (and says so), others are refused. */
    maxFileBytes: z
      .number()
      .int()
      .positive()
      .default(64 * 1024 * 1024),
  })
  .strict();

/** Price of a model's tokens, in US dollars per million, to price a run's calls. */
export const modelPriceSchema = z
  .object({ inputPerMillion: z.number().min(0), outputPerMillion: z.number().min(0) })
  .strict();

/** The run store: every run's question, events, checkpoints and result (`deepsearch runs`, resume, async API). */
export const runsConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** The database file; unset means runs.sqlite in the user's data directory (set by the CLI). */
    file: z.string().min(1).optional(),
    retention: z
      .object({
        /** Finished runs kept; the oldest go first. */
        maxRuns: z.number().int().min(1).default(500),
        /** Finished runs older than this are deleted. */
        maxAgeDays: z.number().min(0).default(90),
      })
      .strict()
      .default({ maxRuns: 500, maxAgeDays: 90 }),
    /** Prices by model id; a run's cost is null when one of its models has none. */
    prices: z.record(z.string(), modelPriceSchema).default({}),
  })
  .strict();

export const budgetConfigSchema = z
  .object({
    maxSteps: z.number().int().min(1).default(30),
    maxTokens: z.number().int().min(1000).default(1_000_000),
    maxTimeSeconds: z.number().positive().default(600),
    maxAttempts: z.number().int().min(1).default(3),
  })
  .strict();

export const agentConfigSchema = z
  .object({
    maxQueriesPerStep: z.number().int().min(1).max(20).default(5),
    maxUrlsPerStep: z.number().int().min(1).max(20).default(4),
    /** Refuse the step-1 answer without search even for trivial questions. */
    noDirectAnswer: z.boolean().default(false),
    /** Answer language; unset means the language of the question. */
    language: z.string().min(1).optional(),
  })
  .strict();

/**
 * The coding action's sandbox (QuickJS compiled to WebAssembly): the limits of one run of the
 * model's JavaScript, and how much gathered knowledge it gets as input.
 */
export const sandboxConfigSchema = z
  .object({
    /** Offer the coding action to the agent. */
    enabled: z.boolean().default(true),
    /** CPU time of one run; past it (plus a margin) its sandbox process is killed. */
    timeoutSeconds: z.number().positive().max(60).default(3),
    /** Heap of one run, strings and buffers included. */
    memoryMb: z.number().int().min(1).max(1024).default(64),
    /** Above about 256 KB the host thread's stack may run out first; that is caught too. */
    stackKb: z.number().int().min(16).max(1024).default(64),
    /** Largest result, as JSON characters. */
    maxOutputChars: z.number().int().min(100).max(1_000_000).default(20_000),
    /** console.log output kept per run. */
    maxLogChars: z.number().int().min(0).max(100_000).default(4000),
    /** Gathered knowledge (sub-answers, page snippets and tables) given to the code, as JSON characters. */
    maxInputChars: z.number().int().min(1000).max(1_000_000).default(60_000),
    /** Sandbox processes running code at once; further runs wait their turn. */
    concurrency: z.number().int().min(1).max(4).default(1),
  })
  .strict();

/**
 * Research mode's controller: sections in parallel, hops per section, the librarian's
 * coverage, and how query generation reacts when a section stops making progress.
 */
export const researchConfigSchema = z
  .object({
    /** Sections researched at once. */
    concurrency: z.number().int().min(1).max(16).default(3),
    /** Hops per section: a deep search, then the librarian's check; later hops target what is missing. */
    maxHops: z.number().int().min(1).max(10).default(3),
    /** Share of the task's tokens and time kept for writing the report. */
    writerShare: z.number().min(0).max(0.9).default(0.25),
    /** Query variations asked for each gap in a next hop (multi-query). */
    queriesPerGap: z.number().int().min(1).max(6).default(3),
    /** Temperature of the planning call. */
    planningTemperature: z.number().min(0).max(2).default(0.1),
    /** Temperature of next-hop query generation while the research progresses. */
    queryTemperature: z.number().min(0).max(2).default(0.4),
    /** Added to the query temperature when a section is stuck or reads nothing new. */
    temperatureStep: z.number().min(0).max(2).default(0.2),
    temperatureCap: z.number().min(0).max(2).default(1.0),
    /** Hops after a raise before the next raise. */
    temperatureCooldownHops: z.number().int().min(0).max(10).default(1),
    /** Hops without progress (or with low diversity) before the temperature is raised. */
    stagnationHops: z.number().int().min(1).max(10).default(1),
    /** Hops without progress before the strategist is asked for a new angle. */
    pivotAfterHops: z.number().int().min(1).max(10).default(2),
    /** A hop makes progress when the section's coverage rises by at least this much (0..1). */
    minProgress: z.number().min(0).max(1).default(0.1),
    /** New text less diverse than this (0 = all seen before, 1 = all new) counts as low diversity. */
    minDiversity: z.number().min(0).max(1).default(0.2),
  })
  .strict()
  .refine((research) => research.temperatureCap >= research.queryTemperature, {
    message: 'temperatureCap must be at least queryTemperature',
    path: ['temperatureCap'],
  });

/** `deepsearch serve`: the OpenAI-compatible HTTP API. */
export const serverConfigSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65_535).default(3000),
    /** Bearer keys clients must send; none means no auth (only sensible on 127.0.0.1). */
    apiKeys: z.array(z.string().min(8)).default([]),
    /**
     * Origins allowed by CORS; '*' allows any; empty sends no CORS headers. A browser request
     * from any other origin is refused with 403.
     */
    corsOrigins: z
      .array(
        z.string().refine(isOriginOrAny, {
          message: 'not an origin: write scheme://host[:port] (e.g. https://chat.example) or *',
        }),
      )
      .default([]),
    /**
     * Host names the server answers to besides localhost, IP literals and `host` (a DNS-rebinding
     * page arrives under its own name); '.example.com' allows subdomains, '*' turns the check off.
     */
    allowedHosts: z.array(z.string().min(1)).default([]),
    /** A request body not received within this time gets 408 (a client trickling or never ending it). */
    bodyTimeoutSeconds: z.number().positive().default(10),
    /** Deep searches running at once. */
    maxConcurrent: z.number().int().min(1).default(8),
    /** Requests waiting for a slot; beyond it the server answers 429. */
    maxQueue: z.number().int().min(0).default(32),
    /**
     * With several API keys: the share of the queue (and of MCP sessions) one key may hold, so one
     * key cannot fill them (429 owner_busy past it); freed slots go to the key holding the fewest.
     */
    keyShare: z.number().gt(0).max(1).default(0.5),
    /** Listen on a non-loopback address without API keys (refused at start otherwise). */
    allowUnauthenticated: z.boolean().default(false),
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    /** On SIGTERM, how long running requests may take to finish before they are cancelled. */
    shutdownGraceSeconds: z.number().min(0).default(30),
  })
  .strict();

const urlOf = (schemes: readonly string[], example: string) =>
  z.string().refine(
    (value) => {
      try {
        return schemes.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    {
      message: `not a ${schemes.map((scheme) => scheme.replace(':', '://')).join(' or ')} URL (e.g. ${example})`,
    },
  );

/**
 * Queue mode (docs/scale-out.md): jobs in Redis (BullMQ), runs and events in Postgres, shared by
 * any number of API nodes and workers. Neither URL set: the one-machine default (SQLite, jobs in
 * the server's process). One without the other is refused at start, naming the missing one.
 */
export const scaleConfigSchema = z
  .object({
    redisUrl: urlOf(['redis:', 'rediss:'], 'redis://127.0.0.1:6379').optional(),
    databaseUrl: urlOf(['postgres:', 'postgresql:'], 'postgres://deepsearch@127.0.0.1/deepsearch').optional(),
    /** LLM calls at once across every worker (a shared model server); unset: no cap. */
    llmConcurrency: z.number().int().min(1).optional(),
    /** Runs of one API key queued or running at once; one more is refused (429 owner_busy). Unset: no limit. */
    maxJobsPerOwner: z.number().int().min(1).optional(),
    /** Runs waiting for a worker; one more is refused (429 server_busy). */
    maxQueue: z.number().int().min(0).default(256),
    /** A job's lock: a worker silent this long (dead, or stuck) loses its runs to another worker. */
    lockSeconds: z.number().min(1).max(3600).default(30),
  })
  .strict()
  .superRefine((scale, context) => {
    const [set, missing] = scale.redisUrl
      ? ['DEEPSEARCH_REDIS_URL', 'DEEPSEARCH_DATABASE_URL']
      : ['DEEPSEARCH_DATABASE_URL', 'DEEPSEARCH_REDIS_URL'];
    if (Boolean(scale.redisUrl) === Boolean(scale.databaseUrl)) return;
    context.addIssue({
      code: 'custom',
      path: [scale.redisUrl ? 'databaseUrl' : 'redisUrl'],
      message:
        `${missing} is not set: queue mode needs both DEEPSEARCH_REDIS_URL (jobs) and DEEPSEARCH_DATABASE_URL (runs); ` +
        `set ${missing}, or unset ${set} to run jobs in this process`,
    });
  });

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
    debug: z.boolean().default(false),
  })
  .strict();

export type DeepSearchConfig = z.infer<typeof configSchema>;
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
export type NetworkConfig = DeepSearchConfig['network'];

/** '*' or an http(s) origin: a scheme, a host and an optional port, nothing after them but '/'. */
function isOriginOrAny(value: string): boolean {
  if (value.trim() === '*') return true;
  try {
    const url = new URL(value.trim());
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}
