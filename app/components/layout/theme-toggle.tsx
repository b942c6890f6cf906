import { useEffect, useState } from 'react';
import { Moon, Sun } from 'lucide-react';
import { applyTheme, currentTheme, type Theme } from '../../lib/theme.ts';
import { Tooltip } from '../ui/tooltip.tsx';

export function ThemeToggle() {
  // The server does not know the theme; render a neutral state until the browser tells us.
  const [theme, setTheme] = useState<Theme | null>(null);
  useEffect(() => setTheme(currentTheme()), []);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip content={theme === 'dark' ? 'Light theme' : 'Dark theme'}>
      <button
        type="button"
        onClick={() => {
          applyTheme(next);
          setTheme(next);
        }}
        aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
        aria-pressed={theme === 'dark'}
        className="inline-flex size-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {theme === 'dark' ? (
          <Sun className="size-5" aria-hidden="true" />
        ) : (
          <Moon className="size-5" aria-hidden="true" />
        )}
      </button>
    </Tooltip>
  );
}
