import type { Persona } from '../events/research-types.js';

/** How each persona is named in progress lines (seed 004). */
export const personaNames: Readonly<Record<Persona, string>> = {
  strategist: 'Research Strategist',
  search: 'Search Agent',
  librarian: 'Librarian',
  analyst: 'Document Analyst',
  synthesizer: 'Synthesizer',
};
