import { afterEach, describe, expect, it } from 'vitest';
import { parseAnswerSchema } from '../../src/agent/structured-answer.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { chatBody, postChat, startTestServer, type TestServer } from '../helpers/server-harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const withSchema = (schema: unknown) =>
  chatBody({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } } });

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { message: string; code: string; param: string | null } })
    .error;
}

// The probe's schema: zod ran this on the model's answer, 8.5 s for 44 characters.
const catastrophic = '^(\\w+\\s?)*$';

describe('a client regular expression in an answer schema is refused, never run', () => {
  it('400 naming the keyword path, wherever the pattern hides; no LLM call and /health answers', async () => {
    server = await startTestServer();
    const cases: Array<{ schema: unknown; path: string }> = [
      {
        schema: { type: 'object', properties: { name: { type: 'string', pattern: catastrophic } } },
        path: 'properties.name.pattern',
      },
      {
        schema: {
          type: 'object',
          properties: { list: { type: 'array', items: { $ref: '#/$defs/word' } } },
          $defs: { word: { type: 'string', pattern: catastrophic } },
        },
        path: '$defs.word.pattern',
      },
      {
        schema: { type: 'object', patternProperties: { [catastrophic]: { type: 'string' } } },
        path: 'patternProperties',
      },
      {
        schema: { type: 'object', propertyNames: { type: 'string', pattern: catastrophic } },
        path: 'propertyNames.pattern',
      },
      {
        schema: {
          anyOf: [{ type: 'string' }, { type: 'array', items: [{ type: 'string', pattern: 'x+' }] }],
        },
        path: 'anyOf.1.items.0.pattern',
      },
    ];
    for (const { schema, path } of cases) {
      const response = await postChat(server.url, withSchema(schema));
      expect(response.status).toBe(400);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const error = await errorOf(response);
      expect(error).toMatchObject({
        code: 'unsupported_schema_keyword',
        param: `response_format.json_schema.schema.${path}`,
      });
      expect(error.message).toContain(`at ${path}:`);
      expect(error.message).toContain('remove it');
    }
    const health = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(1000) });
    expect(health.status).toBe(200);
    expect(server.llm.calls).toEqual([]);
  });

  it('/v1/responses refuses a pattern in text.format the same way', async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'deepsearch',
        input: 'What is 1+1?',
        text: {
          format: {
            type: 'json_schema',
            name: 'answer',
            schema: { type: 'object', properties: { v: { type: 'string', pattern: catastrophic } } },
          },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'unsupported_schema_keyword' });
    expect(server.llm.calls).toEqual([]);
  });

  it('a property named "pattern" and "pattern" inside default data are not keywords: the request runs', async () => {
    server = await startTestServer({
      steps: [scriptedStep.answer('2'), { object: { pattern: 'two', count: 2 } }],
    });
    const response = await postChat(
      server.url,
      withSchema({
        type: 'object',
        properties: {
          pattern: { type: 'string', default: 'x', examples: [{ pattern: '(a+)+' }] },
          count: { type: 'number', default: { pattern: '(a+)+' } },
        },
        required: ['pattern', 'count'],
      }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({ pattern: 'two', count: 2 });
  });
});

describe("zod's format checks on a client schema", () => {
  // Each is a regular expression of zod's own, run on the model's answer: a backtracking one would
  // take minutes on 200,000 characters (quadratic: 4e10 steps); linear ones take milliseconds, so
  // the test's own timeout is what fails if one regresses.
  const formats = [
    'email',
    'uri',
    'uuid',
    'date-time',
    'date',
    'time',
    'duration',
    'hostname',
    'ipv4',
    'ipv6',
  ];
  const more = ['mac', 'cidr', 'cidr-v6', 'base64', 'base64url', 'e164', 'jwt', 'emoji', 'nanoid', 'cuid'];
  const units = ['a', '1', '-', '.', 'a.', '1.', 'a@', 'aa:', '1T', 'P1D', 'a-', '=', '😀'];

  it('reject 200,000-character hostile strings without backtracking', () => {
    for (const format of [...formats, ...more, 'cuid2', 'ulid', 'xid', 'ksuid', 'iban', 'credit_card']) {
      const { schema } = parseAnswerSchema({ jsonSchema: { type: 'string', format } });
      for (const unit of units) {
        const text = `${unit.repeat(Math.floor(200_000 / unit.length))}!`;
        // `aa:aa:…!` really is a URI (scheme `aa`); every other string is invalid for its format.
        const valid = format === 'uri' && unit === 'aa:';
        expect(schema.safeParse(text).success, `${format} on ${unit}…!`).toBe(valid);
      }
    }
  }, 60_000);

  it('still accept the values they are for', () => {
    const valid: Record<string, string> = {
      email: 'ada@example.org',
      'date-time': '2024-05-01T10:00:00Z',
      date: '2024-05-01',
      ipv4: '192.0.2.1',
    };
    for (const [format, value] of Object.entries(valid)) {
      const { schema } = parseAnswerSchema({ jsonSchema: { type: 'string', format } });
      expect(schema.safeParse(value).success, format).toBe(true);
    }
  });
});
