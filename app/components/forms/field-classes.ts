/**
 * Form field looks, shared by the public forms and the portal's forms. A module of their own so the
 * public form pages do not load the portal's empty and error states with them (decision 144).
 */
export const inputClass =
  'block w-full min-h-11 rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 aria-[invalid=true]:border-red-600 dark:border-slate-500 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-400';
export const labelClass = 'mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200';
