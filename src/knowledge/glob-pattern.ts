/**
 * A glob as a RegExp over '/'-separated relative paths: `**` any depth, `*` and `?` within one
 * segment, `{a,b}` alternatives. A pattern without '/' matches the file name at any depth, as in
 * .gitignore ("*.pdf", "drafts").
 */
export function globToRegExp(glob: string): RegExp {
  const pattern = glob.replace(/\\/g, '/').replace(/^\.\//, '');
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index]!;
    if (character === '*' && pattern[index + 1] === '*') {
      const slash = pattern[index + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      index += slash ? 2 : 1;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else if (character === '{') source += '(?:';
    else if (character === '}') source += ')';
    else if (character === ',' && source.lastIndexOf('(?:') > source.lastIndexOf(')')) source += '|';
    else source += character.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  const anchored = pattern.includes('/') ? `^${source}(?:/.*)?$` : `(?:^|/)${source}(?:/.*)?$`;
  return new RegExp(anchored);
}

export function matchesAny(path: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((pattern) => pattern.test(path));
}
