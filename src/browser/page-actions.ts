// Page actions: "Copy page" fetches the page's markdown twin and puts it on the clipboard (the button
// is shown only here, where it can work; its labels come from the page), and the menu of the other
// actions closes on Escape, on a click outside it, when the keyboard moves focus out of it (Tab past its
// last item), and after a choice.
export {};

const DONE_MS = 2000;

for (const button of document.querySelectorAll<HTMLButtonElement>('[data-copy-page]')) {
  if (!navigator.clipboard) continue;
  button.hidden = false;
  const label = button.querySelector('span')!;
  const idle = label.textContent ?? '';
  button.addEventListener('click', async () => {
    let state: 'done' | 'failed' = 'done';
    // The clipboard write starts inside the click (a promised ClipboardItem), so the browser still
    // counts it as the reader's gesture while the twin downloads.
    const twin = fetch(button.dataset.copyPage!, { headers: { accept: 'text/markdown' } }).then(async (res) => {
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.text();
    });
    try {
      if (typeof ClipboardItem !== 'undefined') {
        await navigator.clipboard.write([
          new ClipboardItem({ 'text/plain': twin.then((text) => new Blob([text], { type: 'text/plain' })) }),
        ]);
      } else {
        await navigator.clipboard.writeText(await twin);
      }
    } catch (error) {
      console.warn('Copy page failed:', error);
      state = 'failed';
    }
    button.dataset.state = state;
    label.textContent = (state === 'done' ? button.dataset.labelDone : button.dataset.labelFailed) ?? idle;
    setTimeout(() => {
      delete button.dataset.state;
      label.textContent = idle;
    }, DONE_MS);
  });
}

for (const menu of document.querySelectorAll<HTMLDetailsElement>('[data-action-menu]')) {
  const summary = menu.querySelector('summary')!;
  document.addEventListener('click', (event) => {
    if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
  });
  menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && menu.open) {
      menu.open = false;
      summary.focus();
    }
  });
  // Only a focus that lands elsewhere closes it: a click that focuses nothing (Safari's links) is the click handler's.
  menu.addEventListener('focusout', (event) => {
    const next = event.relatedTarget as Node | null;
    if (menu.open && next && !menu.contains(next)) menu.open = false;
  });
  for (const link of menu.querySelectorAll('a')) link.addEventListener('click', () => (menu.open = false));
}
