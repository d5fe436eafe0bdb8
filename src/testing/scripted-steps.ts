import type { EvaluationCriterion } from '../agent/evaluation/criteria.js';
import type { ScriptedStep } from './scripted-llm.js';

type Reference = { url: string; quote: string };

/**
 * Builders for the replies the agent's LLM calls expect, each pinned to its schema name so a
 * test fails if the loop makes a different call than scripted.
 */
export const scriptedStep = {
  search(queries: string[], think = 'I need to search.'): ScriptedStep {
    return agentStep(think, 'search', { queries }, `search ${queries.join(' | ')}`);
  },
  visit(targets: string[], think = 'I should read these pages.'): ScriptedStep {
    return agentStep(think, 'visit', { targets }, `visit ${targets.join(' | ')}`);
  },
  reflect(questions: string[], think = 'I need to break this down.'): ScriptedStep {
    return agentStep(think, 'reflect', { questions }, 'reflect');
  },
  coding(code: string, purpose?: string, think = 'I should compute this.'): ScriptedStep {
    return agentStep(think, 'coding', { code, ...(purpose ? { purpose } : {}) }, 'coding');
  },
  answer(text: string, references: Reference[] = [], think = 'I can answer now.'): ScriptedStep {
    return agentStep(think, 'answer', { text, references }, `answer ${text.slice(0, 30)}`);
  },
  /** The rewriter's reply: queries with an optional time range and language. */
  rewrite(queries: Array<string | { query: string; timeRange?: string; language?: string }>): ScriptedStep {
    return {
      label: `rewrite ${queries.length} queries`,
      expect: { schemaName: 'query_rewrite' },
      object: {
        think: 'rewritten',
        queries: queries.map((item) =>
          typeof item === 'string'
            ? { query: item, timeRange: 'none', language: '' }
            : { timeRange: 'none', language: '', ...item },
        ),
      },
    };
  },
  criteria(
    flags: Partial<Record<'freshness' | 'plurality' | 'completeness' | 'strict', boolean>> = {},
  ): ScriptedStep {
    return {
      label: 'criteria',
      expect: { schemaName: 'evaluation_criteria' },
      object: {
        think: 'classified',
        needsFreshness: flags.freshness ?? false,
        needsPlurality: flags.plurality ?? false,
        needsCompleteness: flags.completeness ?? false,
        needsStrict: flags.strict ?? false,
      },
    };
  },
  /** A judge's reply, with the analysis fields its criterion asks for consistent with `pass`. */
  evaluation(criterion: EvaluationCriterion, pass: boolean, improvement = ''): ScriptedStep {
    return {
      label: `evaluate ${criterion} ${pass ? 'pass' : 'fail'}`,
      expect: { schemaName: `evaluate_${criterion}` },
      object: {
        think: pass ? `meets ${criterion}` : `fails ${criterion}`,
        ...judgeAnalysis(criterion, pass),
        pass,
        improvement,
      },
    };
  },
  /**
   * The judges of a step-1 answer from memory to a factual question (a simple question, passed
   * on the definitive check): such an answer is never accepted unjudged.
   */
  memoryAnswerJudged(): ScriptedStep[] {
    return [scriptedStep.criteria(), scriptedStep.evaluation('definitive', true)];
  },
  analysis(improvement: string): ScriptedStep {
    return {
      label: 'failure analysis',
      expect: { schemaName: 'failure_analysis' },
      object: { recap: 'searched and answered', blame: 'answered too early', improvement },
    };
  },
  finalAnswer(
    text: string,
    references: Reference[] = [],
    think = 'Answering with what I have.',
  ): ScriptedStep {
    return {
      label: `final answer ${text.slice(0, 30)}`,
      expect: { schemaName: 'final_answer' },
      object: { think, answer: { text, references } },
    };
  },
};

/** An agent step in the shape its schema asks for: `{think, step: {action, <action>: payload}}`. */
function agentStep(think: string, action: string, payload: unknown, label: string): ScriptedStep {
  return {
    label,
    expect: { schemaName: 'agent_action' },
    object: { think, step: { action, [action]: payload } },
  };
}

/**
 * The same agent step in the flat shape models not held to the schema write,
 * `{think, action, <action>: payload}`: accepted too, as a repair.
 */
export function inFlatShape(step: ScriptedStep): ScriptedStep {
  const { think, step: inner } = step.object as { think: string; step: Record<string, unknown> };
  return { ...step, label: `${step.label} (flat)`, object: { think, ...inner } };
}

function judgeAnalysis(criterion: EvaluationCriterion, pass: boolean): Record<string, unknown> {
  switch (criterion) {
    case 'freshness':
      return { sourceDate: pass ? '2026-01-01' : '', maxAgeDays: 365 };
    case 'plurality':
      return { requiredCount: 3, givenCount: pass ? 3 : 1 };
    case 'completeness':
      return { aspectsAsked: ['first', 'second'], aspectsMissing: pass ? [] : ['second'] };
    case 'strict':
      return { unsupportedClaim: pass ? '' : 'the main claim', missingPart: '' };
    default:
      return {};
  }
}
