import { useEffect, useMemo, useRef } from 'react';
import { Download, Eye, EyeOff, FileText, FolderOpen } from 'lucide-react';
import { formatDateTime } from '../../../common/dates.ts';
import { DOCUMENT_CATEGORIES, DOCUMENT_CATEGORY_LABELS, type DocumentVersion, type ProjectDocument } from '../../../common/schemas/documents.ts';
import { buttonClass } from '../../components/button-class.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { panelClass } from '../../components/portal/selected-project-panel.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { useProjectDocuments, useUpdateDocument } from './documents-api.ts';
import { UploadDocumentDialog } from './upload-document-dialog.tsx';

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Preview (PDFs and images open in a new tab) and download links of one version. */
function VersionLinks({ title, version }: { title: string; version: DocumentVersion }) {
  const name = `${title}, ${version.label}`;
  return (
    <div className="flex flex-wrap gap-2">
      {version.previewable ? (
        <a href={version.url} target="_blank" rel="noopener" className={buttonClass('secondary')} aria-label={`Preview ${name} (new tab)`}>
          <Eye className="size-4" aria-hidden="true" />
          Preview
        </a>
      ) : null}
      {/* The file route checks who asks; the session cookie travels with this plain link. */}
      <a href={`${version.url}?download=1`} download className={buttonClass('secondary')} aria-label={`Download ${name}`}>
        <Download className="size-4" aria-hidden="true" />
        Download
      </a>
    </div>
  );
}

function VersionFacts({ version }: { version: DocumentVersion }) {
  return (
    <p className="text-xs break-words text-slate-600 dark:text-slate-300">
      {version.fileName} · {fileSize(version.size)} · {formatDateTime(version.uploadedAt)}
      {version.uploadedBy ? ` · ${version.uploadedBy}` : ''}
    </p>
  );
}

function DocumentCard({ document, projectId, staff, readOnly }: { document: ProjectDocument; projectId: string; staff: boolean; readOnly: boolean }) {
  const update = useUpdateDocument(projectId);
  const headingId = `document-${document._id}`;
  async function toggleVisible() {
    try {
      await update.mutateAsync({ documentId: document._id, changes: { visibleToClient: !document.visibleToClient } });
    } catch (err) {
      toastFailure('Failed to change the document', err);
    }
  }
  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-document={document.title}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h5 id={headingId} tabIndex={-1} className="font-semibold break-words">
              {document.title}{' '}
              <span className="ml-1 inline-block rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50">
                Current: {document.current.label}
              </span>
            </h5>
            <VersionFacts version={document.current} />
            {staff ? (
              <p className="mt-1 flex items-center gap-1 text-xs font-medium text-slate-700 dark:text-slate-200">
                {document.visibleToClient ? <Eye className="size-3.5" aria-hidden="true" /> : <EyeOff className="size-3.5" aria-hidden="true" />}
                {document.visibleToClient ? 'Shown to the client' : 'Staff only'}
              </p>
            ) : null}
          </div>
          <VersionLinks title={document.title} version={document.current} />
        </div>
        {staff && !readOnly ? (
          <div className="mt-2 flex flex-wrap gap-2">
            <UploadDocumentDialog projectId={projectId} document={document} />
            <button type="button" className={buttonClass('ghost')} onClick={toggleVisible} disabled={update.isPending}>
              {document.visibleToClient ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
              {document.visibleToClient ? `Hide ${document.title} from the client` : `Show ${document.title} to the client`}
            </button>
          </div>
        ) : null}
        {document.superseded.length > 0 ? (
          <details className="mt-2 text-sm">
            <summary className="min-h-8 cursor-pointer py-1 font-medium text-brand-700 dark:text-sky-300">
              Earlier versions ({document.superseded.length})
            </summary>
            <ul className="mt-2 grid gap-2">
              {document.superseded.map((v) => (
                <li key={v._id} className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-50 p-2 dark:bg-slate-800">
                  <div className="min-w-0">
                    <p className="font-medium">
                      {v.label}{' '}
                      <span className="ml-1 inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-50">
                        Superseded
                      </span>
                    </p>
                    <VersionFacts version={v} />
                  </div>
                  <VersionLinks title={document.title} version={v} />
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </article>
    </li>
  );
}

/**
 * A project's document register, grouped by category: each document's current version with preview
 * and download, its superseded versions under it; staff upload, add versions and show or hide.
 */
export function DocumentRegister({ projectId, staff = false, readOnly = false }: { projectId: string; staff?: boolean; readOnly?: boolean }) {
  const documents = useProjectDocuments(projectId);
  const list = useMemo(() => documents.data?.documents ?? [], [documents.data]);
  // The document mail links to '#document-<id>': it is shown once the register has loaded.
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const target = window.location.hash.slice(1);
    if (!target.startsWith('document-') || shown.current === target || !list.some((d) => `document-${d._id}` === target)) return;
    shown.current = target;
    const heading = window.document.getElementById(target);
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [list]);
  return (
    <section aria-labelledby="documents-heading" className={panelClass}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 id="documents-heading" className="text-lg font-semibold">
          Documents
        </h3>
        {staff && !readOnly ? <UploadDocumentDialog projectId={projectId} /> : null}
      </div>
      {documents.isPending ? (
        <InlineLoading label="Loading documents..." />
      ) : documents.isError ? (
        <ErrorState title="Failed to load the documents" error={documents.error} onRetry={() => documents.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<FolderOpen className="size-8" aria-hidden="true" />}
          title="No documents yet"
          description={staff ? 'Upload drawings, contracts, permits and more; choose which ones the client sees.' : 'Drawings, contracts and other documents will appear here.'}
        />
      ) : (
        <div className="grid gap-4">
          {DOCUMENT_CATEGORIES.filter((c) => list.some((d) => d.category === c)).map((category) => (
            <section key={category} aria-labelledby={`documents-${category}`}>
              <h4 id={`documents-${category}`} className="mb-2 flex items-center gap-1 text-sm font-semibold text-slate-700 dark:text-slate-200">
                <FileText className="size-4" aria-hidden="true" />
                {DOCUMENT_CATEGORY_LABELS[category]}
              </h4>
              <ul className="grid gap-2">
                {list
                  .filter((d) => d.category === category)
                  .map((d) => (
                    <DocumentCard key={d._id} document={d} projectId={projectId} staff={staff} readOnly={readOnly} />
                  ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </section>
  );
}
