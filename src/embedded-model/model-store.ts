import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { ConfigError, InputError } from '../core/errors/index.js';
import { checkGgufFile } from './gguf-header.js';
import { defaultModelName, type ManifestModel, manifestModels } from './model-manifest.js';

/** The model an unset `llm.model` means: the one `deepsearch model use` chose, else the default. */
export const defaultModelAlias = 'default';
const choiceFile = 'default-model';
export const partialSuffix = '.part';

export interface InstalledModel {
  /** The manifest name, or the file name for a model pulled from a URL. */
  name: string;
  file: string;
  path: string;
  sizeBytes: number;
  manifest?: ManifestModel;
  isDefault: boolean;
}

export interface ModelStoreOptions {
  modelsDir: string;
  /** The models pull knows by name (DEEPSEARCH_MODEL_MANIFEST replaces the built-in list). */
  manifest?: readonly ManifestModel[];
}

/** The downloaded models and the default choice, in one folder of .gguf files. */
export function createModelStore(options: ModelStoreOptions) {
  const { modelsDir } = options;
  const manifest = options.manifest ?? manifestModels;
  const byName = (name: string) => manifest.find((model) => model.name === name.toLowerCase());
  // The choice is kept as a file name, which needs no manifest to resolve.
  const chosen = (): string => {
    const file = join(modelsDir, choiceFile);
    return existsSync(file) ? readFileSync(file, 'utf8').trim() : (manifest[0]?.name ?? defaultModelName);
  };
  const fileOf = (name: string) =>
    assertModelFileName(byName(name)?.file ?? (name.endsWith('.gguf') ? name : `${name}.gguf`), name);

  return {
    modelsDir,
    manifest,
    /** The manifest entry for a name, `default` included. */
    find: (name: string) => {
      const wanted = name === defaultModelAlias ? chosen() : name;
      return byName(wanted) ?? manifest.find((model) => model.file === wanted);
    },
    defaultName: chosen,
    list(): InstalledModel[] {
      if (!existsSync(modelsDir)) return [];
      const current = fileOf(chosen());
      return (
        readdirSync(modelsDir)
          // A registered model whose file has gone is left out (remove still deletes its link).
          .filter((file) => file.endsWith('.gguf') && existsSync(join(modelsDir, file)))
          .sort()
          .map((file) => {
            const entry = manifest.find((model) => model.file === file);
            const path = join(modelsDir, file);
            return {
              name: entry?.name ?? file,
              file,
              path,
              sizeBytes: statSync(path).size,
              ...(entry ? { manifest: entry } : {}),
              isDefault: file === current,
            };
          })
      );
    },
    /** Partial downloads a later pull resumes. */
    partials: (): string[] =>
      existsSync(modelsDir) ? readdirSync(modelsDir).filter((file) => file.endsWith(partialSuffix)) : [],
    /** Where the model named (or the path given) is on disk; throws when it is not downloaded. */
    resolve(model: string): string {
      if (isModelPath(model)) {
        const path = resolve(model);
        if (!existsSync(path)) {
          throw new ConfigError(`the model file ${path} does not exist (llm.model)`, {
            code: 'embedded_model_missing',
          });
        }
        return path;
      }
      const name = model === defaultModelAlias ? chosen() : model;
      const path = join(modelsDir, fileOf(name));
      if (!existsSync(path)) {
        throw new ConfigError(
          `the local model ${name} is not downloaded: run deepsearch model pull ${name} ` +
            `(deepsearch model list shows what is in ${modelsDir})`,
          { code: 'embedded_model_missing' },
        );
      }
      return path;
    },
    /**
     * Registers a .gguf file elsewhere under its file name: a link in the models folder (the file is
     * not copied, so it must stay where it is), listed, usable and removable by that name.
     */
    register(modelPath: string): InstalledModel {
      const path = resolve(modelPath);
      if (!existsSync(path)) {
        throw new ConfigError(`the model file ${path} does not exist`, { code: 'embedded_model_missing' });
      }
      const check = checkGgufFile(path);
      if (!check.ok) {
        throw new ConfigError(`${path} is not a valid GGUF model: ${check.problem}`, {
          code: 'embedded_model_invalid',
        });
      }
      const file = assertModelFileName(
        basename(path).endsWith('.gguf') ? basename(path) : `${basename(path)}.gguf`,
      );
      const link = join(modelsDir, file);
      if (existsSync(link) || isDanglingLink(link)) {
        if (!existsSync(link) || realpathSync(link) !== realpathSync(path)) {
          throw new ConfigError(
            `a model named ${file.replace(/\.gguf$/, '')} is already in ${modelsDir}: remove it first ` +
              `(deepsearch model remove ${file.replace(/\.gguf$/, '')}) or rename ${path}`,
            { code: 'embedded_model_exists' },
          );
        }
      } else {
        mkdirSync(modelsDir, { recursive: true });
        symlinkSync(path, link);
      }
      return this.list().find((model) => model.file === file)!;
    },
    /** Makes a downloaded (or registered) model the one an unset llm.model means; names only (register takes paths). */
    use(name: string): InstalledModel {
      const file = fileOf(name);
      const installed = this.list().find((model) => model.name === name || model.file === file);
      if (!installed) {
        throw new ConfigError(
          `the local model ${name} is not downloaded: run deepsearch model pull ${name}`,
          {
            code: 'embedded_model_missing',
          },
        );
      }
      writeFileSync(join(modelsDir, choiceFile), `${installed.file}\n`);
      return installed;
    },
    /** Deletes a model and its partial download (a registered model: only its link); returns what was removed. */
    remove(name: string): string[] {
      const file = fileOf(name);
      const removed = [file, `${file}${partialSuffix}`].filter(
        (each) => existsSync(join(modelsDir, each)) || isDanglingLink(join(modelsDir, each)),
      );
      if (removed.length === 0) {
        throw new ConfigError(`no local model ${name} in ${modelsDir} (deepsearch model list shows them)`, {
          code: 'embedded_model_missing',
        });
      }
      for (const each of removed) rmSync(join(modelsDir, each), { force: true });
      return removed;
    },
  };
}

export type ModelStore = ReturnType<typeof createModelStore>;

/** A link whose file is gone (a registered model moved away): still ours to replace or remove. */
function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && !existsSync(path);
  } catch {
    return false;
  }
}

/** A path to a .gguf file rather than a model name. */
export function isModelPath(model: string): boolean {
  return isAbsolute(model) || model.startsWith('.') || (model.endsWith('.gguf') && basename(model) !== model);
}

/**
 * What `model pull` and `model use` take as a file on this machine to register: a path (as
 * isModelPath) that ends with `.gguf`, never a URL. Anything else is a name, checked as one, so
 * `../../victim` is refused as a name rather than followed, and a URL is downloaded.
 */
export function isModelFileToRegister(target: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return false;
  return /\.gguf$/i.test(target) && isModelPath(target);
}

/**
 * A model's file name inside the models folder: no path separator, no `..`, no NUL, so `pull`,
 * `use` and `remove` never reach outside the folder. Returns the file name; throws naming `name`.
 */
export function assertModelFileName(file: string, name = file): string {
  if (file === '' || /[/\\\0]/.test(file) || file.includes('..')) {
    throw new InputError(
      `'${name}' is not a model name: a name has no '/', '\\' or '..' (deepsearch model list shows the names; ` +
        'a model file elsewhere is given to llm.model as its path)',
      { param: 'model' },
    );
  }
  return file;
}
