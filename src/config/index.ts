export * from './budget-presets.js';
export * from './config-file.js';
export * from './config-schema.js';
export * from './derive-config.js';
export * from './load-config.js';
export * from './redact-config.js';
export * from './resolve-llm-settings.js';
export * from './setting-sources.js';
