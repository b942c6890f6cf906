// A link that goes back one page when there is one to go back to (the article's 'Return');
// without JavaScript, or opened on its own, it simply follows its href.

export function enhanceHistoryBack(link: HTMLElement): () => void {
  const onClick = (event: MouseEvent) => {
    if (window.history.length > 1 && !event.metaKey && !event.ctrlKey && !event.shiftKey) {
      event.preventDefault();
      window.history.back();
    }
  };
  link.addEventListener('click', onClick);
  return () => link.removeEventListener('click', onClick);
}
