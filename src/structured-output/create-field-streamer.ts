type Frame =
  | { kind: 'object'; key: string | undefined; awaitingKey: boolean }
  | { kind: 'array'; index: number };

const escapes: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

export interface FieldStreamer {
  /** Feeds the next piece of the reply; returns what it added to the field's text (maybe ''). */
  push(chunk: string): string;
}

/**
 * Follows a JSON object as it is written, character by character, and gives back the decoded
 * text of the string at `path` (or at the first of `otherPaths` the reply writes to) as it grows. Re-parsing the partial reply on every delta would be
 * quadratic; this keeps only a stack of open objects and arrays. Text before the first `{` (a
 * think block, a code fence) is skipped, as the non-streaming parser skips it.
 */
export function createFieldStreamer(
  path: readonly string[],
  otherPaths: ReadonlyArray<readonly string[]> = [],
): FieldStreamer {
  // The first path the reply writes a string to is the one followed from then on.
  let candidates: ReadonlyArray<readonly string[]> = [path, ...otherPaths];
  const stack: Frame[] = [];
  let prefix = '';
  let started = false;
  let done = false;
  let inString = false;
  let isKey = false;
  let emitting = false;
  let escaped = false;
  let unicode: string | undefined;
  let key = '';

  const matches = (target: readonly string[]) =>
    stack.length === target.length &&
    stack.every((frame, index) =>
      frame.kind === 'object' ? frame.key === target[index] : String(frame.index) === target[index],
    );
  const atTarget = () => {
    const found = candidates.find(matches);
    if (found) candidates = [found];
    return found !== undefined;
  };

  const stringChar = (char: string, out: string[]): void => {
    let text: string | undefined;
    if (unicode !== undefined) {
      unicode += char;
      if (unicode.length < 4) return;
      text = String.fromCharCode(Number.parseInt(unicode, 16) || 0xfffd);
      unicode = undefined;
    } else if (escaped) {
      escaped = false;
      if (char === 'u') {
        unicode = '';
        return;
      }
      text = escapes[char] ?? char;
    } else if (char === '\\') {
      escaped = true;
      return;
    } else if (char === '"') {
      inString = false;
      const top = stack.at(-1);
      if (isKey && top?.kind === 'object') top.key = key;
      return;
    } else {
      text = char;
    }
    if (isKey) key += text;
    else if (emitting) out.push(text);
  };

  const structureChar = (char: string): void => {
    const top = stack.at(-1);
    if (char === '{') stack.push({ kind: 'object', key: undefined, awaitingKey: true });
    else if (char === '[') stack.push({ kind: 'array', index: 0 });
    else if (char === '}' || char === ']') {
      stack.pop();
      if (stack.length === 0) done = true;
    } else if (char === ':' && top?.kind === 'object') top.awaitingKey = false;
    else if (char === ',' && top?.kind === 'object') {
      top.awaitingKey = true;
      top.key = undefined;
    } else if (char === ',' && top?.kind === 'array') top.index++;
    else if (char === '"') {
      inString = true;
      isKey = top?.kind === 'object' && top.awaitingKey;
      key = '';
      emitting = !isKey && atTarget();
    }
  };

  return {
    push(chunk) {
      const out: string[] = [];
      for (const char of chunk) {
        if (done) break;
        if (!started) {
          prefix += char;
          const inThink = prefix.includes('<think>') && !prefix.includes('</think>');
          if (char !== '{' || inThink) continue;
          started = true;
        }
        if (inString) stringChar(char, out);
        else structureChar(char);
      }
      return out.join('');
    },
  };
}
