import { wireAnswerActions } from './answer-actions.js';
import { ApiError, createApiClient } from './api-client.js';
import { byId } from './dom.js';
import { createHistoryView } from './history-view.js';
import { createOutlineEditor } from './outline-editor.js';
import { wireSettingsDialog, wireThemeToggle } from './page-controls.js';
import { createFootnotePopover } from './popover.js';
import { createRunView } from './run-view.js';
import { readSettings, rerunOptions, toRequestOptions } from './settings.js';
import { wireSourceSnapshots } from './source-snapshots.js';
import { createWatchesView } from './watches-view.js';

const keyStorage = 'deepsearch.apiKey';

const api = createApiClient({
  // The folder the page was served from: behind a proxy under /deepsearch/ the API is there too.
  baseUrl: new URL('.', window.location.href).href,
  getKey: () => localStorage.getItem(keyStorage) ?? undefined,
});
const view = createRunView({ onFollowUp: (text, mode) => void startFollowUp(text, mode) });
const snapshots = wireSourceSnapshots({ api, view });
const popover = createFootnotePopover(
  (index) => view.lookup(index),
  (reference) => void snapshots.open(reference),
);
const history = createHistoryView({
  api,
  onOpen: (id) => navigate(id),
  onError: (error) => showError(error),
});

const watches = createWatchesView({ api, onError: (error) => showError(error) });

const askForm = byId<HTMLFormElement>('ask');
const question = byId<HTMLTextAreaElement>('question');
const askSubmit = byId<HTMLButtonElement>('ask-submit');
const askError = byId('ask-error');
const login = byId<HTMLDialogElement>('login');
const loginMessage = byId('login-message');
const keyInput = byId<HTMLInputElement>('api-key');
const keyButton = byId<HTMLButtonElement>('key-button');

const askStatus = byId('ask-status');
const reviewBox = byId('review-box');
const reviewOutline = byId<HTMLInputElement>('review-outline');
const editor = createOutlineEditor({
  onStart: async (text, outline) => {
    try {
      await startRun({ question: text, mode: 'research', outline, ...settingsOptions() });
    } catch (error) {
      // A refused key asks for one; any other refusal is shown in the editor (it is thrown on).
      if (error instanceof ApiError && error.status === 401) showError(error);
      throw error;
    }
    editor.close();
  },
  onDiscard: () => {
    editor.close();
    question.focus();
  },
});

let stream: AbortController | undefined;
let openId: string | undefined;

const settingsOptions = () => toRequestOptions(readSettings(localStorage));

/** Starts a run (a question, research, a follow-up, a retry) and opens it. */
async function startRun(body: Record<string, unknown>) {
  const run = await api.createRun(body);
  navigate(run.id);
  void history.refresh();
  return run;
}

/** The mode the page is set to: Answer (search) or Research report. */
function selectedMode(): 'search' | 'research' {
  return new FormData(askForm).get('mode') === 'research' ? 'research' : 'search';
}

/**
 * A report's follow-up question, started as asked (its Research link), else as the page is set
 * to: with "Research report" selected, the question is researched, not answered. The question
 * box shows what runs.
 */
async function startFollowUp(text: string, mode: 'research' | undefined) {
  question.value = text;
  askError.hidden = true;
  try {
    await startRun({ question: text, mode: mode ?? selectedMode(), ...settingsOptions() });
  } catch (error) {
    showError(error);
  }
}

/** 401: ask for a key (again); anything else: say what went wrong next to the question. */
function showError(error: unknown) {
  if (error instanceof ApiError && error.status === 401) {
    const refused = localStorage.getItem(keyStorage) !== null;
    loginMessage.textContent = refused
      ? `The server refused the key: ${error.message}`
      : 'This server needs an API key.';
    loginMessage.classList.toggle('error', refused);
    if (!login.open) login.showModal();
    return;
  }
  askError.hidden = false;
  askError.textContent = error instanceof Error ? error.message : String(error);
  // The server speaks of the request's field; on this page that field is a setting.
  if (error instanceof ApiError && error.param === 'search_provider')
    askError.textContent += '. On this page: Settings → Search provider (empty: the server’s default).';
}

function navigate(id: string | undefined) {
  const hash = id ? `#/runs/${encodeURIComponent(id)}` : '';
  if (window.location.hash !== hash) window.location.hash = hash;
  else void openRun(id);
}

/** Shows a run and follows its events: a finished run replays its whole history, a live one goes on. */
async function openRun(id: string | undefined) {
  stream?.abort();
  popover.hide();
  openId = id;
  history.markCurrent(id);
  byId('history').classList.remove('open');
  if (id) editor.close();
  if (!id) {
    byId('run').hidden = true;
    return;
  }
  const controller = new AbortController();
  stream = controller;
  try {
    const detail = await api.getRun(id);
    if (openId !== id) return;
    view.open(detail);
    void snapshots.load();
    await follow(id, controller, undefined);
  } catch (error) {
    if (controller.signal.aborted) return;
    showError(error);
  }
}

