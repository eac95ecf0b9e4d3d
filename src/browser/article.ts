// Reading aids that need JavaScript: a copy button on each code frame, a hint under tables that
// overflow, and the table of contents marking the section being read.
import { messages, type Lang } from '../core/content/i18n.ts';

const lang: Lang = document.documentElement.lang.startsWith('zh') ? 'zh' : 'en';
const t = messages(lang);
const DONE_MS = 2000;
const COPY_ICON =
  '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V6a2 2 0 0 1 2-2h9"/></svg>';

// Copy buttons: the code's text, without the highlighter's markup.
if (navigator.clipboard) {
  for (const frame of document.querySelectorAll<HTMLElement>('.code-frame')) {
    const caption = frame.querySelector('figcaption');
    const code = frame.querySelector('pre code') ?? frame.querySelector('pre');
    if (!caption || !code) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-code';
    button.innerHTML = `${COPY_ICON}<span aria-live="polite">${t.copyCode}</span>`;
    button.setAttribute('aria-label', `${t.copyCodeLabel} (${frame.dataset.language ?? ''})`);
    const label = button.querySelector('span')!;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(code.textContent ?? '');
        label.textContent = t.codeCopied;
        button.dataset.state = 'done';
      } catch {
        label.textContent = t.copyFailed;
      }
      setTimeout(() => {
        label.textContent = t.copyCode;
        delete button.dataset.state;
      }, DONE_MS);
    });
    caption.append(button);
  }
}

// Wide tables: say that they scroll, only when they do.
const boxes = [...document.querySelectorAll<HTMLElement>('.table-scroll')];
const hints = new Map<HTMLElement, HTMLElement>();
function updateHints(): void {
  for (const box of boxes) {
    const overflowing = box.scrollWidth > box.clientWidth + 1;
    let hint = hints.get(box);
    if (overflowing && !hint) {
      hint = document.createElement('p');
      hint.className = 'table-hint';
      hint.textContent = `↔ ${box.dataset.tableHint ?? t.tableScroll}`;
      box.after(hint);
      hints.set(box, hint);
    }
    if (hint) hint.hidden = !overflowing;
  }
}
if (boxes.length) {
  updateHints();
  new ResizeObserver(updateHints).observe(document.body);
}

// Table of contents: mark the last heading that scrolled past the top third of the window.
const toc = document.querySelector<HTMLElement>('[data-toc]');
if (toc) {
  const links = new Map<string, HTMLAnchorElement>();
  for (const a of toc.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')) links.set(decodeURIComponent(a.hash.slice(1)), a);
  const headings = [...links.keys()].map((id) => document.getElementById(id)).filter((h): h is HTMLElement => h !== null);
  let current: HTMLAnchorElement | undefined;
  const currentLabel = toc.querySelector<HTMLElement>('[data-toc-current]');
  // Wide screens show the list beside the text; CSS does it where ::details-content is supported, this elsewhere.
  const wide = window.matchMedia('(min-width: 72rem)');
  if (toc instanceof HTMLDetailsElement) {
    const details = toc;
    if (wide.matches) details.open = true;
    // On a narrow screen a chosen section folds the list back into its line.
    for (const a of links.values())
      a.addEventListener('click', () => {
        if (!wide.matches) details.open = false;
      });
    // On a narrow screen Escape folds the open list and gives focus back to its line, as a menu does.
    details.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || wide.matches || !details.open) return;
      details.open = false;
      details.querySelector('summary')?.focus();
    });
  }
  const mark = (): void => {
    const line = window.innerHeight / 3;
    let active: HTMLElement | undefined;
    for (const h of headings) if (h.getBoundingClientRect().top <= line) active = h;
    const link = active ? links.get(active.id) : undefined;
    if (link === current) return;
    current?.removeAttribute('aria-current');
    link?.setAttribute('aria-current', 'true');
    current = link;
    // The folded contents line (narrow screens) names the section being read.
    if (currentLabel) currentLabel.textContent = link?.textContent?.trim() ?? '';
  };
  let queued = false;
  window.addEventListener(
    'scroll',
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        mark();
      });
    },
    { passive: true },
  );
  mark();
}
