import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { ConfigError } from '../core/errors/index.js';

/** A model `deepsearch model pull` can download by name, pinned to one file. */
export interface ManifestModel {
  name: string;
  /** What it is, in a few words, for `model list` and the first-run offer. */
  title: string;
  /** A download URL that names a fixed revision, so the file behind it cannot change. */
  url: string;
  /** The file name in the models folder. */
  file: string;
  sizeBytes: number;
  sha256: string;
  license: string;
  /** Memory the model needs to run with the small profile's window (weights + KV cache), roughly. */
  memoryGb: number;
}

/**
 * The pinned models. The default is chosen for agentic JSON: Qwen3-4B-Instruct-2507 is a
 * non-thinking instruct model (no hidden reasoning to budget before a constrained reply), Apache
 * 2.0, strong for its size on instruction following and tool calling, multilingual, with a long
 * native window; Q4_K_M keeps it near 2.5 GB. The fallback, Qwen2.5-1.5B-Instruct (Apache 2.0),
 * is for machines with little memory: reliable JSON, weaker reasoning. See docs/local-model.md.
 * Sizes and SHA-256 digests are those of the files at the pinned revisions.
 */
export const manifestModels: readonly ManifestModel[] = [
  {
    name: 'qwen3-4b',
    title: 'Qwen3 4B Instruct 2507, Q4_K_M',
    url:
      'https://huggingface.co/bartowski/Qwen_Qwen3-4B-Instruct-2507-GGUF/resolve/' +
      'ae44f08e1392f39c0e474af10c3ff8355c8b6688/Qwen_Qwen3-4B-Instruct-2507-Q4_K_M.gguf',
    file: 'Qwen_Qwen3-4B-Instruct-2507-Q4_K_M.gguf',
    sizeBytes: 2_497_280_736,
    sha256: '2fde00ce69dd4899c70d020845e2638353015bba0fdf161b3eb965f2bca4464e',
    license: 'Apache-2.0',
    memoryGb: 5,
  },
  {
    name: 'qwen2.5-1.5b',
    title: 'Qwen2.5 1.5B Instruct, Q4_K_M (smaller, for little memory)',
    url:
      'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/' +
      '91cad51170dc346986eccefdc2dd33a9da36ead9/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    sizeBytes: 1_117_320_736,
    sha256: '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
    license: 'Apache-2.0',
    memoryGb: 2,
  },
];

export const defaultModelName = 'qwen3-4b';

export function findManifestModel(name: string): ManifestModel | undefined {
  return manifestModels.find((model) => model.name === name.toLowerCase());
}

const manifestSchema = z
  .array(
    z
      .object({
        name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
        title: z.string().min(1),
        url: z.url(),
        file: z.string().regex(/^[^/\\]+\.gguf$/),
        sizeBytes: z.number().int().positive(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        license: z.string().min(1),
        memoryGb: z.number().positive(),
      })
      .strict(),
  )
  .min(1);

/**
 * The models pull knows by name: the built-in list, or the JSON file llm.embedded.manifest names
 * (same fields; its first entry is the default).
 */
export function loadManifest(file: string | undefined): readonly ManifestModel[] {
  if (!file) return manifestModels;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `cannot read the model manifest ${file} (llm.embedded.manifest): ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(
      `the model manifest ${file} is invalid at ${issue?.path.join('.') || 'the top'}: ${issue?.message}`,
    );
  }
  return result.data;
}
