export type Theme = 'light' | 'dark';
const THEME_STORAGE_KEY = 'theme';

/**
 * Runs in <head> before the first paint, so a dark-theme visitor never sees a flash of light.
 * Kept as a string: it is inlined, with the answer's nonce on server-rendered pages and allowed by
 * the hash of this exact text on pre-rendered ones (decision 170).
 */
export const THEME_BOOT_SCRIPT = `try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t!=='light'&&t!=='dark'){t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}document.documentElement.classList.toggle('dark',t==='dark')}catch(e){}`;

export function currentTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

export function applyTheme(theme: Theme) {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private browsing may refuse storage; the theme still applies for this page.
  }
}
