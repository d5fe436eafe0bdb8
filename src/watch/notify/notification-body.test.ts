import { describe, expect, it } from 'vitest';
import type { WatchRun } from '../watch-record.js';
import { notificationBody, notificationPayload } from './notification-body.js';
import { signBody } from './sign-body.js';

const source = (quote: string) => ({ url: 'https://orlin.example/bridge', quote, title: 'Bridge' });
const run: WatchRun = {
  id: 'wrun_1',
  watchId: 'watch_1',
  runId: 'run_1',
  status: 'ok',
  startedAt: 1,
  finishedAt: 2,
  summary: '1 changed, 1 new, 1 removed',
  error: null,
  answer: null,
  changes: [
    {
      kind: 'unchanged',
      before: {
        text: 'It is run by the Orlin Transit Authority.',
        sources: [source('Orlin Transit Authority')],
      },
      after: {
        text: 'It is run by the Orlin Transit Authority.',
        sources: [source('Orlin Transit Authority')],
      },
    },
    {
      kind: 'changed',
      before: { text: 'The bridge is 412 metres long.', sources: [source('412 metres')] },
      after: { text: 'The bridge is 436 metres long.', sources: [source('436 metres')] },
      differences: [{ kind: 'number', before: ['412 metres'], after: ['436 metres'] }],
    },
    { kind: 'new', after: { text: 'A second deck opened in 2026.', sources: [source('second deck')] } },
    { kind: 'removed', before: { text: 'Tolls are charged.', sources: [] } },
  ],
};
const watch = { id: 'watch_1', name: 'Orlin', question: 'How long is the Orlin Bridge?' };

describe('the webhook body', () => {
  it('holds only new, changed and removed claims, with their sources before and after', () => {
    const payload = notificationPayload({ watch, run, runUrl: 'http://127.0.0.1:3000/v1/runs/run_1' });
    expect(payload).toEqual({
      watch,
      run: { id: 'run_1', url: 'http://127.0.0.1:3000/v1/runs/run_1' },
      changed: true,
      summary: '1 changed, 1 new, 1 removed',
      changes: [
        {
          kind: 'changed',
          before: 'The bridge is 412 metres long.',
          after: 'The bridge is 436 metres long.',
          sources: [
            { url: 'https://orlin.example/bridge', quote: '412 metres' },
            { url: 'https://orlin.example/bridge', quote: '436 metres' },
          ],
        },
        {
          kind: 'new',
          after: 'A second deck opened in 2026.',
          sources: [{ url: 'https://orlin.example/bridge', quote: 'second deck' }],
        },
        { kind: 'removed', before: 'Tolls are charged.', sources: [] },
      ],
    });
  });

  it('is a readable {text} for Slack, every change with its sources', () => {
    const body = JSON.parse(notificationBody(notificationPayload({ watch, run, runUrl: null }), 'slack'));
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toContain('*Orlin*: 1 changed, 1 new, 1 removed');
    expect(body.text).toContain(
      '• changed: ~The bridge is 412 metres long.~ → The bridge is 436 metres long.',
    );
    expect(body.text).toContain('• new: A second deck opened in 2026.');
    expect(body.text).toContain('• removed: ~Tolls are charged.~');
    expect(body.text).toContain('<https://orlin.example/bridge>: “436 metres”');
  });

  it('a failed check tells nothing changed, with the failure in the summary', () => {
    const failed: WatchRun = {
      ...run,
      status: 'failed',
      changes: [],
      summary: 'check failed: the LLM is down',
    };
    expect(notificationPayload({ watch, run: failed, runUrl: null })).toMatchObject({
      changed: false,
      changes: [],
      summary: 'check failed: the LLM is down',
    });
  });

  it('is signed with the HMAC-SHA256 of the exact body', () => {
    // RFC 4231 test case 2.
    expect(signBody('what do ya want for nothing?', 'Jefe')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
});
