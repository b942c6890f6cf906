import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { clsx } from 'clsx';
import { Bold, Heading2, Heading3, ImagePlus, Italic, Link2, List, ListOrdered, Quote, Redo2, Undo2 } from 'lucide-react';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { ARTICLE_BODY_CLASS } from '../../components/layout/article-body-class.ts';
import { linkProblem } from '../../../common/schemas/link-check.ts';

// The rich-text editor of the blog forms (decision 090). Loaded only by the admin blog screens, as
// its own chunk. It produces only tags and attributes the server's allowlist keeps: p, h2, h3,
// strong, em, s, u, ul, ol, li, blockquote, a (href), img (src, alt), code, pre, hr, br.

export interface BlogEditorProps {
  initialContent: string;
  onChange: (html: string) => void;
  /** Id of the visible label of the field. */
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  /** Uploads a picture for the text and answers the address to show it at. */
  uploadImage: (file: File) => Promise<string>;
}

type Panel = null | 'link' | 'image';

/** A path of this site ('/about'), never a protocol-relative '//host'. */
const SITE_PATH = /^\/(?![/\\])\S*$/;

function ToolbarButton({
  label,
  pressed,
  onClick,
  disabled,
  children,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Roving focus: the toolbar is one tab stop; arrows move between its buttons.
      tabIndex={-1}
      data-toolbar-item=""
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className={clsx(
        'inline-flex size-11 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 disabled:opacity-40 dark:text-slate-100 dark:hover:bg-slate-800',
        pressed && 'bg-brand-100 text-brand-900 dark:bg-sky-900 dark:text-white',
      )}
    >
      {children}
    </button>
  );
}

function useToolbarState(editor: Editor) {
  return useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
}

function Toolbar({ editor, onPanel, panel }: { editor: Editor; onPanel: (p: Panel) => void; panel: Panel }) {
  const state = useToolbarState(editor);
  const ref = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const chain = () => editor.chain().focus();

  const items = () => Array.from(ref.current?.querySelectorAll<HTMLButtonElement>('[data-toolbar-item]:not(:disabled)') ?? []);
  const onKeyDown = (e: KeyboardEvent) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLButtonElement);
    let next = -1;
    if (e.key === 'ArrowRight') next = (index + 1) % list.length;
    else if (e.key === 'ArrowLeft') next = (index - 1 + list.length) % list.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = list.length - 1;
    if (next < 0) return;
    e.preventDefault();
    list[next]?.focus();
    setActive(next);
  };
  // The one tab stop: the button last moved to (the first at start); buttons that turn disabled are skipped.
  useEffect(() => {
    const list = items();
    list.forEach((b, i) => (b.tabIndex = i === Math.min(active, list.length - 1) ? 0 : -1));
  });

  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label="Formatting"
      aria-controls="blog-content-editor"
      onKeyDown={onKeyDown}
      className="flex flex-wrap items-center gap-1 border-b border-slate-300 p-1 dark:border-slate-600"
    >
      <ToolbarButton label="Heading" pressed={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
        <Heading2 className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Subheading" pressed={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
        <Heading3 className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Bold" pressed={state.bold} onClick={() => chain().toggleBold().run()}>
        <Bold className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Italic" pressed={state.italic} onClick={() => chain().toggleItalic().run()}>
        <Italic className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Bulleted list" pressed={state.bullet} onClick={() => chain().toggleBulletList().run()}>
        <List className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Numbered list" pressed={state.ordered} onClick={() => chain().toggleOrderedList().run()}>
        <ListOrdered className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Quote" pressed={state.quote} onClick={() => chain().toggleBlockquote().run()}>
        <Quote className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Link" pressed={state.link || panel === 'link'} onClick={() => onPanel(panel === 'link' ? null : 'link')}>
        <Link2 className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Insert image" pressed={panel === 'image'} onClick={() => onPanel(panel === 'image' ? null : 'image')}>
        <ImagePlus className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Undo" disabled={!state.canUndo} onClick={() => chain().undo().run()}>
        <Undo2 className="size-5" aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Redo" disabled={!state.canRedo} onClick={() => chain().redo().run()}>
        <Redo2 className="size-5" aria-hidden="true" />
      </ToolbarButton>
    </div>
  );
}

