import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLlamaRuntimeInstalled } from '../../src/embedded-model/load-llama-runtime.js';
import { writeTinyGguf } from './tiny-gguf.js';

/**
 * Whether the embedded-model tests run: always in CI (.ci/run installs node-llama-cpp, and a
 * missing runtime must fail there, not skip); elsewhere only where it is installed
 * (bash scripts/install-embedded-runtime.sh).
 */
export async function embeddedRuntimeAvailable(): Promise<boolean> {
  const installed = await isLlamaRuntimeInstalled();
  if (!installed && process.env.CI) {
    throw new Error(
      'node-llama-cpp is not installed: CI runs bash scripts/install-embedded-runtime.sh first',
    );
  }
  if (!installed) {
    process.stderr.write(
      'embedded-model tests skipped: node-llama-cpp is not installed (bash scripts/install-embedded-runtime.sh)\n',
    );
  }
  return installed;
}

/** A fresh tiny model file in a temporary folder. */
export function tinyModelFile(options: Parameters<typeof writeTinyGguf>[1] = {}): string {
  const file = join(mkdtempSync(join(tmpdir(), 'deepsearch-tiny-gguf-')), 'tiny.gguf');
  writeTinyGguf(file, options);
  return file;
}
