import { useId, useState, type FormEvent } from 'react';
import { FilePlus2, Upload } from 'lucide-react';
import {
  DOCUMENT_ACCEPT,
  DOCUMENT_CATEGORIES,
  DOCUMENT_CATEGORY_LABELS,
  DOCUMENT_MAX_BYTES,
  type DocumentCategory,
} from '../../../common/schemas/documents.ts';
import { buttonClass } from '../../components/button-class.ts';
import { FilePicker } from '../../components/forms/file-picker.tsx';
import { InputField, SelectField } from '../../components/forms/fields.tsx';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useUploadDocument } from './documents-api.ts';

const toasts = scopedToasts('upload-document');
const MAX_MB = DOCUMENT_MAX_BYTES / (1024 * 1024);
const CATEGORY_OPTIONS = DOCUMENT_CATEGORIES.map((c) => ({ value: c, label: DOCUMENT_CATEGORY_LABELS[c] }));

/**
 * Staff's upload: a new document (title, category, version label, shown to the client or not, and
 * the file) or, given `document`, a new version of it (label and file), which supersedes the current one.
 */
export function UploadDocumentDialog({ projectId, document }: { projectId: string; document?: { _id: string; title: string } }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState<DocumentCategory>('drawing');
  const [label, setLabel] = useState('');
  const [visible, setVisible] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ title?: string; file?: string }>({});
  const upload = useUploadDocument(projectId);

  function openDialog() {
    setTitle('');
    setCategory('drawing');
    setLabel('');
    setVisible(false);
    setFile(null);
    setErrors({});
    setOpen(true);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear();
    const found: typeof errors = {};
    if (!document && !title.trim()) found.title = 'Title is required';
    if (!file) found.file = 'Choose a file to upload';
    else if (file.size > DOCUMENT_MAX_BYTES) found.file = `${file.name} is larger than ${MAX_MB} MB`;
    setErrors(found);
    const first = Object.values(found)[0];
    if (first || !file) {
      toasts.show({ title: 'Please check the form', description: first, variant: 'destructive' });
      return;
    }
    const fields: Record<string, string> = document ? { label } : { title, category, label, visibleToClient: String(visible) };
    try {
      await upload.mutateAsync({ documentId: document?._id, fields, file });
      toasts.show({ title: document ? 'New version uploaded' : 'Document uploaded' });
      setOpen(false);
    } catch (err) {
      toastFailure('Failed to upload the document', err);
    }
  }

  const fileLabelId = `${id}-file-label`;
  const fileErrorId = `${id}-file-error`;
  return (
    <>
      <button
        type="button"
        className={buttonClass(document ? 'secondary' : 'primary')}
        onClick={openDialog}
        aria-label={document ? `Upload a new version of ${document.title}` : undefined}
      >
        {document ? <Upload className="size-4" aria-hidden="true" /> : <FilePlus2 className="size-4" aria-hidden="true" />}
        {document ? 'New version' : 'Upload document'}
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={document ? `New version of ${document.title}` : 'Upload a document'}>
        <form onSubmit={onSubmit} noValidate className="grid gap-3">
          {document ? (
            <p className="text-sm text-slate-600 dark:text-slate-300">The current version will be kept, marked superseded.</p>
          ) : (
            <>
              <InputField label="Title" required value={title} error={errors.title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
              <SelectField label="Category" options={CATEGORY_OPTIONS} value={category} onChange={(e) => setCategory(e.target.value as DocumentCategory)} />
            </>
          )}
          <InputField
            label="Version label"
            hint={document ? 'Such as "Rev B". Left empty, the version is numbered.' : 'Such as "Rev A". Left empty, the version is numbered.'}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            maxLength={40}
          />
          {document ? null : (
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input type="checkbox" className="size-5" checked={visible} onChange={(e) => setVisible(e.target.checked)} />
              Show to the client
            </label>
          )}
          <div>
            <span id={fileLabelId} className="text-sm font-medium">
              File (PDF, image, Word, Excel, PowerPoint, DWG, DXF or ZIP; up to {MAX_MB} MB) <span aria-hidden="true">*</span>
            </span>
            <FilePicker
              labelledBy={fileLabelId}
              buttonText={file ? 'Choose another file' : 'Choose a file'}
              count={file ? 1 : 0}
              accept={DOCUMENT_ACCEPT}
              describedBy={errors.file ? fileErrorId : undefined}
              aria-invalid={errors.file ? true : undefined}
              required
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setErrors(({ file: _gone, ...rest }) => rest);
              }}
            />
            {file ? <p className="mt-1 text-sm break-all text-slate-700 dark:text-slate-200">{file.name}</p> : null}
            {errors.file ? (
              <p id={fileErrorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
                {errors.file}
              </p>
            ) : null}
          </div>
          <DialogFormActions onCancel={() => setOpen(false)} busy={upload.isPending} submitLabel="Upload" busyLabel="Uploading..." />
        </form>
      </ModalDialog>
    </>
  );
}
