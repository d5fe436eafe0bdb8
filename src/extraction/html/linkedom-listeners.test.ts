// linkedom as patched at install (patches/linkedom+0.18.14.patch, applied by `npm ci`'s prepare):
// a node gets its listener table on its first addEventListener rather than when it is made, and
// events behave as before.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Event as LinkedomEvent, parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';

/** linkedom's Event, typed as the DOM's (its declared type lacks a few fields dispatch never reads). */
const newEvent = (type: string, init?: EventInit): Event => new LinkedomEvent(type, init) as unknown as Event;

describe('linkedom listener tables made on demand', () => {
  it('is the installed linkedom (both builds): no table made in the constructor', () => {
    const require = createRequire(import.meta.url);
    const root = require.resolve('linkedom/package.json').replace(/package\.json$/, '');
    for (const build of ['esm', 'cjs']) {
      const source = readFileSync(`${root}${build}/interface/event-target.js`, 'utf8');
      const constructorBody = /constructor\(\) \{([^}]*)\}/.exec(source)?.[1] ?? '';
      const unpatched = `linkedom's ${build} build is not patched: run \`npx patch-package\` (npm ci's prepare script does)`;
      expect(constructorBody, unpatched).not.toContain('wm.set');
      expect(source, unpatched).toContain('wm.set(this, map = new Map)');
    }
  });

  it('listeners added, bubbled to, called once, removed and stopped as before', () => {
    const { document } = parseHTML('<html><body><div id="outer"><p id="inner">text</p></div></body></html>');
    const outer = document.getElementById('outer')!;
    const inner = document.getElementById('inner')!;
    const calls: string[] = [];
    const onInner = (event: { eventPhase: number }) => calls.push(`inner:${event.eventPhase}`);
    inner.addEventListener('ping', onInner);
    inner.addEventListener('ping', () => calls.push('inner-once'), { once: true });
    outer.addEventListener('ping', (event: { eventPhase: number }) =>
      calls.push(`outer:${event.eventPhase}`),
    );

    inner.dispatchEvent(newEvent('ping', { bubbles: true }));
    inner.dispatchEvent(newEvent('ping'));
    inner.removeEventListener('ping', onInner);
    inner.dispatchEvent(newEvent('ping', { bubbles: true }));
    // A node that never had a listener: removing and dispatching are no-ops.
    document.body.removeEventListener('ping', onInner);
    expect(document.body.dispatchEvent(newEvent('ping'))).toBe(true);

    expect(calls).toEqual(['inner:2', 'inner-once', 'outer:3', 'inner:2', 'outer:3']);
  });

  it('stopImmediatePropagation, preventDefault and the onclick property', () => {
    const { document } = parseHTML('<html><body><button>go</button></body></html>');
    const button = document.querySelector('button')!;
    const calls: string[] = [];
    button.addEventListener(
      'click',
      (event: { stopImmediatePropagation(): void; preventDefault(): void }) => {
        calls.push('first');
        event.preventDefault();
        event.stopImmediatePropagation();
      },
    );
    button.addEventListener('click', () => calls.push('second'));
    expect(button.dispatchEvent(newEvent('click', { cancelable: true }))).toBe(false);

    const other = document.createElement('a');
    other.onclick = () => calls.push('onclick');
    other.click();
    other.onclick = null;
    other.click();
    expect(calls).toEqual(['first', 'onclick']);
  });
});
