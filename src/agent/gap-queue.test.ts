import { describe, expect, it } from 'vitest';
import { GapQueue } from './gap-queue.js';

describe('GapQueue', () => {
  it('returns the original question when nothing is pending', () => {
    const queue = new GapQueue('Q');
    expect(queue.next()).toBe('Q');
    expect(queue.next()).toBe('Q');
  });

  it('is FIFO with rotation: new gaps, then the original again', () => {
    const queue = new GapQueue('Q');
    queue.add(['A', 'B']);
    expect([queue.next(), queue.next(), queue.next(), queue.next()]).toEqual(['A', 'B', 'Q', 'Q']);
  });

  it('queues later gaps behind earlier ones, revisiting the original after each batch', () => {
    const queue = new GapQueue('Q');
    queue.add(['A']);
    expect(queue.next()).toBe('A');
    queue.add(['C']);
    expect([queue.next(), queue.next(), queue.next()]).toEqual(['Q', 'C', 'Q']);
  });

  it('never queues a question already asked, in any case or punctuation', () => {
    const queue = new GapQueue('Who won?');
    expect(queue.add(['who won', 'What year?', 'what year'])).toEqual(['What year?']);
    expect(queue.add(['What year?'])).toEqual([]);
    expect(queue.allQuestions).toEqual(['Who won?', 'What year?']);
  });
});
