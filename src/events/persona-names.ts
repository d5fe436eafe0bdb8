import type { Persona } from './research-result.js';

/** How each persona is named in progress lines: a reader follows who does what. */
export const personaNames: Readonly<Record<Persona, string>> = {
  strategist: 'Research Strategist',
  search: 'Search Agent',
  librarian: 'Librarian',
  analyst: 'Document Analyst',
  synthesizer: 'Synthesizer',
};
