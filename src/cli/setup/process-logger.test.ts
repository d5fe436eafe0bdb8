import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../core/errors/index.js';
import { createProcessLogger } from './process-logger.js';

const secret = 'sk-live-0123456789abcdef';
const redact = createRedactor([secret]);

describe('createProcessLogger', () => {
  it('writes JSON lines with level, time, role and the fields, the secrets redacted', () => {
    const lines: string[] = [];
    const logger = createProcessLogger({
      format: 'json',
      write: (line) => lines.push(line),
      redact,
      role: 'worker',
    });
    logger.info({ event: 'job-finished', runId: 'r1', totalTokens: 1200 }, 'job finished');
    logger.warn({ event: 'warning' }, `the key ${secret} was refused`);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({
      level: 'info',
      role: 'worker',
      event: 'job-finished',
      runId: 'r1',
      totalTokens: 1200,
      msg: 'job finished',
    });
    expect(Date.parse(String(parsed[0]!.time))).not.toBeNaN();
    expect(parsed[1]).toMatchObject({ level: 'warn' });
    expect(lines.join('')).not.toContain(secret);
  });

  it('writes text lines a person reads: time, level, message, then key=value', () => {
    const lines: string[] = [];
    const logger = createProcessLogger({
      format: 'text',
      write: (line) => lines.push(line),
      redact,
      role: 'serve',
    });
    logger.info(
      { event: 'request', method: 'POST', status: 503, error: `Redis away ${secret}` },
      'POST /v1/research 503',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z INFO {2}POST \/v1\/research 503 event=request method=POST status=503 error="Redis away .*"\n$/,
    );
    expect(lines[0]).not.toContain(secret);
  });
});
