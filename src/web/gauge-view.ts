import type { RunDetail, RunEvent } from './api-client.js';
import { byId, formatTokens } from './dom.js';

interface BudgetShape {
  tokensUsed?: number;
  maxTokens?: number;
  stepsUsed?: number;
  maxSteps?: number;
}

/**
 * The tokens gauge under the run's head. A deep search shows its budget from each step's end; a
 * research task (whose sections' steps count against their own shares) adds up its LLM calls as
 * they come. When the run ends, what the server says it used replaces the live count: after a
 * resume that is the whole run's, earlier part included.
 */
export function createGaugeView() {
  const gauge = byId('gauge');
  const text = byId('gauge-text');
  const bar = byId('gauge-bar');
  const fill = byId('gauge-fill');
  let llmTokens = 0;

  function show(budget: BudgetShape) {
    const used = budget.tokensUsed ?? 0;
    const max = budget.maxTokens ?? 0;
    const percent = max > 0 ? Math.min(100, Math.round((used / max) * 100)) : 0;
    gauge.hidden = false;
    bar.hidden = max <= 0;
    text.textContent =
      `${formatTokens(used)}${max ? ` of ${formatTokens(max)}` : ''} tokens${max ? '' : ' used'}` +
      (budget.maxSteps ? ` · step ${budget.stepsUsed ?? 0} of ${budget.maxSteps}` : '');
    fill.style.width = `${percent}%`;
    bar.setAttribute('aria-valuenow', String(percent));
  }

  return {
    reset() {
      llmTokens = 0;
      gauge.hidden = true;
    },
    /** `own`: the event is the run's own (not one of its research sections'). */
    apply(event: RunEvent, options: { own: boolean; research: boolean }) {
      if (event.type === 'step-end' && options.own && !options.research) {
        const budget = event.budget as BudgetShape | undefined;
        if (budget && typeof budget.tokensUsed === 'number') show(budget);
      } else if (event.type === 'llm-call' && options.research) {
        llmTokens += (Number(event.promptTokens) || 0) + (Number(event.completionTokens) || 0);
        show({ tokensUsed: llmTokens });
      }
    },
    /** The finished run's own figures: its result's budget, else its recorded usage. */
    finish(detail: RunDetail) {
      const result = detail.result as Record<string, unknown> | undefined;
      const report = (result?.report ?? result) as { budget?: BudgetShape } | undefined;
      const budget = (result?.budget ?? report?.budget) as BudgetShape | undefined;
      if (budget && typeof budget.tokensUsed === 'number') show(budget);
      else if (detail.usage) show({ tokensUsed: detail.usage.total_tokens });
    },
  };
}
