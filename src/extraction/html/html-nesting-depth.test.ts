import { describe, expect, it } from 'vitest';
import { htmlNestingDepth } from './html-nesting-depth.js';

describe('htmlNestingDepth', () => {
  it('counts the depth htmlparser2 (linkedom) builds', () => {
    expect(htmlNestingDepth('<html><body><div><p>a</p></div></body></html>')).toBe(4);
    // Void elements hold nothing; <li> and <p> close their open siblings.
    expect(htmlNestingDepth('<ul><li>a<li>b<li><br><img src=x>c</ul>')).toBe(2);
    expect(htmlNestingDepth('<p>one<p>two<div>three</div>')).toBe(1);
    // A close tag closes up to its element; one without an open element is ignored.
    expect(htmlNestingDepth('<div><span><b>x</div></span><div>y</div>')).toBe(3);
    // `/>` closes only in svg and math; in HTML <div/> opens a div.
    expect(htmlNestingDepth('<svg><g/><g/><path/></svg>')).toBe(1);
    expect(htmlNestingDepth('<div/><div/><div/>x')).toBe(3);
  });

  it('does not count tags in comments, scripts, styles and titles', () => {
    const html = `<!-- ${'<div>'.repeat(50)} --><script>var s = "${'<div>'.repeat(50)}";</script><style>${'<b>'.repeat(9)}</style><div>x</div>`;
    expect(htmlNestingDepth(html)).toBe(1);
  });

  it('measures 200,000 nested divs, and stops counting past the limit', () => {
    const deep = `${'<div>'.repeat(200_000)}x${'</div>'.repeat(200_000)}`;
    expect(htmlNestingDepth(deep)).toBe(200_000);
    expect(htmlNestingDepth(deep, 256)).toBe(257);
  });
});
