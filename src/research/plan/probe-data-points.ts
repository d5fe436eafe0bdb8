import * as z from 'zod';
import { callLlm, type RunContext } from '../../agent/run-context.js';
import type { DataPoint, ResearchPlan } from '../../events/research-result.js';
import type { ResearchContext } from '../research-context.js';

/** A fact the model proposed for a data point, and the search that is to verify it. */
export interface ProposedFact {
  dataPoint: DataPoint;
  fact: string;
  verificationQuery: string;
}

// Lists are answered per data point (a plan has at most 20) or per wanted attribute (at most 10).
export const directSchema = z.object({
  facts: z
    .array(
      z.object({
        id: z.number().int().min(1),
        known: z.boolean().describe('false when you do not know it reliably'),
        answer: z.string().max(500).default(''),
      }),
    )
    .max(20),
});

export const overviewSchema = z.object({
  overview: z.string().min(1).max(6000).describe('what you know about the entity, facts only'),
});

export const attributesSchema = z.object({
  attributes: z
    .array(
      z.object({
        id: z.number().int().min(1),
        value: z.string().max(500).describe('the value as the overview states it; empty if it does not'),
      }),
    )
    .max(20),
});

export const verificationSchema = z.object({
  queries: z
    .array(
      z.object({
        id: z.number().int().min(1),
        query: z.string().min(1).max(300).describe('a web search that would confirm or refute the fact'),
      }),
    )
    .max(20),
});

/**
 * Runs the data points' strategies: ask-llm asks the model directly (temperature 0);
 * entity-overview gets an overview of the core entity (low temperature) and extracts the
 * attributes from it (temperature 0). Every proposed fact then gets a targeted verification
 * query; the section's first hop searches it and the librarian records whether what was read
 * confirmed or contradicted it. web-search data points need nothing here.
 */
export async function probeDataPoints(
  research: ResearchContext,
  plan: ResearchPlan,
  context: RunContext,
): Promise<ProposedFact[]> {
  const asked = plan.dataPoints.filter((point) => point.strategy === 'ask-llm');
  const entity = plan.dataPoints.filter((point) => point.strategy === 'entity-overview');
  if (asked.length === 0 && entity.length === 0) return [];
  const proposed: Array<{ dataPoint: DataPoint; fact: string }> = [];
  const rule = context.language.rule;
  if (asked.length > 0) {
    research.say(
      'strategist',
      `asking the model directly for ${asked.length} data point(s) it likely knows; each answer will be checked by a targeted search`,
    );
    const { object } = await callLlm(context, {
      role: 'planner',
      system: `Answer each data point from your own knowledge, briefly and precisely (a value, a date, a name). Say known: false when you are not sure. ${rule}`,
      prompt: `<topic>\n${plan.topic}\n</topic>\n<data-points>\n${numbered(asked)}\n</data-points>`,
      schema: directSchema,
      schemaName: 'direct_facts',
      temperature: 0,
    });
    for (const fact of object.facts) {
      const point = asked[fact.id - 1];
      if (point && fact.known && fact.answer.trim())
        proposed.push({ dataPoint: point, fact: fact.answer.trim() });
    }
  }
  if (entity.length > 0) {
    const core = plan.coreEntity ?? plan.topic;
    research.say(
      'strategist',
      `getting an overview of ${core}, then reading ${entity.length} attribute(s) from it`,
    );
    const { object: overview } = await callLlm(context, {
      role: 'planner',
      system: `Write a factual overview of the entity: what it is, key dates, figures, people and places. ${rule}`,
      prompt: `<entity>\n${core}\n</entity>${plan.targetAttributes?.length ? `\n<attributes>\n${plan.targetAttributes.join('\n')}\n</attributes>` : ''}`,
      schema: overviewSchema,
      schemaName: 'entity_overview',
      temperature: context.config.research.planningTemperature,
    });
    const { object } = await callLlm(context, {
      role: 'planner',
      system:
        'Extract each attribute from the overview, exactly as it states it. Leave the value empty when the overview does not give it.',
      prompt: `<overview>\n${overview.overview}\n</overview>\n<attributes>\n${numbered(entity)}\n</attributes>`,
      schema: attributesSchema,
      schemaName: 'attribute_extraction',
      temperature: 0,
    });
    for (const attribute of object.attributes) {
      const point = entity[attribute.id - 1];
      if (point && attribute.value.trim()) proposed.push({ dataPoint: point, fact: attribute.value.trim() });
    }
  }
  if (proposed.length === 0) return [];
  const { object } = await callLlm(context, {
    role: 'planner',
    system:
      'For each proposed fact write one targeted web search query that would find a source confirming or refuting it.',
    prompt: `<facts>\n${proposed.map((item, index) => `${index + 1}. ${item.dataPoint.description}: ${item.fact}`).join('\n')}\n</facts>`,
    schema: verificationSchema,
    schemaName: 'verification_queries',
    temperature: 0,
  });
  const queries = new Map(object.queries.map((item) => [item.id, item.query.trim()]));
  return proposed.map((item, index) => {
    const verificationQuery = queries.get(index + 1) || `${item.dataPoint.description} ${item.fact}`;
    research.task.emit({
      type: 'data-point',
      dataPoint: item.dataPoint.id,
      strategy: item.dataPoint.strategy,
      proposedFact: item.fact,
      verificationQuery,
    });
    return { ...item, verificationQuery };
  });
}

function numbered(points: DataPoint[]): string {
  return points.map((point, index) => `${index + 1}. ${point.description}`).join('\n');
}
