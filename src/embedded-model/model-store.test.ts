import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTinyGguf } from '../../test/helpers/tiny-gguf.js';
import { manifestModels } from './model-manifest.js';
import { createModelStore, isModelFileToRegister } from './model-store.js';

function store() {
  const modelsDir = mkdtempSync(join(tmpdir(), 'deepsearch-models-'));
  return createModelStore({ modelsDir });
}

describe('the models folder', () => {
  it('resolves a name, the default, a file name and a path; says how to get one that is missing', () => {
    const models = store();
    const [first, second] = manifestModels;
    expect(() => models.resolve('default')).toThrow(
      `the local model ${first!.name} is not downloaded: run deepsearch model pull ${first!.name} ` +
        `(deepsearch model list shows what is in ${models.modelsDir})`,
    );
    writeFileSync(join(models.modelsDir, first!.file), 'gguf');
    writeFileSync(join(models.modelsDir, second!.file), 'gguf');
    writeFileSync(join(models.modelsDir, 'mine.gguf'), 'gguf');
    expect(models.resolve('default')).toBe(join(models.modelsDir, first!.file));
    expect(models.resolve(second!.name)).toBe(join(models.modelsDir, second!.file));
    expect(models.resolve('mine')).toBe(join(models.modelsDir, 'mine.gguf'));
    expect(models.resolve(join(models.modelsDir, 'mine.gguf'))).toBe(join(models.modelsDir, 'mine.gguf'));
    expect(() => models.resolve('/nowhere/else.gguf')).toThrow(
      'the model file /nowhere/else.gguf does not exist',
    );
  });

  it('use changes what the default means; list marks it and leaves partial downloads out', () => {
    const models = store();
    const [first, second] = manifestModels;
    writeFileSync(join(models.modelsDir, first!.file), 'gguf');
    writeFileSync(join(models.modelsDir, second!.file), 'gg');
    writeFileSync(join(models.modelsDir, `${second!.file}.part`), 'g');
    expect(models.use(second!.name).name).toBe(second!.name);
    expect(models.resolve('default')).toBe(join(models.modelsDir, second!.file));
    expect(models.list().map(({ name, isDefault, sizeBytes }) => ({ name, isDefault, sizeBytes }))).toEqual(
      expect.arrayContaining([
        { name: first!.name, isDefault: false, sizeBytes: 4 },
        { name: second!.name, isDefault: true, sizeBytes: 2 },
      ]),
    );
    expect(models.partials()).toEqual([`${second!.file}.part`]);
    expect(models.remove(second!.name)).toEqual([second!.file, `${second!.file}.part`]);
    expect(readdirSync(models.modelsDir).sort()).toEqual(['default-model', first!.file].sort());
    expect(() => models.remove(second!.name)).toThrow(
      `no local model ${second!.name} in ${models.modelsDir}`,
    );
  });

  it('use and remove take names only: a name reaching outside the models folder is refused', () => {
    const models = store();
    const outside = mkdtempSync(join(tmpdir(), 'deepsearch-victim-'));
    writeFileSync(join(outside, 'victim.gguf'), 'keep me');
    const relative = `../${outside.split('/').pop()}/victim`;
    for (const name of [relative, `${relative}.gguf`, 'a/b', 'a\\b', '..', 'x\0y']) {
      expect(() => models.remove(name), name).toThrow(`'${name}' is not a model name`);
      expect(() => models.use(name), name).toThrow(`'${name}' is not a model name`);
    }
    expect(readdirSync(outside)).toEqual(['victim.gguf']);
  });

  it('registers a .gguf elsewhere by its file name: a link, kept on a second register, never over another model', () => {
    const models = store();
    const elsewhere = mkdtempSync(join(tmpdir(), 'deepsearch-own-model-'));
    const own = join(elsewhere, 'own.gguf');
    writeFileSync(own, buildTinyGguf());
    const registered = models.register(own);
    expect(registered).toMatchObject({
      name: 'own.gguf',
      file: 'own.gguf',
      path: join(models.modelsDir, 'own.gguf'),
    });
    expect(readlinkSync(registered.path)).toBe(own);
    expect(models.register(own).path).toBe(registered.path);
    expect(models.use('own').file).toBe('own.gguf');
    expect(models.resolve('default')).toBe(registered.path);

    const other = mkdtempSync(join(tmpdir(), 'deepsearch-own-model-'));
    writeFileSync(join(other, 'own.gguf'), buildTinyGguf());
    expect(() => models.register(join(other, 'own.gguf'))).toThrow(
      `a model named own is already in ${models.modelsDir}: remove it first (deepsearch model remove own)`,
    );
    writeFileSync(join(other, 'text.gguf'), 'not a model');
    expect(() => models.register(join(other, 'text.gguf'))).toThrow('is not a valid GGUF model');

    // The file moved away: the link is left out of the list, and remove deletes only the link.
    rmSync(own);
    expect(models.list()).toEqual([]);
    expect(models.remove('own')).toEqual(['own.gguf']);
    expect(existsSync(join(other, 'own.gguf'))).toBe(true);
    expect(readdirSync(models.modelsDir)).toEqual(['default-model']);
  });
});

describe('isModelFileToRegister (model pull / model use)', () => {
  it('takes a path to a .gguf on this machine, never a URL or a name with a path in it', () => {
    for (const path of ['/models/tiny.gguf', './tiny.gguf', '../models/Tiny.GGUF', 'models/tiny.gguf'])
      expect([path, isModelFileToRegister(path)]).toEqual([path, true]);
    for (const other of [
      'https://example.com/models/tiny.gguf',
      'http://127.0.0.1:8080/slow/tiny.gguf',
      '../../victim',
      '/etc/passwd',
      'tiny.gguf',
      'qwen3-0.6b',
    ])
      expect([other, isModelFileToRegister(other)]).toEqual([other, false]);
  });
});
