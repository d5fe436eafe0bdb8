import type { AgentEventBody } from './agent-events.js';
import { type EventWords, plural } from './event-words.js';
import { personaNames } from './persona-names.js';
import type { ResearchEventBody } from './research-events.js';

/** The events describeEvent leaves to this file: research's, and the ones no surface words. */
type OtherEvent = Extract<
  AgentEventBody,
  { type: ResearchEventBody['type'] | 'search-plan' | 'url-ranking' | 'answer-delta' }
>;

/** Research's events in words: the plan, hops, coverage, a section written, the fact-check, personas. */
export function describeResearchEvent(event: OtherEvent): EventWords | undefined {
  switch (event.type) {
    case 'persona':
      return {
        kind: 'persona',
        level: 'info',
        subject: personaNames[event.persona],
        label: event.message,
        ...(event.section ? { section: event.section } : {}),
      };
    case 'research-plan': {
      const { plan, estimate } = event;
      const questions = plan.sections.reduce((sum, section) => sum + section.questions.length, 0);
      return {
        kind: 'plan',
        level: 'info',
        subject: personaNames.strategist,
        label: `plan: ${plural(plan.sections.length, 'section')}, ${plural(questions, 'question')}, ${plural(plan.dataPoints.length, 'data point')}`,
        detail: describeEstimate(estimate),
        items: plan.sections.map((section) => section.heading),
      };
    }
    case 'research-hop':
      return {
        kind: 'hop',
        level: 'info',
        section: event.section,
        label: `hop ${event.hop}: ${plural(event.questions.length, 'question')}`,
        items: event.questions,
      };
    case 'coverage':
      return {
        kind: 'coverage',
        level: event.missing.length ? 'warn' : 'ok',
        section: event.section,
        label: `after hop ${event.hop}: ${event.covered.length} of ${event.covered.length + event.missing.length} covered`,
        items: event.missing,
      };
    case 'research-section':
      return event.state === 'written'
        ? {
            kind: 'section',
            level: 'ok',
            section: event.section,
            label: `written, citing ${plural(event.sources ?? 0, 'source')}`,
          }
        : undefined;
    case 'fact-check':
      return {
        kind: 'fact-check',
        level: event.removed ? 'bad' : 'ok',
        subject: personaNames.synthesizer,
        label: `fact-check: ${plural(event.claims, 'claim')}, ${event.supported} supported, ${event.revised} revised, ${event.removed} removed`,
      };
    // Told by the persona lines and the report itself.
    case 'stagnation':
    case 'data-point':
    case 'research-end':
    // Detail for --debug only, each surface its own (the CLI's retrieval lines).
    case 'search-plan':
    case 'url-ranking':
    // The answer itself: a surface writes it as the answer, not as progress.
    case 'answer-delta':
      return undefined;
    default:
      return unknownEvent(event);
  }
}

/** The compiler points here when an event type has no words yet. */
function unknownEvent(event: never): undefined {
  void event;
  return undefined;
}

/**
 * The plan's estimate with each budget beside it, and the budgets it will hit first with the flag
 * that raises each: "estimate: ~200k tokens of 1M budget, ~4 min of 10 min, ~30 steps of 108,
 * ~90 LLM calls". A resumed task's says how many sections it has left.
 */
export function describeEstimate(
  estimate: Extract<AgentEventBody, { type: 'research-plan' }>['estimate'],
): string {
  const minutes = (ms: number) => `${Math.max(1, Math.round(ms / 60_000))} min`;
  const tokens = `~${roundTokens(estimate.tokens)} tokens${estimate.budgetTokens ? ` of ${roundTokens(estimate.budgetTokens)} budget` : ''}`;
  const time = `~${minutes(estimate.timeMs)}${estimate.budgetMs ? ` of ${minutes(estimate.budgetMs)}` : ''}`;
  const steps =
    estimate.steps !== undefined
      ? `, ~${estimate.steps} steps${estimate.budgetSteps ? ` of ${estimate.budgetSteps}` : ''}`
      : '';
  const hit = [
    estimate.budgetTokens && estimate.tokens > estimate.budgetTokens ? 'tokens (--max-tokens)' : '',
    estimate.budgetMs && estimate.timeMs > estimate.budgetMs ? 'time (--max-time)' : '',
    estimate.budgetSteps && estimate.steps !== undefined && estimate.steps > estimate.budgetSteps
      ? 'steps (--max-steps)'
      : '',
  ].filter(Boolean);
  const over = hit.length ? ` (the budget will stop it first: ${hit.join(', ')})` : '';
  const left = estimate.sections !== undefined ? ` for the ${plural(estimate.sections, 'section')} left` : '';
  return `estimate${left}: ${tokens}, ${time}${steps}, ~${estimate.llmCalls} LLM calls${over}`;
}

/** An estimate's tokens to two significant figures: "~430k", not "~428.0k". */
function roundTokens(tokens: number): string {
  const rounded = Number(tokens.toPrecision(2));
  if (rounded >= 1_000_000) return `${rounded / 1_000_000}M`;
  if (rounded >= 1000) return `${rounded / 1000}k`;
  return String(rounded);
}