/** Adds, changes or removes the link on the selected text. Not a <form>: it sits inside the post's form. */
function LinkPanel({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const [href, setHref] = useState(() => (editor.getAttributes('link').href as string | undefined) ?? 'https://');
  const [error, setError] = useState('');
  const apply = () => {
    const url = href.trim();
    // Decision 300: the one rule of published links (web, e-mail, phone), or a page of this site.
    const problem = SITE_PATH.test(url) ? null : linkProblem(url, 'contact');
    if (problem) {
      setError(problem);
      return;
    }
    editor.chain().focus().extendMarkRange('link').setLink({ href: url }).run();
    onClose();
  };
  return (
    <div className="flex flex-wrap items-end gap-2 border-b border-slate-300 p-3 dark:border-slate-600">
      <div className="min-w-0 flex-1">
        <label htmlFor="blog-link-url" className={labelClass}>
          Link address
        </label>
        <input
          id="blog-link-url"
          type="url"
          className={inputClass}
          value={href}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'blog-link-error' : undefined}
          onChange={(e) => setHref(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              apply();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              onClose();
            }
          }}
        />
        {error ? (
          <p id="blog-link-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </div>
      <button type="button" className={buttonClass('primary')} onClick={apply}>
        Apply link
      </button>
      {editor.isActive('link') ? (
        <button
          type="button"
          className={buttonClass('secondary')}
          onClick={() => {
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            onClose();
          }}
        >
          Remove link
        </button>
      ) : null}
      <button type="button" className={buttonClass('ghost')} onClick={onClose}>
        Cancel
      </button>
    </div>
  );
}

/** Uploads a picture and puts it into the text with its description (alt text). */
function ImagePanel({ editor, onClose, uploadImage }: { editor: Editor; onClose: () => void; uploadImage: BlogEditorProps['uploadImage'] }) {
  const [alt, setAlt] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const insert = async () => {
    const file = fileRef.current?.files?.[0];
    if (!alt.trim()) return setError('Please describe the image for people who cannot see it');
    if (!file) return setError('Please choose an image file');
    setBusy(true);
    setError('');
    try {
      const src = await uploadImage(file);
      editor.chain().focus().setImage({ src, alt: alt.trim() }).run();
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to upload the image');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="grid gap-3 border-b border-slate-300 p-3 sm:grid-cols-2 sm:items-end dark:border-slate-600">
      <div>
        <label htmlFor="blog-inline-image-file" className={labelClass}>
          Image file (JPEG, PNG, WebP or AVIF, at most 10 MB)
        </label>
        <input id="blog-inline-image-file" ref={fileRef} type="file" accept="image/jpeg,image/png,image/webp,image/avif" className="block w-full text-sm" />
      </div>
      <div>
        <label htmlFor="blog-inline-image-alt" className={labelClass}>
          Image description
        </label>
        <input id="blog-inline-image-alt" className={inputClass} value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={300} />
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700 sm:col-span-2 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <button type="button" className={buttonClass('primary')} onClick={() => void insert()} disabled={busy}>
          {busy ? 'Uploading...' : 'Insert image'}
        </button>
        <button type="button" className={buttonClass('ghost')} onClick={onClose} disabled={busy}>
          Cancel
        </button>
      </div>
    </div>
  );
}

export default function BlogEditor({ initialContent, onChange, labelledBy, describedBy, invalid, uploadImage }: BlogEditorProps) {
  const [panel, setPanel] = useState<Panel>(null);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        // The post's title is the page's h1: the text has headings and subheadings.
        heading: { levels: [2, 3] },
        link: { openOnClick: false, autolink: true, HTMLAttributes: { rel: null, target: null } },
      }),
      Image.configure({ allowBase64: false }),
    ],
    content: initialContent,
    immediatelyRender: false,
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
    editorProps: {
      attributes: {
        id: 'blog-content-editor',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
        class: `${ARTICLE_BODY_CLASS} min-h-64 px-4 py-3 focus:outline-none`,
      },
    },
  });
  if (!editor) return <div className="min-h-72 rounded-md border border-slate-400 dark:border-slate-500" aria-hidden="true" />;
  return (
    <div
      className={clsx(
        'rounded-md border bg-white focus-within:ring-2 focus-within:ring-brand-600 dark:bg-slate-950 dark:focus-within:ring-sky-300',
        invalid ? 'border-red-600' : 'border-slate-400 dark:border-slate-500',
      )}
    >
      <Toolbar editor={editor} panel={panel} onPanel={setPanel} />
      {panel === 'link' ? <LinkPanel editor={editor} onClose={() => setPanel(null)} /> : null}
      {panel === 'image' ? <ImagePanel editor={editor} uploadImage={uploadImage} onClose={() => setPanel(null)} /> : null}
      <EditorContent editor={editor} />
    </div>
  );
}
