import { describe, expect, it } from 'vitest';
import { needsFreshness } from './needs-freshness.js';

const today = new Date('2026-11-21T00:00:00Z');

describe('needsFreshness', () => {
  it('is true for recency words in several languages and for this or last year', () => {
    for (const question of [
      'What is the latest version of Node.js?',
      'bitcoin price',
      'Quel est le dernier album de Stromae ?',
      'Wer ist aktuell Bundeskanzler?',
      'Какая сейчас инфляция в России?',
      '最新的 iPhone 是哪款',
      'Who won the 2026 World Cup?',
      'results of the 2025 election',
    ]) {
      expect(needsFreshness(question, today), question).toBe(true);
    }
  });

  it('is false for timeless or historical questions', () => {
    for (const question of [
      'Who directed the film that won Best Picture the year Parasite premiered?',
      'When was the Eiffel Tower completed?',
      'What happened in 1999 in Seattle?',
    ]) {
      expect(needsFreshness(question, today), question).toBe(false);
    }
  });
});
