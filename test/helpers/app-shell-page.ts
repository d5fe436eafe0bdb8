/** An article as an app's data: what its script renders. */
export interface ShellArticle {
  title: string;
  paragraphs: readonly string[];
}

export interface AppShellPageOptions {
  /** Rendered from data inlined in the page, or fetched from this URL (a JSON ShellArticle) first. */
  article: ShellArticle | { dataUrl: string };
  /** Where the app mounts: `<div id="root">` by default, as create-react-app and Vite make it. */
  mountId?: string;
  /** Leave out the `<noscript>` that asks for JavaScript. */
  withoutNoscript?: boolean;
  /** More script after the render (a test's probes). */
  extraScript?: string;
  /** The script waits this long (a timer) after loading its data before it writes: a late writer. */
  writeAfterMs?: number;
  /** The script never writes (an app that fails in a browser too). */
  neverWrites?: boolean;
}

/**
 * A client-rendered page as apps send it: an empty mount point, a <noscript>, and a script that
 * writes a header, the article and a footer into the mount point (text set with textContent: the
 * data is never parsed as HTML). For tests and the extraction benchmark's client-rendered slice.
 */
export function appShellPage(options: AppShellPageOptions): string {
  const mountId = options.mountId ?? 'root';
  const { article } = options;
  const load =
    'dataUrl' in article
      ? `fetch(${scriptJson(article.dataUrl)}).then((response) => response.json())`
      : `Promise.resolve(${scriptJson(article)})`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>App</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
${options.withoutNoscript ? '' : '<noscript>You need to enable JavaScript to run this app.</noscript>'}
<div id="${mountId}"></div>
<script>
(function () {
  function add(parent, tag, text) {
    var element = document.createElement(tag);
    if (text) element.textContent = text;
    parent.appendChild(element);
    return element;
  }
  ${load}${options.writeAfterMs ? `.then(function (article) { return new Promise(function (done) { setTimeout(function () { done(article); }, ${Number(options.writeAfterMs)}); }); })` : ''}.then(function (article) {
    ${options.neverWrites ? 'return;' : ''}
    var root = document.getElementById(${scriptJson(mountId)});
    var nav = add(add(root, 'header'), 'nav');
    ['Home', 'Sections', 'Subscribe', 'Sign in'].forEach(function (label) { add(nav, 'a', label).href = '#'; });
    var main = add(add(root, 'main'), 'article');
    add(main, 'h1', article.title);
    article.paragraphs.forEach(function (text) { add(main, 'p', text); });
    add(add(root, 'footer'), 'p', 'Copyright and terms of use. All rights reserved.');
  });
})();
${options.extraScript ?? ''}
</script>
</body></html>`;
}

/** JSON safe inside a <script> element (no `</script>`, no line separators). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
