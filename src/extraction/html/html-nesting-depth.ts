const formTags = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
const closesP = [
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details'],
  ...['div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav'],
  ...['ol', 'pre', 'section', 'table', 'ul'],
];

/** htmlparser2's openImpliesClose: opening the key closes these while one is the innermost element. */
const impliedCloses = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...closesP.map((name): [string, ReadonlySet<string>] => [name, new Set(['p'])]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map(
    (name): [string, ReadonlySet<string>] => [name, new Set(formTags)],
  ),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
]);

const voidElements = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
);
/** Where `/>` closes the element (true), and the elements inside them where it no longer does (false). */
const foreignContext = new Map<string, boolean>([
  ['svg', true],
  ['math', true],
  ...'mi mo mn ms mtext annotation-xml foreignobject desc title'
    .split(' ')
    .map((name): [string, boolean] => [name, false]),
]);
/** Elements htmlparser2's tokenizer reads as text up to their close tag. */
const textElements = new Map(
  ['script', 'style', 'title', 'textarea', 'xmp'].map((name) => [name, new RegExp(`</${name}`, 'gi')]),
);

/**
 * How deep elements nest in an HTML page, measured without building it, so a page nested too deep
 * for the extraction (whose time grows faster than the depth: 200 levels ~0.4 s, 500 ~3 s, 1,000
 * ~13 s) is refused before it is parsed. It follows htmlparser2's Parser, which builds linkedom's
 * tree, so the depth is that tree's: void elements hold nothing, an open tag closes what it implies
 * (`<li>` an open `<li>`, `<div>` an open `<p>`), a close tag closes up to its element and is
 * ignored without one, `/>` closes only in svg and math, and script, style, title, textarea and
 * xmp hold text. The Parser cannot measure it itself: it unshifts and searches an array stack on
 * every tag, quadratic in depth (200,000 nested divs take minutes); a stack with a count per name
 * keeps this linear. Stops counting past `stopAbove`.
 */
export function htmlNestingDepth(html: string, stopAbove = Number.POSITIVE_INFINITY): number {
  const stack: string[] = [];
  const contexts: boolean[] = [];
  const counts = new Map<string, number>();
  let deepest = 0;
  const pop = (): string => {
    const name = stack.pop()!;
    counts.set(name, counts.get(name)! - 1);
    if (foreignContext.has(name)) contexts.pop();
    return name;
  };
  const tag = /<!--|<(\/?)([a-zA-Z][^\s/>]*)([^>]*)>/g;
  for (let match = tag.exec(html); match; match = tag.exec(html)) {
    if (match[0] === '<!--') {
      const end = html.indexOf('-->', tag.lastIndex);
      if (end < 0) break;
      tag.lastIndex = end + 3;
      continue;
    }
    const name = match[2]!.toLowerCase();
    if (match[1]) {
      if ((counts.get(name) ?? 0) > 0) while (pop() !== name);
      continue;
    }
    const implied = impliedCloses.get(name);
    if (implied) while (stack.length > 0 && implied.has(stack.at(-1)!)) pop();
    if (voidElements.has(name) || (contexts.at(-1) === true && match[3]!.endsWith('/'))) continue;
    stack.push(name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    const context = foreignContext.get(name);
    if (context !== undefined) contexts.push(context);
    if (stack.length > deepest) {
      deepest = stack.length;
      if (deepest > stopAbove) return deepest;
    }
    const closing = textElements.get(name);
    if (closing) {
      closing.lastIndex = tag.lastIndex;
      const end = closing.exec(html);
      if (!end) break;
      tag.lastIndex = end.index;
    }
  }
  return deepest;
}
