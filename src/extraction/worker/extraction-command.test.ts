import { describe, expect, it } from 'vitest';
import { extractionCommand, heapFlag, tierUpFlag } from './extraction-command.js';

describe('the extraction process command', () => {
  it('starts Node with V8 optimising later, before the entry', async () => {
    const { args } = await extractionCommand();
    const entry = args.findIndex((arg) => !arg.startsWith('--'));
    expect(tierUpFlag).toMatch(/^--interrupt-budget=\d+$/);
    expect(args.indexOf(tierUpFlag)).toBeGreaterThanOrEqual(0);
    expect(args.indexOf(tierUpFlag)).toBeLessThan(entry);
    expect(args).toContain('--expose-gc');
  });

  it('gives V8 a heap a little under the memory cap, never under 64 MB', () => {
    expect(heapFlag(1024)).toBe('--max-old-space-size=921');
    expect(heapFlag(50)).toBe('--max-old-space-size=64');
  });
});
