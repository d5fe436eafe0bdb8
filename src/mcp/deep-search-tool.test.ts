import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { inputSchema, overridesOf } from './deep-search-tool.js';

describe('deep_search input: since', () => {
  const input = z.object(inputSchema);

  it('takes a date or a duration and passes it to the run as search.since', () => {
    const parsed = input.parse({ question: 'What changed?', since: '30d' });
    expect(overridesOf(parsed).search).toMatchObject({ since: '30d' });
    expect(input.safeParse({ question: 'q', since: '2026-11-01' }).success).toBe(true);
  });

  it('refuses what is neither, naming the forms it takes', () => {
    const refused = input.safeParse({ question: 'q', since: 'last week' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['since'],
      message: expect.stringContaining('a date (2026-11-01) or a duration back from now'),
    });
  });
});
