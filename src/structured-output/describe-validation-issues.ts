import type * as z from 'zod';

const typeNames: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/**
 * Validation problems as sentences a person (and the re-asked model) can act on:
 * "the reply's field `step.search.queries` must be a list of at most 3 items", not zod's dump.
 * `value` is what was validated, to tell a missing field from one of the wrong type.
 */
export function describeValidationIssues(error: z.ZodError, value: unknown): string {
  return error.issues
    .slice(0, 6)
    .map((issue) => describeIssue(issue, value))
    .join('; ');
}

function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  const path = issue.path.map(String);
  const subject = path.length ? `the reply's field \`${path.join('.')}\`` : 'the reply';
  switch (issue.code) {
    case 'invalid_type': {
      const wanted = typeNames[issue.expected] ?? issue.expected;
      const actual = valueAt(root, path);
      if (actual === undefined) return `${subject} is missing (it must be ${wanted})`;
      return `${subject} must be ${wanted}, not ${describeType(actual)}`;
    }
    case 'too_big':
      return `${subject} must be ${bound(issue.origin, 'at most', Number(issue.maximum))}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${subject} must not be empty`;
      if (issue.origin === 'array' && Number(issue.minimum) === 1)
        return `${subject} must not be an empty list`;
      return `${subject} must be ${bound(issue.origin, 'at least', Number(issue.minimum))}`;
    case 'invalid_value':
      return `${subject} must be one of ${issue.values.map((option) => JSON.stringify(option)).join(', ')}`;
    case 'unrecognized_keys':
      return `${subject} has fields that are not allowed: ${issue.keys.map((key) => `\`${key}\``).join(', ')}`;
    case 'invalid_union':
      // A discriminated union's tag (an agent step's `action`) that names no branch.
      if ('options' in issue && Array.isArray(issue.options))
        return `${subject} must be one of ${issue.options.map((option) => JSON.stringify(option)).join(', ')}`;
      return `${subject} does not match any of the allowed shapes`;
    case 'invalid_format':
      return `${subject} must be a valid ${issue.format}`;
    case 'custom':
      return issue.message;
    default:
      return `${subject}: ${issue.message}`;
  }
}

function bound(origin: string, relation: string, limit: number): string {
  if (origin === 'array' || origin === 'set')
    return `a list of ${relation} ${limit} item${limit === 1 ? '' : 's'}`;
  if (origin === 'string') return `${relation} ${limit} character${limit === 1 ? '' : 's'} long`;
  return `${relation} ${limit}`;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeNames[typeof value] ?? typeof value;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
