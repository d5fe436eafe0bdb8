import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chooseThreads } from './choose-threads.js';
import type { EmbeddedEngine } from './embedded-engine.js';

export interface MeasuredSpeed {
  /** Prompt tokens read per second. */
  promptPerSecond: number;
  /** Tokens written per second. */
  outputPerSecond: number;
  /** The threads it was measured with, chosen by chooseThreads. */
  threads: number;
  /** Why that many threads. */
  threadsReason: string;
  measuredAt: string;
}

const speedFile = 'speed.json';
/** The whole probe: threads chosen (about 2 s at most), then reading timed with what is left. */
const probeBudgetMs = 3000;
/** Reading timed at most this long: a batch of a slow model's reading overshoots its budget. */
const readMaxMs = 800;

/**
 * The model's speed on this machine and the thread count it runs with: measured once per model
 * file, backend and thread setting and kept beside the models (the remembered thread count is
 * applied to the engine when read back), or measured again when `fresh` (doctor).
 */
export async function modelSpeed(
  engine: EmbeddedEngine,
  options: { modelsDir?: string; fresh?: boolean; signal?: AbortSignal },
): Promise<MeasuredSpeed & { cached: boolean }> {
  const { info } = engine;
  const threads = info.threadsFromSetting ? String(info.threads) : 'auto';
  const key = `${basename(info.modelPath)}|${statSync(info.modelPath).size}|${info.backend}|${threads}`;
  const file = options.modelsDir ? join(options.modelsDir, speedFile) : undefined;
  const known = file ? readSpeeds(file) : {};
  const cached = known[key];
  if (cached?.threads && !options.fresh) {
    if (!info.threadsFromSetting) engine.setThreads(cached.threads);
    return { ...cached, cached: true };
  }
  const started = performance.now();
  const choice = await chooseThreads(engine, { signal: options.signal });
  const readBudgetMs = Math.min(
    readMaxMs,
    Math.max(300, probeBudgetMs - readMaxMs - (performance.now() - started)),
  );
  const measured: MeasuredSpeed = {
    promptPerSecond: await engine.measureReading({ budgetMs: readBudgetMs, signal: options.signal }),
    outputPerSecond: choice.outputPerSecond,
    threads: choice.threads,
    threadsReason: choice.reason,
    measuredAt: new Date().toISOString(),
  };
  if (file && existsSync(options.modelsDir!)) {
    try {
      writeFileSync(file, `${JSON.stringify({ ...known, [key]: measured }, null, 2)}\n`);
    } catch {
      // A read-only models folder only costs a measurement next time.
    }
  }
  return { ...measured, cached: false };
}

function readSpeeds(file: string): Record<string, MeasuredSpeed> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, MeasuredSpeed>;
  } catch {
    return {};
  }
}

/** What one agent step costs: a prompt read (the new part of it) and a reply written. */
export interface StepEstimate {
  seconds: number;
  promptTokens: number;
  replyTokens: number;
}

/**
 * A step reads about half the window anew (the system prompt and the start of the knowledge stay
 * cached from step to step; the knowledge, diary and URL list change) and writes a short JSON
 * reply. Rough by design: it tells a person whether to wait a minute or an hour.
 */
export function estimateStepTime(speed: MeasuredSpeed, contextTokens: number): StepEstimate {
  const promptTokens = Math.round(contextTokens / 2);
  const replyTokens = 250;
  const seconds =
    promptTokens / Math.max(speed.promptPerSecond, 0.1) + replyTokens / Math.max(speed.outputPerSecond, 0.1);
  return { seconds: Math.round(seconds), promptTokens, replyTokens };
}

/**
 * Writing speed of a model not downloaded yet, from how fast this machine copies memory: on a
 * CPU each written token reads every weight once, so tokens/s ≈ memory bandwidth ÷ file size
 * (halved: a single-threaded copy is no exact measure). A GPU is faster.
 */
export function estimateOutputSpeed(modelBytes: number): number {
  const size = 64 * 1024 * 1024;
  const from = Buffer.alloc(size, 1);
  const to = Buffer.allocUnsafe(size);
  const rounds = 4;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) from.copy(to);
  const seconds = (performance.now() - started) / 1000;
  // A copy reads and writes each byte.
  const bytesPerSecond = (2 * size * rounds) / Math.max(seconds, 1e-3);
  return Math.round((bytesPerSecond / modelBytes) * 0.5 * 10) / 10;
}
