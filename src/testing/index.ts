// The `deepsearch/testing` entry: fakes for testing code built on deepsearch, offline and with no
// test-runner imports (use them from vitest, node:test, jest...). A scripted model that fails on an
// unexpected call and on unused steps, fake search and reader tables that record their calls, a
// config that needs no key, and a fake OpenAI-compatible server on 127.0.0.1.

export {
  type FakeOpenAiOptions,
  type FakeOpenAiReply,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from './fake-openai-server.js';
export { createFakeReader, type FakeReader } from './fake-reader.js';
export { createFakeSearch, type FakeSearch } from './fake-search.js';
export {
  createScriptedLlm,
  type ScriptedCall,
  type ScriptedExpectation,
  type ScriptedLlm,
  type ScriptedStep,
} from './scripted-llm.js';
export { scriptedStep } from './scripted-steps.js';
export { createTestConfig } from './test-config.js';
