import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { actionNames, createActionSchema } from '../../src/agent/actions/action-registry.js';
import { finalAnswerSchema } from '../../src/agent/actions/final-answer-schema.js';
import { criteriaChoiceSchema, failureAnalysisSchema } from '../../src/agent/evaluation/criteria.js';
import { judgeSchemas } from '../../src/agent/evaluation/judge-schemas.js';
import { rewriteSchema } from '../../src/agent/steps/plan-queries.js';
import type { LlmRole } from '../../src/config/config-schema.js';
import { gradeSchema } from '../../src/eval/judge/grade-answer.js';
import { roleOutputCaps } from '../../src/providers/llm/output-tokens.js';
import { librarianSchema } from '../../src/research/gather/librarian-check.js';
import { nextHopSchema } from '../../src/research/gather/next-hop-queries.js';
import { planSchema } from '../../src/research/plan/plan-research.js';
import {
  attributesSchema,
  directSchema,
  overviewSchema,
  verificationSchema,
} from '../../src/research/plan/probe-data-points.js';
import { coherenceSchema } from '../../src/research/write/coherence-pass.js';
import {
  claimsSchema,
  revisionsSchema,
  verdictsSchema,
} from '../../src/research/write/fact-check-prompts.js';
import { reviewSchema, sectionRevisionSchema } from '../../src/research/write/final-review.js';
import { contradictionsSchema } from '../../src/research/write/find-contradictions.js';
import { followUpsSchema } from '../../src/research/write/follow-ups.js';
import { sectionSchema } from '../../src/research/write/write-section.js';
import type { JsonSchemaNode } from '../../src/structured-output/coerce-to-schema.js';
import { toJsonSchema } from '../../src/structured-output/to-json-schema.js';
import { grammarRepetitionLimit, toWireSchema } from '../../src/structured-output/wire-schema.js';

/** Characters a token holds at the least, for the text these roles write (English is nearer 4). */
const charsPerToken = 3;

/** The agent's lists at their largest settings (agent.maxQueriesPerStep and maxUrlsPerStep go to 20). */
const widestLimits = { maxQueries: 20, maxUrls: 20, maxGapQuestions: 5, maxReferences: 10 };
const defaultLimits = { maxQueries: 5, maxUrls: 4, maxGapQuestions: 5, maxReferences: 10 };

/** Every structured reply each role writes. */
const schemasByRole: Record<Exclude<LlmRole, never>, Record<string, z.ZodType>> = {
  agent: { agent_action: createActionSchema([...actionNames], widestLimits) },
  beast: { final_answer: finalAnswerSchema },
  evaluator: {
    evaluation_criteria: criteriaChoiceSchema,
    ...Object.fromEntries(Object.entries(judgeSchemas).map(([name, schema]) => [`evaluate_${name}`, schema])),
  },
  analyzer: { failure_analysis: failureAnalysisSchema },
  rewriter: { query_rewrite: rewriteSchema },
  planner: {
    plan: planSchema,
    direct: directSchema,
    overview: overviewSchema,
    attributes: attributesSchema,
    verification: verificationSchema,
    next_hop: nextHopSchema,
  },
  librarian: { librarian: librarianSchema },
  writer: {
    section: sectionSchema,
    coherence: coherenceSchema,
    follow_ups: followUpsSchema,
    claims: claimsSchema,
    verdicts: verdictsSchema,
    revisions: revisionsSchema,
    contradictions: contradictionsSchema,
    review: reviewSchema,
    section_revision: sectionRevisionSchema,
  },
  judge: { grade_answer: gradeSchema },
};

interface Walk {
  uncapped: string[];
  /** Free-text fields longer than the role's whole output limit. */
  tooLong: string[];
}

type Node = JsonSchemaNode & { minLength?: number };

