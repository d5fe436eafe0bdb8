import { byId } from './dom.js';
import { type PageSettings, readSettings, writeSettings } from './settings.js';

const themeStorage = 'deepsearch.theme';

/** The settings dialog: filled from this browser's storage when opened, saved there on Save. */
export function wireSettingsDialog() {
  const settingsDialog = byId<HTMLDialogElement>('settings');
  const settingsForm = byId<HTMLFormElement>('settings-form');
  byId('settings-open').addEventListener('click', () => {
    const settings = readSettings(localStorage);
    for (const input of settingsForm.querySelectorAll<HTMLInputElement>('input[name="effort"]')) {
      input.checked = input.value === settings.effort;
    }
    for (const name of ['searchProvider', 'onlyHosts', 'badHosts', 'language'] as const) {
      (settingsForm.elements.namedItem(name) as HTMLInputElement).value = settings[name];
    }
    settingsDialog.showModal();
  });
  settingsDialog.addEventListener('close', () => {
    if (settingsDialog.returnValue !== 'save') return;
    const data = new FormData(settingsForm);
    const text = (name: string) => String(data.get(name) ?? '');
    writeSettings(localStorage, {
      effort: text('effort') as PageSettings['effort'],
      searchProvider: text('searchProvider'),
      onlyHosts: text('onlyHosts'),
      badHosts: text('badHosts'),
      language: text('language'),
    });
  });
}

/** Light or dark: the system's until the toggle chooses (kept in this browser's storage). */
export function wireThemeToggle() {
  const themeToggle = byId<HTMLButtonElement>('theme-toggle');
  function applyTheme(theme: string | null) {
    const dark = theme ? theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    themeToggle.textContent = dark ? 'Light' : 'Dark';
    themeToggle.setAttribute('aria-label', `Switch to ${dark ? 'light' : 'dark'} theme`);
  }
  applyTheme(localStorage.getItem(themeStorage));
  // The system switching to dark in the evening: followed until the toggle made a choice.
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (!localStorage.getItem(themeStorage)) applyTheme(null);
  });
  themeToggle.addEventListener('click', () => {
    const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem(themeStorage, next);
    applyTheme(next);
  });
}
