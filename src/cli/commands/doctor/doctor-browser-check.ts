import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { findChromium, launchChromium } from '../../../platform/browser/launch-chromium.js';
import type { CheckResult } from './doctor-checks.js';

const installFix =
  'install it (Debian/Ubuntu: apt-get install chromium) or point DEEPSEARCH_CHROMIUM_PATH (--chromium-path) at it';

/**
 * Whether the browser reader can run: Chromium found (where), started headless (only when the
 * reader uses it), and its version.
 * Missing is a failure only when the reader is `browser`; under `auto` app shells are then read
 * without their scripts, which the line says.
 */
export async function checkBrowser(config: DeepSearchConfig): Promise<CheckResult> {
  const provider = config.reader.provider;
  const use =
    provider === 'browser'
      ? 'reads every page (--reader browser)'
      : provider === 'auto'
        ? 'reads the pages scripts write (app shells)'
        : `not used by --reader ${provider}`;
  const status = findChromium(config.reader.chromiumPath);
  if (!status.available) {
    if (provider !== 'browser') {
      const effect = provider === 'auto' ? 'app shells are read without their scripts' : use;
      return { name: 'browser', ok: true, detail: `no Chromium: ${effect} (${status.reason})` };
    }
    return { name: 'browser', ok: false, detail: status.reason, fix: installFix };
  }
  // A reader that never starts it: where it is, without the seconds a start takes.
  if (provider !== 'browser' && provider !== 'auto') {
    return { name: 'browser', ok: true, detail: `Chromium at ${status.executablePath}; ${use}` };
  }
  try {
    const browser = await launchChromium(status);
    return {
      name: 'browser',
      ok: true,
      detail: `Chromium ${browser.version()} at ${status.executablePath}, starts headless; ${use}`,
    };
  } catch (error) {
    return {
      name: 'browser',
      ok: false,
      detail: (error as Error).message,
      fix: `check that ${status.executablePath} --headless --version runs as this user, or ${installFix}`,
    };
  }
}
