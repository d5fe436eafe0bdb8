import { parseSince } from '../../config/time-scope.js';
import { estimateTokens } from '../../platform/llm-context/estimate-tokens.js';
import { smallContextTokens } from '../../platform/llm-context/fit-context-window.js';
import { outputReserve } from '../../providers/llm/output-tokens.js';
import type { RankedUrl } from '../../retrieval/rank-urls.js';
import { renderFieldGuide } from '../../structured-output/field-guide.js';
import type { ActionLimits } from '../actions/action-definition.js';
import { type ActionName, renderActions } from '../actions/action-registry.js';
import { finalAnswerExample, finalAnswerSchema } from '../actions/final-answer-schema.js';
import { agentSystemPrompt } from '../prompts/agent-system-prompt.js';
import { finalAnswerSystemPrompt } from '../prompts/final-answer-prompt.js';
import type { RunContext } from '../run-context.js';
import type { UrlRecord } from '../state/url-index.js';
import { fenceUntrusted } from './fence-untrusted.js';
import { renderAttempts } from './render-attempts.js';
import { renderDiary } from './render-diary.js';
import { renderKnowledge } from './render-knowledge.js';
import { renderUrlList } from './render-url-list.js';

export interface AgentPrompt {
  system: string;
  prompt: string;
  promptTokens: number;
  /** URLs shown in <url-list> this step, best first. */
  urlList: string[];
}

/** The step schema's caps, from the config. */
export function actionLimits(context: RunContext): ActionLimits {
  return {
    maxQueries: context.config.agent.maxQueriesPerStep,
    maxUrls: context.config.agent.maxUrlsPerStep,
    maxGapQuestions: 5,
    maxReferences: 10,
  };
}

export { outputReserve };

/**
 * Knowledge cap of the small profile (windows up to 16k tokens): small local models lose the
 * question and the format rules in long prompts, so fewer, better snippets beat a full window.
 */
export const smallProfileKnowledgeTokens = 6000;
/** Everything but the system prompt and the question, under the small profile. */
export const smallProfileContextTokens = 9000;

/**
 * The prompt for one step, fitted to the context budget: system and question first, then bad
 * attempts, diary and URL list each within a share, and knowledge in whatever remains. Windows
 * up to 16k tokens get the small profile: a fixed cap on all of it, and on knowledge.
 */
export function buildAgentPrompt(
  context: RunContext,
  input: {
    question: string;
    allowed: readonly ActionName[];
    /** Caps of the step schema, named in the actions' prompt text. */
    limits?: ActionLimits;
    finalReason?: string;
    /** The step's URL ranking (rankUrlCandidates), shown when visit is allowed. */
    urlRanking?: ReadonlyArray<RankedUrl<UrlRecord>>;
  },
): AgentPrompt {
  const { state, config } = context;
  const system =
    input.finalReason === undefined
      ? agentSystemPrompt({
          actions: renderActions(input.allowed, { limits: input.limits ?? actionLimits(context), state }),
          today: context.today,
          languageRule: context.language.rule,
        })
      : finalAnswerSystemPrompt({
          today: context.today,
          languageRule: context.language.rule,
          reason: input.finalReason,
          // In the system prompt (not added by the LLM client) so the budget counts it.
          fieldGuide: renderFieldGuide(finalAnswerSchema, finalAnswerExample),
        });
  const questionPart =
    input.question === state.question
      ? `<question>\n${state.question}\n</question>`
      : `<original-question>\n${state.question}\n</original-question>\n<question>\n${input.question}\n</question>`;
  const contextTokens = config.llm.contextTokens;
  const total = contextTokens - outputReserve(contextTokens);
  const small = contextTokens <= smallContextTokens;
  const available = Math.min(
    small ? smallProfileContextTokens : Number.POSITIVE_INFINITY,
    Math.max(0, total - estimateTokens(system) - estimateTokens(questionPart) - 60),
  );
  const attempts = renderAttempts(state.failedAttempts, Math.floor(available * 0.1));
  const diary = renderDiary(state.diary.entries, Math.floor(available * 0.12), state.question);
  const wantsUrls = input.allowed.includes('visit') && input.finalReason === undefined;
  const urlList = wantsUrls
    ? renderUrlList(state, input.urlRanking ?? [], Math.floor(available * 0.15), sinceOf(config.search.since))
    : { text: '', urls: [] };
  const used = estimateTokens(attempts.attempts + attempts.strategy + diary + urlList.text);
  const knowledgeCap = small ? smallProfileKnowledgeTokens : Number.POSITIVE_INFINITY;
  // Hits already offered in <url-list> are not repeated in <search-results>.
  const knowledge = renderKnowledge(state, input.question, Math.min(available - used, knowledgeCap), {
    listedUrls: new Set(urlList.urls),
  });
  const sections = [
    knowledge && `<knowledge>\n${knowledge}\n</knowledge>`,
    diary && `<context>\n${fenceUntrusted(diary)}\n</context>`,
    attempts.attempts && `<bad-attempts>\n${attempts.attempts}\n</bad-attempts>`,
    attempts.strategy && `<learned-strategy>\n${attempts.strategy}\n</learned-strategy>`,
    urlList.text && `<url-list>\n${fenceUntrusted(urlList.text)}\n</url-list>`,
    questionPart,
  ].filter(Boolean);
  const prompt = sections.join('\n\n');
  return {
    system,
    prompt,
    promptTokens: estimateTokens(system) + estimateTokens(prompt),
    urlList: urlList.urls,
  };
}

/** `--since` as an instant, for the URL list to say which pages are older. */
function sinceOf(since: string | undefined): { since?: Date } {
  const date = since === undefined ? undefined : parseSince(since, new Date());
  return date ? { since: date } : {};
}
