import * as z from 'zod';
import { setting } from './setting.js';

const temperature = (value: number, env: string, description: string) =>
  setting(z.number().min(0).max(2).default(value), { env, description: `research: ${description}` });
const hops = (value: number, env: string, description: string) =>
  setting(z.number().int().min(1).max(10).default(value), { env, description: `research: ${description}` });
const share = (value: number, env: string, description: string) =>
  setting(z.number().min(0).max(1).default(value), { env, description: `research: ${description}` });

/**
 * Research mode's controller: sections in parallel, hops per section, the librarian's
 * coverage, and how query generation reacts when a section stops making progress.
 */
export const researchConfigSchema = z
  .object({
    concurrency: setting(z.number().int().min(1).max(16).default(3), {
      env: 'DEEPSEARCH_RESEARCH_CONCURRENCY',
      flag: 'research-concurrency',
      description: 'research: sections researched at once',
    }),
    // Each hop is a deep search, then the librarian's check.
    maxHops: setting(z.number().int().min(1).max(10).default(3), {
      env: 'DEEPSEARCH_RESEARCH_MAX_HOPS',
      flag: 'max-hops',
      description: 'research: hops per section; later hops search for what is still missing',
    }),
    writerShare: setting(z.number().min(0).max(0.9).default(0.25), {
      env: 'DEEPSEARCH_RESEARCH_WRITER_SHARE',
      flag: 'writer-share',
      description: 'research: share of the tokens and time kept for writing the report',
    }),
    queriesPerGap: setting(z.number().int().min(1).max(6).default(3), {
      env: 'DEEPSEARCH_RESEARCH_QUERIES_PER_GAP',
      description: 'research: query variations per missing item in a next hop',
    }),
    planningTemperature: temperature(
      0.1,
      'DEEPSEARCH_RESEARCH_PLANNING_TEMPERATURE',
      'temperature of the planning call',
    ),
    queryTemperature: temperature(
      0.4,
      'DEEPSEARCH_RESEARCH_QUERY_TEMPERATURE',
      'temperature of next-hop query generation while progressing',
    ),
    temperatureStep: temperature(
      0.2,
      'DEEPSEARCH_RESEARCH_TEMPERATURE_STEP',
      'raise of the query temperature when a section is stuck',
    ),
    temperatureCap: temperature(1.0, 'DEEPSEARCH_RESEARCH_TEMPERATURE_CAP', 'highest query temperature'),
    temperatureCooldownHops: setting(z.number().int().min(0).max(10).default(1), {
      env: 'DEEPSEARCH_RESEARCH_TEMPERATURE_COOLDOWN',
      description: 'research: hops after a raise before the next one',
    }),
    stagnationHops: hops(
      1,
      'DEEPSEARCH_RESEARCH_STAGNATION_HOPS',
      'hops without progress or with low diversity before a raise',
    ),
    pivotAfterHops: hops(
      2,
      'DEEPSEARCH_RESEARCH_PIVOT_AFTER_HOPS',
      'hops without progress before asking for a new angle',
    ),
    minProgress: share(
      0.1,
      'DEEPSEARCH_RESEARCH_MIN_PROGRESS',
      'coverage gain (0..1) a hop needs to count as progress',
    ),
    // 0: all seen before, 1: all new.
    minDiversity: share(
      0.2,
      'DEEPSEARCH_RESEARCH_MIN_DIVERSITY',
      'diversity (0..1) of newly read text below which a hop is low-diversity',
    ),
  })
  .strict()
  .refine((research) => research.temperatureCap >= research.queryTemperature, {
    message: 'temperatureCap must be at least queryTemperature',
    path: ['temperatureCap'],
  });
