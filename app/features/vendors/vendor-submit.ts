import { VENDOR_MESSAGES } from '../../../common/schemas/vendor-form.ts';
import type { VendorSubmitResponse } from '../../../common/schemas/vendors.ts';
import { apiFetch } from '../../lib/api.ts';

/** Sends a registration (multipart: guard fields first, then text, then files). Kept apart from the staff hooks so the public page does not load the query library. */
export function submitVendorApplication(form: FormData) {
  return apiFetch<VendorSubmitResponse>('/vendors/applications', { formData: form, fallbackMessage: VENDOR_MESSAGES.failed });
}
