// The portal's and admin area's button looks, in one home (issue 27: it lived in portal/empty-state.tsx).
/** The portal's button looks, shared by every panel so they read as one screen. */
export function buttonClass(variant: 'primary' | 'secondary' | 'ghost' | 'danger' = 'primary'): string {
  const base =
    'inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60';
  switch (variant) {
    case 'primary':
      return `${base} bg-brand-700 text-white hover:bg-brand-800 dark:bg-sky-300 dark:text-slate-950 dark:hover:bg-sky-200`;
    case 'secondary':
      return `${base} border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800`;
    case 'ghost':
      return `${base} text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800`;
    case 'danger':
      return `${base} text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950`;
  }
}
