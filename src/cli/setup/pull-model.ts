import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DeepSearchConfig } from '../../config/config-schema.js';
import { resolveProxySettings } from '../../config/proxy-settings.js';
import { InputError } from '../../core/errors/index.js';
import { downloadModel, formatBytes } from '../../embedded-model/download-model.js';
import { loadManifest, type ManifestModel } from '../../embedded-model/model-manifest.js';
import { assertModelFileName, createModelStore, type ModelStore } from '../../embedded-model/model-store.js';
import { withPullLock } from '../../embedded-model/pull-lock.js';
import { createOutboundFetch } from '../../platform/http/outbound-fetch.js';
import type { CliIo } from '../io/cli-io.js';
import { createDownloadProgress } from '../progress/download-progress.js';

/** The models folder and the manifest the config names (the CLI fills modelsDir). */
export function modelStoreFor(config: DeepSearchConfig): ModelStore {
  return createModelStore({
    modelsDir: config.llm.embedded.modelsDir!,
    manifest: loadManifest(config.llm.embedded.manifest),
  });
}

/** What pull downloads: a manifest entry by name (or the default), or a .gguf URL. */
export function pullTarget(store: ModelStore, target: string | undefined, sha256?: string): ManifestModel {
  const wanted = target ?? 'default';
  if (/^https?:\/\//i.test(wanted)) {
    const file = basename(new URL(wanted).pathname);
    if (!file.endsWith('.gguf')) {
      throw new InputError(`${wanted} does not name a .gguf file`, { param: 'model' });
    }
    if (sha256 !== undefined && !/^[0-9a-f]{64}$/i.test(sha256)) {
      throw new InputError('--sha256 takes the 64 hex digits of the file’s SHA-256', { param: 'sha256' });
    }
    return {
      name: file.replace(/\.gguf$/, ''),
      title: file,
      url: wanted,
      file,
      sizeBytes: 0,
      sha256: sha256?.toLowerCase() ?? '',
      license: 'unknown (see where it comes from)',
      memoryGb: 0,
    };
  }
  const entry = store.find(wanted);
  if (!entry) {
    const names = store.manifest.map((model) => model.name).join(', ');
    throw new InputError(`unknown model '${wanted}' (available: ${names}, or a https URL of a .gguf file)`, {
      param: 'model',
    });
  }
  return entry;
}

/**
 * Downloads a model into the models folder with a progress bar on stderr; returns its path. A
 * file already there whole is kept. It goes through the one outbound fetch, so the proxy settings
 * (HTTPS_PROXY, NO_PROXY, network.proxy) apply.
 */
export async function pullModel(
  io: CliIo,
  config: DeepSearchConfig,
  entry: ManifestModel,
  options: { quiet?: boolean } = {},
): Promise<string> {
  const store = modelStoreFor(config);
  const destination = join(store.modelsDir, assertModelFileName(entry.file, entry.name));
  mkdirSync(store.modelsDir, { recursive: true });
  // One pull of a model at a time: a second one waits, then finds it downloaded.
  return withPullLock(destination, () => download(io, config, store, entry, destination, options), {
    signal: io.signal,
    onWait: (pid) => {
      if (!options.quiet) {
        io.stderr.write(
          `deepsearch: another pull of ${entry.name} is running (process ${pid}); waiting for it\n`,
        );
      }
    },
  });
}

async function download(
  io: CliIo,
  config: DeepSearchConfig,
  store: ModelStore,
  entry: ManifestModel,
  destination: string,
  options: { quiet?: boolean },
): Promise<string> {
  const installed = store.list().find((model) => model.file === entry.file);
  if (installed && (!entry.sizeBytes || installed.sizeBytes === entry.sizeBytes)) {
    if (!options.quiet) io.stderr.write(`deepsearch: ${entry.name} is already downloaded (${destination})\n`);
    return destination;
  }
  if (!options.quiet) {
    const size = entry.sizeBytes ? `, ${formatBytes(entry.sizeBytes)}` : '';
    io.stderr.write(`deepsearch: downloading ${entry.name} (${entry.title}${size}) to ${destination}\n`);
  }
  const progress = createDownloadProgress(io, options);
  try {
    const result = await downloadModel({
      url: entry.url,
      destination,
      ...(entry.sizeBytes ? { expectedBytes: entry.sizeBytes } : {}),
      ...(entry.sha256 ? { sha256: entry.sha256 } : {}),
      fetch: createOutboundFetch({ proxy: resolveProxySettings(config) }),
      signal: io.signal,
      onProgress: (update) => progress.update(update),
    });
    progress.done();
    if (!options.quiet) {
      const resumed = result.resumedFrom > 0 ? `, resumed at ${formatBytes(result.resumedFrom)}` : '';
      const check = result.verified
        ? 'SHA-256 verified'
        : `SHA-256 ${result.sha256} (no pinned digest to check)`;
      io.stderr.write(
        `deepsearch: ${entry.name} downloaded (${formatBytes(result.bytes)}${resumed}; ${check})\n`,
      );
    }
    return result.path;
  } finally {
    progress.done();
  }
}
