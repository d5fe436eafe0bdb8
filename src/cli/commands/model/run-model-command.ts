import { realpathSync } from 'node:fs';
import { formatBytes } from '../../../embedded-model/download-model.js';
import {
  installRuntimeCommand,
  isLlamaRuntimeInstalled,
} from '../../../embedded-model/load-llama-runtime.js';
import { isModelFileToRegister } from '../../../embedded-model/model-store.js';
import type { CliIo } from '../../io/cli-io.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import { modelStoreFor, pullModel, pullTarget } from '../../setup/pull-model.js';
import type { ModelCommandInput } from './model-command.js';

/** `deepsearch model ...`: results on stdout, progress and notes on stderr. */
export async function runModelCommand(io: CliIo, input: ModelCommandInput): Promise<void> {
  const config = loadCliConfig(io, {}, input.flags.config);
  const store = modelStoreFor(config);
  switch (input.action) {
    case 'list':
      return listModels(io, store, input.flags.json ?? false);
    case 'pull': {
      if (input.target && isModelFileToRegister(input.target)) {
        // A file already on this machine: registered by name, not downloaded or copied.
        const registered = store.register(input.target);
        io.stderr.write(
          `deepsearch: ${registered.name} registered: a link to ${realpathSync(registered.path)} in ${store.modelsDir} ` +
            `(deepsearch model use ${registered.name} makes it the default)\n`,
        );
        io.stdout.write(`${registered.path}\n`);
        return;
      }
      const entry = pullTarget(store, input.target, input.flags.sha256);
      const path = await pullModel(io, config, entry, { quiet: input.flags.quiet });
      io.stdout.write(`${path}\n`);
      if (!(await isLlamaRuntimeInstalled())) {
        io.stderr.write(`deepsearch: note: running it needs node-llama-cpp: ${installRuntimeCommand}\n`);
      }
      return;
    }
    case 'remove': {
      const removed = store.remove(input.target!);
      io.stdout.write(`removed ${removed.join(', ')} from ${store.modelsDir}\n`);
      return;
    }
    case 'use': {
      // A path to a .gguf on this machine is registered by its file name first.
      const target = isModelFileToRegister(input.target!)
        ? store.register(input.target!).file
        : input.target!;
      const chosen = store.use(target);
      io.stdout.write(`${chosen.name} is now the default local model (${chosen.path})\n`);
    }
  }
}

function listModels(io: CliIo, store: ReturnType<typeof modelStoreFor>, json: boolean): void {
  const installed = store.list();
  const partials = store.partials();
  if (json) {
    const document = {
      modelsDir: store.modelsDir,
      installed: installed.map(({ manifest: _manifest, ...model }) => model),
      partial: partials,
      available: store.manifest.map(({ name, title, sizeBytes, license, url }) => ({
        name,
        title,
        sizeBytes,
        license,
        url,
      })),
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  io.stdout.write(`models in ${store.modelsDir}:\n`);
  if (installed.length === 0)
    io.stdout.write('  none yet: deepsearch model pull downloads the default one\n');
  for (const model of installed) {
    const mark = model.isDefault ? '*' : ' ';
    io.stdout.write(
      `${mark} ${model.name.padEnd(16)} ${formatBytes(model.sizeBytes).padStart(9)}  ${model.file}\n`,
    );
  }
  for (const partial of partials) io.stdout.write(`  (partial download ${partial}: pull again to resume)\n`);
  io.stdout.write('available by name (deepsearch model pull <name>):\n');
  for (const model of store.manifest) {
    io.stdout.write(
      `  ${model.name.padEnd(16)} ${formatBytes(model.sizeBytes).padStart(9)}  ${model.title} · ${model.license}\n`,
    );
  }
}
