// linkedom as patched at install (patches/linkedom+0.18.14.patch, applied by `npm ci`'s prepare):
// querySelector, querySelectorAll and closest compile a selector once per mode (HTML, XML) and
// reuse it, and every query answers as before: per document, per element for :scope, case by mode.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DOMParser, parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';

const ids = (nodes: Iterable<{ id: string }>) => [...nodes].map((node) => node.id);

describe('linkedom selectors compiled once', () => {
  it('is the installed linkedom (both builds): prepareMatch keeps what it compiled', () => {
    const require = createRequire(import.meta.url);
    const root = require.resolve('linkedom/package.json').replace(/package\.json$/, '');
    for (const build of ['esm', 'cjs']) {
      const source = readFileSync(`${root}${build}/shared/matches.js`, 'utf8');
      const unpatched = `linkedom's ${build} build is not patched: run \`npx patch-package\` (npm ci's prepare script does)`;
      expect(source, unpatched).toContain('const cache = compiled[xmlMode ? 1 : 0];');
    }
  });

  it('a selector asked of two documents finds each one its own elements', () => {
    const first = parseHTML('<html><body><p id="a" class="x">1</p><p id="b">2</p></body></html>').document;
    const second = parseHTML('<html><body><div><p id="c" class="x">3</p></div></body></html>').document;
    for (let round = 0; round < 2; round++) {
      expect(ids(first.querySelectorAll('p.x'))).toEqual(['a']);
      expect(ids(second.querySelectorAll('p.x'))).toEqual(['c']);
      expect(second.querySelector('div > p')?.id).toBe('c');
      expect(first.querySelector('div > p')).toBeNull();
    }
  });

  it(':scope is the element asked, each time', () => {
    const { document } = parseHTML(
      '<html><body><ul id="one"><li id="a"><ul id="two"><li id="b"></li></ul></li></ul></body></html>',
    );
    const one = document.getElementById('one')!;
    const two = document.getElementById('two')!;
    expect(ids(one.querySelectorAll(':scope > li'))).toEqual(['a']);
    expect(ids(two.querySelectorAll(':scope > li'))).toEqual(['b']);
    expect(ids(one.querySelectorAll(':scope > li'))).toEqual(['a']);
  });

  it('HTML matches tag names in any case, XML does not: the two modes keep apart', () => {
    const html = parseHTML('<html><body><div id="h"></div></body></html>').document;
    const xml = new DOMParser().parseFromString('<root><div id="x"/></root>', 'text/xml');
    for (let round = 0; round < 2; round++) {
      expect(html.querySelector('DIV')?.id).toBe('h');
      expect(xml.querySelector('DIV')).toBeNull();
      expect(xml.querySelector('div')?.getAttribute('id')).toBe('x');
    }
  });

  it('closest, many distinct selectors past the cache bound, and a bad selector each time', () => {
    const { document } = parseHTML(
      '<html><body><section id="s"><article id="t"><p id="p">x</p></article></section></body></html>',
    );
    const p = document.getElementById('p')!;
    expect(p.closest('section')?.id).toBe('s');
    expect(p.closest('article, section')?.id).toBe('t');
    for (let n = 0; n < 600; n++) {
      expect(document.querySelector(`#p, .never-${n}`)?.id).toBe('p');
    }
    expect(document.querySelector('section > article > p')?.id).toBe('p');
    expect(() => document.querySelector('p[')).toThrow();
    expect(() => document.querySelector('p[')).toThrow();
  });
});
