import { Moon, Sun } from 'lucide-react';
import { enhanceThemeToggle } from '../../enhance/theme-toggle.ts';
import { useEnhance } from '../../lib/use-enhance.ts';

/**
 * The theme switch: markup only (data-module="theme-toggle"); app/enhance/theme-toggle.ts gives it its
 * behaviour, label and tooltip. The icon follows the `dark` class the head script sets, by CSS.
 */
export function ThemeToggle() {
  const ref = useEnhance<HTMLButtonElement>(enhanceThemeToggle);
  return (
    <span className="relative inline-flex">
      <button
        ref={ref}
        type="button"
        data-module="theme-toggle"
        aria-label="Switch theme"
        className="inline-flex size-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <Moon className="size-5 dark:hidden" aria-hidden="true" />
        <Sun className="hidden size-5 dark:block" aria-hidden="true" />
      </button>
    </span>
  );
}