/** Streams the open run's events after `after` (all of them when undefined) until it ends. */
async function follow(id: string, controller: AbortController, after: number | undefined) {
  const status = await api.streamEvents(id, {
    signal: controller.signal,
    after,
    onEvent: (event) => view.applyEvent(event),
  });
  if (openId !== id) return;
  // The end status and what the run ended with (its error, its exports) show together: a
  // "failed" without its reason would be read as the whole story.
  const detail = await api.getRun(id).catch((error: unknown) => {
    if (openId === id) view.setStatus(status);
    throw error;
  });
  if (openId !== id) return;
  view.finish(detail);
  void snapshots.load();
  void history.refresh();
}

askForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = question.value.trim();
  askError.hidden = true;
  if (!text) {
    showError(new Error('Type a question first.'));
    question.focus();
    return;
  }
  const mode = selectedMode();
  askSubmit.disabled = true;
  try {
    if (mode === 'research' && reviewOutline.checked) {
      // Plan only (one model call): the outline is edited here before anything is searched.
      askStatus.textContent = 'Planning the outline…';
      const outline = await api.planOutline({ question: text, ...settingsOptions() });
      navigate(undefined);
      editor.open(outline);
    } else await startRun({ question: text, mode, ...settingsOptions() });
  } catch (error) {
    showError(error);
  } finally {
    askSubmit.disabled = false;
    askStatus.textContent = '';
  }
});

// "Review the outline first" is a research choice.
askForm.addEventListener('change', () => {
  reviewBox.hidden = new FormData(askForm).get('mode') !== 'research';
});

// A failed run with no checkpoint to resume from: the same request again, as a new run (a
// research run keeps the plan it had, so it is not planned again).
byId('run-retry').addEventListener('click', async () => {
  const shown = view.shown;
  if (!shown) return;
  const plan = shown.events.find((event) => event.type === 'research-plan')?.plan;
  askError.hidden = true;
  try {
    await startRun({
      ...rerunOptions(shown.detail.options),
      question: shown.detail.question,
      mode: shown.detail.mode,
      ...(plan ? { outline: plan } : {}),
    });
  } catch (error) {
    showError(error);
  }
});

question.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    askForm.requestSubmit();
  }
});

document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  const typing = target.closest('input, textarea, select, [contenteditable]');
  if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    question.focus();
  }
});

byId('run-cancel').addEventListener('click', async () => {
  if (!openId) return;
  try {
    const answer = await api.deleteRun(openId);
    if (answer.status) view.setStatus(answer.status);
  } catch (error) {
    showError(error);
  }
});

// Goes on with the open run under its id (optionally with a larger budget) and follows its new events.
byId('run-resume').addEventListener('click', async () => {
  const id = openId;
  if (!id) return;
  const effort = byId<HTMLSelectElement>('resume-effort').value;
  const resume = byId<HTMLButtonElement>('run-resume');
  resume.disabled = true;
  askError.hidden = true;
  stream?.abort();
  const controller = new AbortController();
  stream = controller;
  let accepted = false;
  try {
    const answer = await api.resumeRun(id, effort ? { reasoning_effort: effort } : {});
    accepted = true;
    if (openId !== id) return;
    const after = view.lastSeq;
    view.resumed(answer.status);
    // The button is gone: focus goes to the run's heading, where the status is read next.
    byId('run-question').focus();
    void history.refresh();
    await follow(id, controller, after);
  } catch (error) {
    if (controller.signal.aborted) return;
    showError(error);
    // Refused (resumed or finished elsewhere meanwhile): show the run as the server has it now.
    if (!accepted && openId === id && error instanceof ApiError && error.status === 400) void openRun(id);
  } finally {
    resume.disabled = false;
  }
});

byId('run-delete').addEventListener('click', async () => {
  if (!openId || !window.confirm('Delete this run from the server? This cannot be undone.')) return;
  try {
    await api.deleteRun(openId);
    navigate(undefined);
    void history.refresh();
  } catch (error) {
    showError(error);
  }
});

// ── API key ──
login.addEventListener('close', () => {
  if (login.returnValue !== 'save' || !keyInput.value.trim()) return;
  localStorage.setItem(keyStorage, keyInput.value.trim());
  keyInput.value = '';
  keyButton.hidden = false;
  askError.hidden = true;
  void start();
});
keyButton.hidden = !localStorage.getItem(keyStorage);
keyButton.addEventListener('click', () => {
  localStorage.removeItem(keyStorage);
  keyButton.hidden = true;
  stream?.abort();
  void start();
});

// ── Settings and theme ──
wireSettingsDialog();
wireThemeToggle();

// ── History on narrow screens ──
const historyToggle = byId<HTMLButtonElement>('history-toggle');
historyToggle.addEventListener('click', () => {
  const open = byId('history').classList.toggle('open');
  historyToggle.setAttribute('aria-expanded', String(open));
});

// ── Copy and export ──
wireAnswerActions(view, { api });

// ── Start ──
function idFromHash(): string | undefined {
  const match = /^#\/runs\/(.+)$/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/** #/watches and #/watches/<id> show the Watches view in place of the question and the run; anything else, a run (or none). */
function route() {
  const watch = /^#\/watches(?:\/(.+))?$/.exec(window.location.hash);
  askForm.hidden = Boolean(watch);
  if (watch) {
    void openRun(undefined);
    editor.close();
    void watches.show(watch[1] ? decodeURIComponent(watch[1]) : undefined);
    return;
  }
  watches.hide();
  void openRun(idFromHash());
}
window.addEventListener('hashchange', route);

async function start() {
  await history.refresh();
  if (!login.open) route();
}
void start();
