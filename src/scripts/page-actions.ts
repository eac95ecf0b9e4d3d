// "Copy page as Markdown": fetches the page's markdown twin and puts it on the clipboard. The button
// is shown only here, where it can work; the labels come from the page (data attributes).
export {};

const DONE_MS = 2000;

for (const button of document.querySelectorAll<HTMLButtonElement>('[data-copy-page]')) {
  const item = button.closest<HTMLElement>('[data-copy-page-item]');
  if (!navigator.clipboard || !item) continue;
  item.hidden = false;
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
