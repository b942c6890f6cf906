// The header's menu button on small screens. The menu is a native popover (popovertarget), so it
// opens and closes without JavaScript too, and exposes its open state to assistive technology itself
// (aria-expanded is not allowed on a popovertarget button); this module names the button for its state, and makes
// Escape close the menu only (marked handled, so a toast underneath stays) with focus back on the button.

export function enhanceMobileMenu(button: HTMLElement): () => void {
  const menu = document.getElementById(button.getAttribute('popovertarget') ?? '');
  if (!menu) return () => undefined;
  const isOpen = () => menu.matches(':popover-open');
  const sync = () => {
    button.setAttribute('aria-label', isOpen() ? 'Close menu' : 'Open menu');
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !isOpen()) return;
    e.preventDefault();
    e.stopPropagation();
    menu.hidePopover();
    button.focus();
  };
  const onClickLink = (e: MouseEvent) => {
    if (e.target instanceof Element && e.target.closest('a')) menu.hidePopover();
  };
  menu.addEventListener('toggle', sync);
  menu.addEventListener('click', onClickLink);
  window.addEventListener('keydown', onKey, true);
  sync();
  return () => {
    if (isOpen()) menu.hidePopover();
    menu.removeEventListener('toggle', sync);
    menu.removeEventListener('click', onClickLink);
    window.removeEventListener('keydown', onKey, true);
  };
}
