/**
 * Decision 289: shown on a preview (a section's draft rendered in place of its published document),
 * so nobody mistakes it for the live site. Fixed at the bottom left, clear of the header and the
 * chat button.
 */
export function PreviewBanner({ title }: { title: string }) {
  return (
    <div
      role="status"
      data-preview-banner
      className="fixed bottom-0 left-0 z-50 max-w-[calc(100%-6rem)] rounded-tr-lg border-t-2 border-r-2 border-amber-700 bg-amber-100 px-4 py-2 text-sm text-slate-950 shadow-lg"
    >
      <strong className="font-bold">Preview — not published.</strong> <span>Showing the draft of {title}.</span>
    </div>
  );
}
