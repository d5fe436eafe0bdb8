/**
 * The `default:` of a switch that must handle every member of a union: a member added later
 * becomes a compile error here instead of being dropped silently at run time.
 */
export function unreachable(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
