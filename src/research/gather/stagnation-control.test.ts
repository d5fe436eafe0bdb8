import { describe, expect, it } from 'vitest';
import { researchConfigSchema } from '../../config/config-schema.js';
import { createLexicalEmbedding } from '../../providers/embedding/lexical-embedding.js';
import { HopSlots } from './hop-slots.js';
import { measureDiversity } from './measure-diversity.js';
import { StagnationControl } from './stagnation-control.js';

const config = (overrides: object = {}) =>
  researchConfigSchema.parse({
    queryTemperature: 0.4,
    temperatureStep: 0.3,
    temperatureCap: 1,
    stagnationHops: 1,
    pivotAfterHops: 3,
    temperatureCooldownHops: 1,
    ...overrides,
  });

describe('StagnationControl', () => {
  it('raises when stuck, waits out the cooldown, stops at the cap, pivots, and resets on progress', () => {
    const control = new StagnationControl(config());
    const decisions = [
      control.assess({ ratio: 0, diversity: 0.5 }), // stuck 1: raise to 0.7
      control.assess({ ratio: 0, diversity: 0.5 }), // stuck 2: cooling down
      control.assess({ ratio: 0, diversity: 0.5 }), // stuck 3: pivot
      control.assess({ ratio: 0, diversity: 0.5 }), // stuck 1 again: raise to 1 (cap)
      control.assess({ ratio: 0.05, diversity: 0.5 }), // under minProgress: at the cap, hold
      control.assess({ ratio: 0.5, diversity: 0.5 }), // progress: reset
    ].map((decision) => [decision.decision, decision.temperature]);
    expect(decisions).toEqual([
      ['raise', 0.7],
      ['hold', 0.7],
      ['pivot', 0.7],
      ['raise', 1],
      ['hold', 1],
      ['reset', 0.4],
    ]);
  });

  it('raises on low diversity only after the configured number of hops', () => {
    const control = new StagnationControl(config({ stagnationHops: 2, minProgress: 0.2, pivotAfterHops: 9 }));
    expect(control.assess({ ratio: 0.1, diversity: 0.05 }).decision).toBe('hold');
    expect(control.assess({ ratio: 0.15, diversity: 0.05 }).decision).toBe('raise');
  });

  it('refuses a cap below the base temperature', () => {
    expect(() => researchConfigSchema.parse({ queryTemperature: 0.8, temperatureCap: 0.5 })).toThrow(
      /temperatureCap/,
    );
  });
});

describe('measureDiversity', () => {
  const known = ['Germany sold 236,000 heat pumps in 2022.', 'France installed 621,000 heat pumps in 2022.'];

  it('is low for text that repeats what was read and high for new text', async () => {
    const embedding = createLexicalEmbedding();
    const repeat = await measureDiversity(embedding, ['Germany sold 236,000 heat pumps in 2022.'], known);
    const fresh = await measureDiversity(
      embedding,
      ['Installer training takes three years in Austria.'],
      known,
    );
    expect(repeat.value).toBeLessThan(0.1);
    expect(fresh.value).toBeGreaterThan(0.6);
    expect(repeat.method).toBe('lexical');
  });

  it('falls back to terms when the embedding service fails, and is 0 when nothing new was read', async () => {
    const failing = {
      specificationVersion: 'v1' as const,
      id: 'down',
      model: 'x',
      builtin: false,
      embed: async () => {
        throw new Error('503');
      },
    };
    const result = await measureDiversity(failing, ['Germany sold 236,000 heat pumps in 2022.'], known);
    expect(result).toMatchObject({ method: 'lexical', value: 0 });
    expect(await measureDiversity(failing, [], known)).toMatchObject({ value: 0, newChunks: 0 });
  });
});

describe('HopSlots', () => {
  it('runs at most `concurrency` hops and lets lower hop numbers go first', async () => {
    const slots = new HopSlots(1);
    const order: string[] = [];
    const first = await slots.acquire(1);
    const later = slots.acquire(3).then((release) => {
      order.push('hop 3');
      release();
    });
    const sooner = slots.acquire(2).then((release) => {
      order.push('hop 2');
      release();
    });
    first();
    await Promise.all([later, sooner]);
    expect(order).toEqual(['hop 2', 'hop 3']);
  });

  it('gives up waiting when cancelled', async () => {
    const slots = new HopSlots(1);
    await slots.acquire(1);
    const controller = new AbortController();
    const waiting = slots.acquire(1, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow(/cancelled/);
  });
});
