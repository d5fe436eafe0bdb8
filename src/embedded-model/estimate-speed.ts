import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { EmbeddedEngine } from './embedded-engine.js';

export interface MeasuredSpeed {
  /** Prompt tokens read per second. */
  promptPerSecond: number;
  /** Tokens written per second. */
  outputPerSecond: number;
  measuredAt: string;
}

const speedFile = 'speed.json';

/**
 * The model's speed on this machine: measured once per model file, backend and thread count and
 * kept beside the models (a measurement takes a few seconds of a 4B model's time), or measured
 * again when `fresh` (doctor).
 */
export async function modelSpeed(
  engine: EmbeddedEngine,
  options: { modelsDir?: string; fresh?: boolean; signal?: AbortSignal },
): Promise<MeasuredSpeed & { cached: boolean }> {
  const { info } = engine;
  const key = `${basename(info.modelPath)}|${statSync(info.modelPath).size}|${info.backend}|${info.threads}`;
  const file = options.modelsDir ? join(options.modelsDir, speedFile) : undefined;
  const known = file ? readSpeeds(file) : {};
  const cached = known[key];
  if (cached && !options.fresh) return { ...cached, cached: true };
  const measured = { ...(await engine.measureSpeed(options.signal)), measuredAt: new Date().toISOString() };
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
