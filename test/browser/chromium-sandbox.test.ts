import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium } from '../../src/platform/browser/launch-chromium.js';

/**
 * Chromium keeps its sandbox where it can: as an ordinary user its renderers live in user
 * namespaces of their own under a seccomp-bpf filter; as root (where Chromium refuses the sandbox) it runs without and says
 * why. The launch runs in a child process (the built module), as root and as `nobody`.
 */
const chromium = findChromium(undefined);
const launcher = new URL('../../dist/platform/browser/launch-chromium.js', import.meta.url).pathname;
const canSwitchUser =
  process.getuid?.() === 0 && spawnSync('su', ['nobody', '-s', '/bin/sh', '-c', 'true']).status === 0;

/** Launches the browser, opens a page, and reports the flags and namespaces of its processes. */
function probe(asNobody: boolean): {
  unsandboxedReason: string | null;
  noSandboxFlag: boolean;
  seccompFiltered: boolean;
  renderers: number;
} {
  const dir = mkdtempSync(join(tmpdir(), 'deepsearch-sandbox-'));
  chmodSync(dir, 0o777);
  const script = join(dir, 'probe.mjs');
  writeFileSync(
    script,
    `import { readFileSync, readdirSync } from 'node:fs';
const m = await import(${JSON.stringify(launcher)});
const browser = await m.launchChromium(m.findChromium(undefined));
const page = await (await browser.newContext()).newPage();
await page.setContent('<p>hi</p>');
const pids = readdirSync('/proc').filter((p) => /^\\d+$/.test(p));
// Chromium rewrites its processes' titles: the arguments may come back as one string.
const cmd = (p) => { try { return readFileSync('/proc/' + p + '/cmdline', 'utf8').split('\\0').join(' '); } catch { return ''; } };
const renderers = pids.filter((p) => cmd(p).includes('--type=renderer'));
const seccomp = (p) => { try { return /Seccomp:\\s*(\\d)/.exec(readFileSync('/proc/' + p + '/status', 'utf8'))?.[1] ?? ''; } catch { return ''; } };
const out = { unsandboxedReason: m.unsandboxedReason ?? null, noSandboxFlag: pids.some((p) => cmd(p).includes('chrom') && cmd(p).includes('--no-sandbox')), seccompFiltered: renderers.length > 0 && renderers.every((p) => seccomp(p) === '2'), renderers: renderers.length };
await m.closeChromium();
console.log(JSON.stringify(out));
`,
  );
  chmodSync(script, 0o644);
  const node = process.execPath;
  const output = asNobody
    ? execFileSync('su', ['nobody', '-s', '/bin/sh', '-c', `HOME=${dir} ${node} ${script}`], {
        encoding: 'utf8',
        timeout: 60_000,
      })
    : execFileSync(node, [script], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: dir } });
  return JSON.parse(output.trim().split('\n').at(-1)!);
}

describe.skipIf(!chromium.available || !existsSync(launcher) || process.platform !== 'linux')(
  'Chromium sandbox',
  () => {
    it.skipIf(!canSwitchUser)(
      'as an ordinary user, renderers run sandboxed (seccomp-bpf filtered)',
      () => {
        expect(probe(true)).toMatchObject({
          unsandboxedReason: null,
          noSandboxFlag: false,
          seccompFiltered: true,
        });
      },
      90_000,
    );

    it.skipIf(process.getuid?.() !== 0)(
      'as root it runs without the sandbox and says why',
      () => {
        expect(probe(false)).toMatchObject({
          unsandboxedReason: 'running as root, where Chromium cannot use its sandbox',
          noSandboxFlag: true,
          seccompFiltered: false,
        });
      },
      90_000,
    );
  },
);
