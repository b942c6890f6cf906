/**
 * After opening a hit, brings its item into view and gives it the focus once the screen has loaded it
 * (the dashboards load their lists after navigating, so the browser's own jump to #id comes too early).
 */
export function revealWhenShown(href: string) {
  const hash = href.split('#')[1];
  if (!hash) return;
  const deadline = Date.now() + 5000;
  const look = () => {
    const target = document.getElementById(hash);
    if (target) {
      target.scrollIntoView({ block: 'center' });
      if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    } else if (Date.now() < deadline) setTimeout(look, 100);
  };
  look();
}
