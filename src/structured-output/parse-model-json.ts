import { jsonrepair } from 'jsonrepair';

export interface ParsedModelJson {
  value: unknown;
  /** True when anything beyond JSON.parse of the trimmed reply was needed. */
  repaired: boolean;
  /** Text the model wrapped in think tags (or wrote before a bare closing tag). */
  reasoning: string;
}

export class ModelJsonError extends Error {
  override name = 'ModelJsonError';
}

const reasoningTags = ['think', 'thinking', 'reasoning', 'reflection'];
const closedBlock = new RegExp(`<(${reasoningTags.join('|')})>([\\s\\S]*?)</\\1>`, 'gi');
const strayClose = new RegExp(`^([\\s\\S]*?)</(${reasoningTags.join('|')})>`, 'i');
const strayOpen = new RegExp(`<(${reasoningTags.join('|')})>`, 'gi');

/** Separates reasoning (think tags) from the reply proper. */
export function splitReasoning(text: string): { content: string; reasoning: string } {
  const reasoning: string[] = [];
  let content = text.replace(closedBlock, (_match, _tag, inner: string) => {
    reasoning.push(inner.trim());
    return '';
  });
  // Chat templates that open <think> inside the prompt leave only the closing tag in the reply.
  const stray = strayClose.exec(content);
  if (stray) {
    reasoning.push(stray[1]!.trim());
    content = content.slice(stray[0].length);
  }
  content = content.replace(strayOpen, '');
  return { content: content.trim(), reasoning: reasoning.filter(Boolean).join('\n') };
}

/**
 * Turns what a model wrote into a JSON value: drops think blocks, code fences and chatter around
 * the object, then parses, repairing near-JSON (trailing commas, single quotes, comments,
 * Python literals, truncation) with jsonrepair. Throws ModelJsonError when nothing usable remains.
 */
export function parseModelJson(text: string): ParsedModelJson {
  const { content, reasoning } = splitReasoning(text);
  const candidate = extractJsonText(content);
  if (candidate === undefined) {
    // Some models put the whole answer inside the think block.
    const fromReasoning = reasoning ? extractJsonText(reasoning) : undefined;
    if (fromReasoning === undefined) throw new ModelJsonError('the reply contains no JSON object');
    return { ...parseCandidate(fromReasoning), repaired: true, reasoning };
  }
  const parsed = parseCandidate(candidate);
  return { ...parsed, repaired: parsed.repaired || candidate !== text.trim(), reasoning };
}

function parseCandidate(candidate: string): { value: unknown; repaired: boolean } {
  try {
    return { value: JSON.parse(candidate), repaired: false };
  } catch {
    // fall through to repair
  }
  try {
    return { value: JSON.parse(jsonrepair(candidate)), repaired: true };
  } catch (error) {
    throw new ModelJsonError(
      `the reply is not valid JSON and could not be repaired (${(error as Error).message})`,
    );
  }
}

/** The JSON part of a reply: a fenced block if there is one, else from the first brace on. */
export function extractJsonText(content: string): string | undefined {
  const fence = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)(?:```|$)/g;
  for (let match = fence.exec(content); match; match = fence.exec(content)) {
    const inner = match[1]!.trim();
    if (/^[[{]/.test(inner)) return sliceBalanced(inner, 0);
  }
  const start = content.search(/[[{]/);
  if (start === -1) return undefined;
  return sliceBalanced(content, start);
}

/** From `start` to the bracket that closes it, or to the end when the reply was cut off. */
function sliceBalanced(text: string, start: number): string {
  const stack: string[] = [];
  let inString: string | undefined;
  for (let index = start; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      if (char === '\\') index++;
      else if (char === inString) inString = undefined;
      continue;
    }
    if (char === '"') inString = char;
    else if (char === '{' || char === '[') stack.push(char === '{' ? '}' : ']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) break;
      if (stack.length === 0) return text.slice(start, index + 1);
    }
  }
  return text.slice(start).trim();
}
