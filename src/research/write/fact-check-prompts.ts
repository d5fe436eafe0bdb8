import * as z from 'zod';

export const claimsSchema = z.object({
  claims: z
    .array(
      z.object({
        section: z.string().max(100).describe('id of the section the sentence is in'),
        sentence: z
          .string()
          .min(1)
          .max(1000)
          .describe('the sentence copied exactly from the draft, with its [^n] markers'),
      }),
    )
    .max(40),
});

export const claimsSystem = `You are the fact-checker of a research team. List the factual claims of the draft: every sentence or table row that states a fact (a number, a date, a name, a cause, a comparison). Copy each exactly as written, with its footnote markers. Skip opinions, transitions and sentences saying something is unknown.`;

export const verdictsSchema = z.object({
  verdicts: z
    .array(
      z.object({
        claim: z.number().int().min(1),
        supported: z.boolean().describe('true only if the quotes themselves state the claim'),
      }),
    )
    // One per claim listed (claimsSchema's most).
    .max(40),
});

export const verdictsSystem = `You are the fact-checker of a research team. For each numbered claim, say whether the quotes of the sources it cites support it. Supported means the quotes state it (same figures, dates and names); a plausible claim the quotes do not state is not supported. Each claim says how many independent sources its quotes come from (copies of one story on several sites are one source).`;

export const revisionsSchema = z.object({
  revisions: z
    .array(
      z.object({
        claim: z.number().int().min(1),
        action: z.enum(['revise', 'remove']),
        sentence: z
          .string()
          .max(1000)
          .default('')
          .describe('revise: the corrected sentence, citing [^n] of the new sources that support it'),
      }),
    )
    .max(40),
});

export const revisionsSystem = `You are the fact-checker of a research team. Each numbered claim of the draft was not supported by its sources; a verification search found the new sources listed with it.
- If the new sources support the claim, or a corrected version of it, revise: write the sentence again (corrected where the sources differ), in the draft's language, citing [^n] of the new sources.
- Otherwise remove it. Never keep a claim that no new source supports.`;