/** The longest reply the schema allows, in characters of JSON; records what has no cap. */
function worstChars(node: Node, path: string, walk: Walk, limit: number): number {
  const branches = node.anyOf ?? node.oneOf;
  if (branches) return Math.max(...branches.map((branch) => worstChars(branch, path, walk, limit)));
  if (node.enum) return Math.max(...node.enum.map((value) => JSON.stringify(value).length));
  if (node.const !== undefined) return JSON.stringify(node.const).length;
  const type = Array.isArray(node.type) ? node.type.find((each) => each !== 'null') : node.type;
  if (type === 'string') {
    if (node.maxLength === undefined) walk.uncapped.push(path);
    else if (node.maxLength > limit) walk.tooLong.push(`${path} (${node.maxLength})`);
    return (node.maxLength ?? Number.POSITIVE_INFINITY) + 2;
  }
  if (type === 'array') {
    if (node.maxItems === undefined) walk.uncapped.push(`${path}[]`);
    const item = node.items ? worstChars(node.items, `${path}[]`, walk, limit) : 0;
    return (node.maxItems ?? Number.POSITIVE_INFINITY) * (item + 1) + 2;
  }
  if (type === 'object' || node.properties) {
    return Object.entries(node.properties ?? {}).reduce(
      (sum, [key, child]) =>
        sum + key.length + 4 + worstChars(child, path ? `${path}.${key}` : key, walk, limit),
      2,
    );
  }
  return 20;
}

function measure(role: LlmRole, schema: z.ZodType) {
  const limit = roleOutputCaps[role] * charsPerToken;
  const walk: Walk = { uncapped: [], tooLong: [] };
  const total = worstChars(toJsonSchema(schema), '', walk, limit);
  return { ...walk, total, limit };
}

describe('length caps on what every role writes', () => {
  for (const [role, schemas] of Object.entries(schemasByRole) as Array<
    [LlmRole, Record<string, z.ZodType>]
  >) {
    for (const [name, schema] of Object.entries(schemas)) {
      it(`${role} / ${name}: every text and list is capped, each field within the role's output limit`, () => {
        const { uncapped, tooLong } = measure(role, schema);
        expect(uncapped, 'fields without maxLength / maxItems').toEqual([]);
        expect(tooLong, 'fields longer than the output limit').toEqual([]);
      });
    }
  }

  // Replies of a few fields must fit whole: a step cut by the output limit loses its payload.
  // (Planner, librarian and writer replies are lists whose worst case no limit holds; a cut reply
  // is repaired or re-asked.)
  const whole: Array<[LlmRole, string, z.ZodType]> = [
    ['agent', 'agent_action (default limits)', createActionSchema([...actionNames], defaultLimits)],
    ['beast', 'final_answer', finalAnswerSchema],
    ['evaluator', 'evaluation_criteria', criteriaChoiceSchema],
    ...Object.entries(judgeSchemas).map(
      ([name, schema]) => ['evaluator', `evaluate_${name}`, schema] as [LlmRole, string, z.ZodType],
    ),
    ['analyzer', 'failure_analysis', failureAnalysisSchema],
    ['rewriter', 'query_rewrite', rewriteSchema],
    ['judge', 'grade_answer', gradeSchema],
  ];
  for (const [role, name, schema] of whole) {
    it(`${role} / ${name}: the longest reply the schema allows fits the role's output limit`, () => {
      const { total, limit } = measure(role, schema);
      expect(total).toBeLessThanOrEqual(limit);
    });
  }

  // llama.cpp refuses a whole grammar with one repetition of 2000 or more (char{0,n} for maxLength n).
  for (const [role, schemas] of Object.entries(schemasByRole) as Array<
    [LlmRole, Record<string, z.ZodType>]
  >) {
    for (const [name, schema] of Object.entries(schemas)) {
      it(`${role} / ${name}: the schema sent on the wire has no cap a llama.cpp grammar refuses`, () => {
        const json = toJsonSchema(schema);
        const wire = JSON.stringify(toWireSchema(json));
        const caps = (text: string) =>
          [...text.matchAll(/"maxLength":(\d+)/g)].map((match) => Number(match[1]));
        expect(caps(wire).filter((cap) => cap >= grammarRepetitionLimit)).toEqual([]);
        // The shorter caps stay, so a constrained decoder holds them.
        expect(caps(wire)).toEqual(caps(JSON.stringify(json)).filter((cap) => cap < grammarRepetitionLimit));
      });
    }
  }
});
