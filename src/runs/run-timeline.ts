import type { AgentEvent } from '../events/agent-events.js';
import { describeEvent } from '../events/describe-event.js';

/**
 * What a run did, as markdown list items: each step with its searches, reads, checks and
 * warnings. A research task's sections run at once and their events interleave, so its steps are
 * listed under their section (hops, coverage, the verification of its claims), after the lines of
 * the task itself.
 */
export function runTimeline(events: readonly AgentEvent[]): string[] {
  const plan = events.find(
    (event): event is Extract<AgentEvent, { type: 'research-plan' }> => event.type === 'research-plan',
  );
  const lines = plan ? researchTimeline(events, plan.plan.sections) : events.flatMap(eventLine);
  return lines.length > 0 ? lines : ['(no events recorded)'];
}

function researchTimeline(
  events: readonly AgentEvent[],
  sections: ReadonlyArray<{ id: string; heading: string }>,
): string[] {
  const groups = new Map<string, string[]>(sections.map((section) => [section.id, []]));
  const task: string[] = [];
  // A section's deep searches (and its claims' verifications) carry their own run ids.
  const partSection = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'run-start' && event.part?.section) partSection.set(event.runId, event.part.section);
    const section = sectionOf(event) ?? partSection.get(event.runId);
    const lines = researchLine(event) ?? eventLine(event);
    if (lines.length === 0) continue;
    const group = section ? groups.get(section) : undefined;
    (group ?? task).push(...lines);
  }
  return [
    ...(task.length ? ['### The task', '', ...task] : []),
    ...sections.flatMap((section) => [
      '',
      `### ${section.id} ${section.heading}`,
      '',
      ...(groups.get(section.id)!.length ? groups.get(section.id)! : ['(not researched)']),
    ]),
  ];
}

function sectionOf(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'research-hop':
    case 'coverage':
    case 'research-section':
      return event.section;
    default:
      return undefined;
  }
}

/** The research task's own events: hops, coverage, a verification part's start, the fact-check. */
function researchLine(event: AgentEvent): string[] | undefined {
  switch (event.type) {
    case 'research-hop':
    case 'coverage':
    case 'fact-check': {
      const words = describeEvent(event);
      if (!words) return [];
      const items = words.items ?? [];
      const list = event.type === 'coverage' ? (items.length ? `; missing: ${items.join('; ')}` : '') : '';
      const questions = event.type === 'research-hop' ? ` — ${items.join('; ')}` : '';
      return [`- ${words.label}${list}${questions}`];
    }
    case 'research-section':
      return event.state === 'written' ? [`- ${describeEvent(event)?.label}`] : [];
    case 'run-start':
      return event.part?.purpose === 'verification' ? [`- verification: ${oneLine(event.question)}`] : [];
    default:
      return undefined;
  }
}

/** One event of a deep search as list items, in describeEvent's words (none for events that say nothing new). */
function eventLine(event: AgentEvent): string[] {
  const words = describeEvent(event);
  if (!words) return [];
  switch (event.type) {
    case 'action':
      return [`- step ${event.step}: **${words.label}** — ${oneLine(words.detail ?? '')}`];
    case 'search-end':
      return [`  - searched ${words.subject}: ${words.label}`];
    case 'read-end':
      return [
        `  - ${event.ok ? 'read' : 'could not read'} <${words.subject}>${words.detail ? ` (${words.detail})` : ''}`,
      ];
    case 'evaluation':
      return [`  - ${words.label}`];
    case 'warning':
      // A warning outside any step (step 0) is an item of its own, not under the step before it.
      return [`${event.step === 0 ? '' : '  '}- warning: ${oneLine(words.label)}`];
    default:
      return [];
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
