/**
 * JavaScript that runs inside the QuickJS context, never in the host: it evaluates to a function
 * `(code, inputJson, maxOutputChars, maxLogChars) → Promise<string>`.
 *
 * - The model's code is compiled with the guest's own AsyncFunction constructor, as the body of an
 *   async function, so its result is what it `return`s (a returned Promise is awaited) and a syntax
 *   error is told apart from a runtime one. The host never evaluates it.
 * - `input` is parsed from JSON inside the guest: a deep copy, no host object crosses.
 * - `console.log` and friends append to a bounded list; no host function is exposed at all.
 * - The result is serialised inside the guest, where the time and memory limits still hold, and
 *   comes back as one string (the envelope) that the host parses and validates. The built-ins used
 *   here are captured before the model's code runs; whatever the code changes afterwards can only
 *   spoil its own envelope, which the host then rejects.
 */
export const sandboxPrelude = `(function (code, inputJson, maxOutputChars, maxLogChars) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const toText = String;
  const apply = Reflect.apply;
  const sliceText = String.prototype.slice;
  const PromiseResolve = Promise.resolve.bind(Promise);
  const AsyncFunction = (async function () {}).constructor;
  const logs = [];
  let logChars = 0;
  let logsFull = false;

  function describe(value) {
    if (typeof value === 'string') return value;
    try {
      const text = stringify(value);
      if (text !== undefined) return text;
    } catch (_error) {}
    try {
      return toText(value);
    } catch (_error) {
      return '[value that cannot be printed]';
    }
  }

  function log() {
    if (logsFull) return;
    let line = '';
    for (let index = 0; index < arguments.length; index++) {
      line += (index === 0 ? '' : ' ') + describe(arguments[index]);
    }
    // Each line costs at least one character, so a million empty logs are bounded too.
    const room = maxLogChars - logChars - 1;
    if (line.length > room) {
      line = apply(sliceText, line, [0, room > 0 ? room : 0]) + ' …(logs truncated)';
      logsFull = true;
    }
    logChars += line.length + 1;
    logs[logs.length] = line;
  }

  function failure(kind, error) {
    let name = 'Error';
    let message = 'an exception that cannot be printed';
    let stack = '';
    // The code's own \`throw null\`, or QuickJS out of memory while making the error object: only
    // the host knows which (whether the heap failed to grow).
    if (error === null) return stringify({ ok: false, kind, thrownNull: true, name: 'null', message: 'null', stack, logs });
    try {
      if (typeof error === 'object') {
        name = toText(error.name);
        message = toText(error.message);
        stack = typeof error.stack === 'string' ? error.stack : '';
      } else {
        message = toText(error);
      }
    } catch (_error) {}
    return stringify({ ok: false, kind, name, message, stack, logs });
  }

  globalThis.console = { log, info: log, warn: log, error: log, debug: log };

  let run;
  try {
    run = new AsyncFunction('input', code);
  } catch (error) {
    return PromiseResolve(failure('syntax', error));
  }
  const input = parse(inputJson);
  globalThis.input = input;

  return (async function () {
    let value;
    try {
      value = await apply(run, globalThis, [input]);
    } catch (error) {
      return failure('runtime', error);
    }
    if (value === undefined) {
      return failure('runtime', {
        name: 'Error',
        message: 'the code returned nothing: end it with return <result>',
      });
    }
    let text;
    try {
      text = stringify(value);
    } catch (error) {
      return failure('runtime', { name: 'TypeError', message: 'the result is not JSON data: ' + describe(error && error.message) });
    }
    if (text === undefined) {
      return failure('runtime', { name: 'TypeError', message: 'the result is a ' + typeof value + ', not JSON data' });
    }
    if (text.length > maxOutputChars) {
      return failure('output-too-large', {
        name: 'RangeError',
        message: 'the result is ' + text.length + ' characters of JSON; the limit is ' + maxOutputChars,
      });
    }
    return '{"ok":true,"output":' + text + ',"logs":' + stringify(logs) + '}';
  })();
})`;
