/**
 * The typography of an article's sanitised body (no plugin: a few rules for the tags the allowlist
 * lets through). The public article page, the blog editor and its preview all use it, so staff see
 * what visitors will see.
 */
export const ARTICLE_BODY_CLASS =
  'space-y-4 text-lg leading-relaxed text-slate-800 dark:text-slate-200 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline dark:[&_a]:text-sky-300 [&_blockquote]:border-l-4 [&_blockquote]:border-brand-600 [&_blockquote]:pl-4 [&_blockquote]:italic [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:mt-8 [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-6 [&_h3]:text-xl [&_h3]:font-semibold [&_iframe]:aspect-video [&_iframe]:w-full [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg [&_li]:ml-6 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_ul]:list-disc';
