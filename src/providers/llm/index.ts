export * from './coerce-to-schema.js';
export * from './create-language-model.js';
export * from './create-llm-client.js';
export * from './estimate-tokens.js';
export * from './generate-plain-text.js';
export * from './generate-structured.js';
export * from './parse-model-json.js';
export * from './to-provider-error.js';
