import { countText } from './content-root.js';

/**
 * What a page's HTML says about text a script would write, read before extraction (which
 * rewrites the document). Client-rendered apps send an empty mount point (`<div id="root">`),
 * a `<noscript>` asking for JavaScript, and their text in script bundles.
 */
export interface AppShellMarkers {
  /** Visible characters in the body (script, style, noscript, template left out), counted up to `enough`. */
  bodyChars: number;
  /** A framework's mount point (#root, #app, #__next, <app-root>...) with next to no text in it. */
  emptyMountPoint: boolean;
  /** A <noscript> that mentions JavaScript ("enable JavaScript to run this app"). */
  noscriptAsksForScripts: boolean;
  /** A script that runs (a src, or inline code; not a JSON data block). */
  hasScripts: boolean;
}

/** Ids and the tag frameworks mount an app on (React, Vue, Next, Nuxt, Gatsby, Svelte, Angular, Ember). */
const mountIds = new Set([
  'root',
  'app',
  '__next',
  '__nuxt',
  '___gatsby',
  'svelte',
  'react-root',
  'app-root',
  'main-app',
  'application',
  'ember-app',
]);
const mountTag = 'app-root';
/** Script elements that hold data, not code (JSON, JSON-LD, templates). */
const dataScriptType = /json|template|text\/(?!javascript)/i;
const invisibleTags = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG']);
/** Past this much visible text in the body, a page is not a shell whatever the extraction keeps. */
const enough = 2_000;
/** Main text below this is "little text". */
const littleText = 300;

export function readAppShellMarkers(document: Document): AppShellMarkers {
  const body = document.body;
  if (!body)
    return { bodyChars: 0, emptyMountPoint: false, noscriptAsksForScripts: false, hasScripts: false };
  // One pass over the elements rather than a selector walk for each kind (three walks cost a
  // 150 KB page about a millisecond; this one a quarter of that).
  let mount = false;
  let noscript = false;
  let scripts = false;
  for (const element of document.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    if (tag === 'script') {
      scripts ||=
        !dataScriptType.test(element.getAttribute('type') ?? '') &&
        (element.hasAttribute('src') || (element.textContent ?? '').trim() !== '');
    } else if (tag === 'noscript') {
      noscript ||= /javascript/i.test(element.textContent ?? '');
    }
    if (!mount && (tag === mountTag || mountIds.has(element.getAttribute('id') ?? ''))) {
      mount = visibleChars(element, 100) < 100;
    }
  }
  return {
    bodyChars: visibleChars(body, enough),
    emptyMountPoint: mount,
    noscriptAsksForScripts: noscript,
    hasScripts: scripts,
  };
}

/**
 * Little text, scripts to write more, and a sign that they do: an empty mount point, a noscript
 * asking for JavaScript, or a body with (almost) nothing but scripts. A short page without such a
 * sign is just short.
 */
export function looksLikeAppShell(markers: AppShellMarkers, mainText: string): boolean {
  if (!markers.hasScripts || markers.bodyChars >= enough || countText(mainText) >= littleText) return false;
  return markers.emptyMountPoint || markers.noscriptAsksForScripts || markers.bodyChars < 50;
}

/** Visible characters under `root`, counting stopped once `limit` is reached. */
function visibleChars(root: Element, limit: number): number {
  let count = 0;
  const stack: Node[] = [root];
  while (stack.length > 0 && count < limit) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      count += countText(node.textContent ?? '');
      continue;
    }
    if (node.nodeType !== 1 || invisibleTags.has((node as Element).tagName.toUpperCase())) continue;
    const children = node.childNodes;
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
  return Math.min(count, limit);
}
