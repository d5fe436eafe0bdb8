import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeChromium } from '../../../platform/browser/launch-chromium.js';
import type { Page } from '../../../providers/spec/page-reader.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { createTestConfig } from '../../../testing/test-config.js';
import { checkBrowser } from './doctor-browser-check.js';
import { checkReader } from './doctor-checks.js';

// A "Chromium" that is not one: a start fails at once, and a line written to a file tells whether it
// was ever run.
let directory: string;
let fake: string;
let ranMarker: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deepsearch-doctor-browser-'));
  ranMarker = join(directory, 'ran');
  fake = join(directory, 'chromium');
  await writeFile(fake, `#!/bin/sh\necho started >> '${ranMarker}'\nexit 1\n`);
  await chmod(fake, 0o755);
});

afterAll(async () => {
  await closeChromium();
  await rm(directory, { recursive: true, force: true });
});

const check = (provider: string, chromiumPath: string) =>
  checkBrowser(createTestConfig({ reader: { provider, chromiumPath } }));

async function ran(): Promise<boolean> {
  return readFile(ranMarker, 'utf8').then(
    () => true,
    () => false,
  );
}

describe('doctor: the browser line', () => {
  it('does not start Chromium for a reader that never uses it, saying where it is', async () => {
    const result = await check('builtin', fake);
    expect(result).toEqual({
      name: 'browser',
      ok: true,
      detail: `Chromium at ${fake}; not used by --reader builtin`,
    });
    expect(await ran()).toBe(false);
  });

  it('starts it under auto and browser, and fails with a fix when it does not start', async () => {
    const result = await check('auto', fake);
    expect(result).toMatchObject({ name: 'browser', ok: false });
    expect(result.detail).toContain(`Chromium at ${fake} did not start`);
    expect(result.fix).toContain(`check that ${fake} --headless --version runs as this user`);
    expect(await ran()).toBe(true);
  });

  it('missing: a failure for --reader browser only; auto says shells are read without their scripts', async () => {
    const missing = join(directory, 'nowhere');
    expect(await check('browser', missing)).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`Chromium is not at ${missing}`),
      fix: expect.stringContaining('apt-get install chromium'),
    });
    expect(await check('auto', missing)).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^no Chromium: app shells are read without their scripts/),
    });
  });
});

describe('doctor: the reader line', () => {
  const runtimeReading = (page: Partial<Page>) =>
    ({ reader: { id: 'auto', read: async () => ({ text: '', ...page }) } }) as unknown as DeepSearchRuntime;

  it('says when the page read is an app shell left unrendered, and not otherwise', async () => {
    const shell = await checkReader(runtimeReading({ emptyShell: true }), 'http://docs.example.org/');
    expect(shell).toEqual({
      name: 'reader',
      ok: true,
      detail:
        'http://docs.example.org/: 0 characters of text, an app shell whose text its scripts write (see the browser line)',
    });
    const ordinary = await checkReader(runtimeReading({ text: 'Tides.' }), 'http://docs.example.org/');
    expect(ordinary.detail).toBe('http://docs.example.org/: 6 characters of text');
  });
});
