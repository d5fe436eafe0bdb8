import { join } from 'node:path';
import { keepConfigOrigins } from '../../../config/config-origins.js';
import { ConfigError, InputError } from '../../../core/errors/index.js';
import { cacheFileName } from '../../../runtime/create-provider-cache.js';
import type { CliIo } from '../../io/cli-io.js';
import { createTerminal, plural } from '../../io/terminal-style.js';
import { createCliRuntime, sqliteLoaderFrom } from '../../setup/create-cli-runtime.js';
import { discoverLlm } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import { checkBrowser } from './doctor-browser-check.js';
import { type CheckResult, checkCache, checkLlm, checkReader, checkSearch } from './doctor-checks.js';
import { type DoctorCommandFlags, defaultDoctorPage } from './doctor-command.js';
import { checkContextWindow } from './doctor-context-check.js';
import { checkProxy } from './doctor-proxy-check.js';
import { checkQueueServers } from './doctor-scale-check.js';

/** The longest check name, postgres: every detail starts in one column. */
const nameWidth = 8;

/**
 * `deepsearch doctor`: one line per check on stdout (ok or FAIL, with a fix under each failure),
 * exit code 0 only when all pass. Search and the LLM are checked even when the other fails.
 */
export async function runDoctorCommand(
  io: CliIo,
  input: { flags: DoctorCommandFlags; settingFlags: Record<string, unknown> },
): Promise<void> {
  // A typo in --page is the user's input, refused before any check, not a network failure.
  const page = doctorPage(input.flags.page);
  const config = await discoverLlm(io, loadCliConfig(io, input.settingFlags, input.flags.config));
  const runtime = createCliRuntime(
    io,
    keepConfigOrigins({ ...config, cache: { ...config.cache, enabled: false } }, config),
  );
  const out = createTerminal(io.stdout, io.env);
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    const mark = result.ok ? out.style('green', 'ok  ') : out.style('red', 'FAIL');
    out.write(`${mark}  ${result.name.padEnd(nameWidth)}  ${result.detail}`);
    if (!result.ok && result.fix) out.write(`${' '.repeat(4 + 2 + nameWidth + 2)}fix: ${result.fix}`);
  };
  // Chromium's start (seconds on a busy machine) overlaps the network checks; reported in its place.
  const browser = checkBrowser(config);
  try {
    report(await checkProxy(config, page));
    if (config.llm.provider === 'local-embedded') {
      const { checkLocalModel } = await import('./doctor-model-check.js');
      report(await checkLocalModel(config, io.signal));
    }
    const llm = await checkLlm(config, runtime);
    report(llm);
    // The window and mode are worth knowing only from a server that answered.
    if (llm.ok) report(await checkContextWindow(config, runtime));
    report(await checkSearch(runtime));
    // Before the reader's line: with --reader browser, a reader failure is then already explained.
    report(await browser);
    report(await checkReader(runtime, page));
    const cacheFile = config.cache.dir ? join(config.cache.dir, cacheFileName) : undefined;
    report(checkCache(config, cacheFile, sqliteLoaderFrom(io)));
    for (const result of await checkQueueServers(config)) report(result);
  } finally {
    // A check that threw above leaves the launch to finish here (main.ts then closes the browser).
    await browser.catch(() => undefined);
    runtime.close();
  }
  const failed = results.filter((result) => !result.ok).length;
  if (failed > 0) {
    throw new ConfigError(`${failed} of ${plural(results.length, 'check')} failed: see the fixes above`, {
      code: 'doctor_failed',
    });
  }
}

/** --page as an http(s) URL, or an input error saying what was wrong with it. */
function doctorPage(page: string | undefined): string {
  if (page === undefined) return defaultDoctorPage;
  const url = URL.canParse(page) ? new URL(page) : undefined;
  if (url?.protocol === 'http:' || url?.protocol === 'https:') return page;
  throw new InputError(`--page must be an http or https URL such as ${defaultDoctorPage} (got "${page}")`, {
    param: 'page',
  });
}
