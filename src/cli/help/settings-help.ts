import {
  cliOnlyVariables,
  type SettingReference,
  settingsReference,
} from '../../config/settings-reference.js';

const header =
  'Every setting: its flag, environment variable, config file key and default. Flags win over\n' +
  'variables, variables over the config file (deepsearch.config.json, or --config), that over defaults.\n' +
  'Every flag is accepted by every command. The same list, as tables: docs/configuration.md.\n';

/**
 * `deepsearch help settings [words...]`: every setting by group, two lines each; with words, only
 * the settings whose key, variable, flag or description holds all of them (case ignored).
 */
export function renderSettingsHelp(words: readonly string[] = []): string {
  const terms = words.map((word) => word.toLowerCase());
  const matches = (text: string) => terms.every((term) => text.toLowerCase().includes(term));
  const parts: string[] = [header];
  for (const group of settingsReference()) {
    const settings = group.settings.filter((setting) => matches(searchText(setting)));
    if (settings.length === 0) continue;
    parts.push(`${group.title}:`);
    for (const setting of settings) parts.push(...settingLines(setting));
    parts.push('');
  }
  const variables = cliOnlyVariables.filter((variable) => matches(`${variable.env} ${variable.description}`));
  if (variables.length > 0) {
    parts.push('Read by the CLI only:');
    for (const variable of variables) parts.push(`  ${variable.env}`, `      ${variable.description}`);
    parts.push('');
  }
  if (parts.length === 1) parts.push(`No setting matches "${words.join(' ')}".\n`);
  return parts.join('\n');
}

function settingLines(setting: SettingReference): string[] {
  const flag = setting.flag
    ? `--${setting.flag}${setting.placeholder ? ` <${setting.placeholder}>` : ''}`
    : '';
  const fallback = setting.defaultValue === undefined ? '' : ` = ${setting.defaultValue}`;
  const first = [flag, setting.env.join(', '), `${setting.path}${fallback}`].filter(Boolean).join('   ');
  return [`  ${first}`, `      ${setting.secret ? '(secret) ' : ''}${setting.description}`];
}

function searchText(setting: SettingReference): string {
  return [setting.path, setting.flag ?? '', ...setting.env, setting.description].join(' ');
}
