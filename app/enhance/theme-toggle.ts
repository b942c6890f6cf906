// The header's theme switch. Its icons follow the `dark` class by CSS alone; this module names the
// button for what it will do, flips and remembers the theme, and gives the button its tooltip.

import { applyTheme, currentTheme } from '../lib/theme.ts';
import { attachTooltip } from './tooltip.ts';

function label(button: HTMLElement) {
  const dark = currentTheme() === 'dark';
  button.setAttribute('aria-label', dark ? 'Switch to light theme' : 'Switch to dark theme');
  button.setAttribute('aria-pressed', String(dark));
}

export function enhanceThemeToggle(button: HTMLElement): () => void {
  label(button);
  const onClick = () => {
    applyTheme(currentTheme() === 'dark' ? 'light' : 'dark');
    label(button);
  };
  button.addEventListener('click', onClick);
  const untip = attachTooltip(button, () => (currentTheme() === 'dark' ? 'Light theme' : 'Dark theme'));
  return () => {
    button.removeEventListener('click', onClick);
    untip();
  };
}
