/** Shown while the signed-in state or a client-rendered page loads. */
export function LoadingView({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[60vh] flex-col items-center justify-center gap-3 text-slate-600 dark:text-slate-300">
      <span className="size-10 animate-spin rounded-full border-4 border-slate-300 border-t-brand-600" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
