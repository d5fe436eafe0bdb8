import { byId } from './dom.js';
import { hostOf, type SourceRef, safeHref } from './footnotes.js';

/**
 * The quote behind a footnote marker: shown while the pointer or focus is on the marker, pinned
 * by a click (or Enter), closed by Escape, a second click or a click elsewhere.
 */
export function createFootnotePopover(
  lookup: (index: number) => SourceRef | undefined,
  openSnapshot: (reference: SourceRef) => void,
) {
  const box = byId('popover');
  const snapshot = byId<HTMLButtonElement>('popover-snapshot');
  let current: SourceRef | undefined;
  snapshot.addEventListener('click', () => {
    if (current) openSnapshot(current);
    hide();
  });
  const quote = byId('popover-quote');
  const kind = byId('popover-kind');
  const link = byId<HTMLAnchorElement>('popover-link');
  const host = byId('popover-host');
  let anchor: HTMLElement | undefined;
  let pinned = false;
  // Leaving a marker hides the quote a moment later, so the pointer can cross the gap to the
  // popover and click its link; entering the popover or a marker keeps it.
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  const keep = () => {
    clearTimeout(hideTimer);
    hideTimer = undefined;
  };
  const hideSoon = () => {
    keep();
    hideTimer = setTimeout(() => hide(), 300);
  };

  const show = (button: HTMLElement) => {
    const reference = lookup(Number(button.dataset.ref));
    if (!reference) return;
    if (anchor && anchor !== button) anchor.setAttribute('aria-expanded', 'false');
    anchor = button;
    quote.textContent = reference.quote || '(no quote)';
    kind.hidden = reference.quoteKind !== 'sentence';
    link.textContent = reference.title;
    const href = safeHref(reference.url);
    if (href) link.href = href;
    else link.removeAttribute('href');
    host.textContent = hostOf(reference.url);
    current = reference;
    // What the run read opens from the run store: it holds after the page changed or went.
    snapshot.hidden = !reference.readAt;
    snapshot.textContent = reference.readAt ? `as read on ${reference.readAt.slice(0, 10)}` : '';
    button.setAttribute('aria-expanded', 'true');
    box.hidden = false;
    // Measured from the left edge: where it was last shown would shrink it to the space left there.
    box.style.left = '0px';
    const rect = button.getBoundingClientRect();
    const width = box.offsetWidth;
    const left = Math.min(
      Math.max(8, rect.left + window.scrollX - width / 2),
      window.scrollX + document.documentElement.clientWidth - width - 8,
    );
    box.style.left = `${Math.max(8, left)}px`;
    box.style.top = `${rect.bottom + window.scrollY + 6}px`;
  };
  const hide = () => {
    keep();
    box.hidden = true;
    pinned = false;
    anchor?.setAttribute('aria-expanded', 'false');
    anchor = undefined;
  };
  const markerOf = (target: EventTarget | null) =>
    target instanceof Element ? (target.closest('button.fn') as HTMLElement | null) : null;

  document.addEventListener('mouseover', (event) => {
    const marker = markerOf(event.target);
    if (marker && !pinned) {
      keep();
      show(marker);
    }
  });
  document.addEventListener('mouseout', (event) => {
    const marker = markerOf(event.target);
    const into = event.relatedTarget instanceof Node ? event.relatedTarget : null;
    if (marker && !pinned && !(into && box.contains(into))) hideSoon();
  });
  box.addEventListener('mouseenter', keep);
  box.addEventListener('mouseleave', () => {
    if (!pinned) hideSoon();
  });
  // Escape gives focus back to the marker; that focus must not open the quote again.
  let returningFocus = false;
  document.addEventListener('focusin', (event) => {
    const marker = markerOf(event.target);
    if (marker && !pinned && !returningFocus) show(marker);
  });
  document.addEventListener('focusout', (event) => {
    const into = event.relatedTarget instanceof Node ? event.relatedTarget : null;
    if (markerOf(event.target) && !pinned && !(into && box.contains(into))) hide();
  });
  document.addEventListener('click', (event) => {
    const marker = markerOf(event.target);
    if (marker) {
      if (pinned && anchor === marker) return hide();
      show(marker);
      pinned = true;
      return;
    }
    if (pinned && !(event.target instanceof Node && box.contains(event.target))) hide();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !box.hidden) {
      const back = anchor;
      hide();
      returningFocus = true;
      back?.focus();
      returningFocus = false;
    }
  });
  return { hide };
}
