import { randomUUID } from 'node:crypto';
import { defineAccess, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { createVendorApplication } from './vendors.service.ts';

/** One stored application (no documents), made through the service as the public route would. */
async function oneApplication(ctx: AccessFixtureContext) {
  const { id } = await createVendorApplication(ctx.t.app, {
    id: randomUUID(),
    fields: {
      companyName: 'Access Ltd',
      companyPhone: '1',
      companyAddress: 'A',
      companyEmail: 'access@example.test',
      website: '',
      previousAddress: '',
      contactPersonName: 'P',
      contactPersonAddress: '',
      contactPersonEmail: '',
      contactPersonPhone: '',
      businessType: 'B',
      taxId: 'T',
      registrationNumber: 'R',
      compliant: 'Yes',
      certifications: '',
      experience: '',
      references: '',
      bankDetails: 'D',
    },
    documents: [],
    ip: '192.0.2.1',
  });
  return { own: { id } };
}

// Access expectations of the vendor routes (see tests/helpers/access-table.ts).
export default defineAccess([
  // Public by design: the registration form; bots are kept out by the form guard, not by access.
  { method: 'POST', url: '/api/vendors/applications', access: 'public' },
  { method: 'GET', url: '/api/vendors/applications', access: { staff: 'submissions.read' } },
  { method: 'GET', url: '/api/vendors/applications/:id', access: { staff: 'submissions.read' }, fixture: oneApplication },
  { method: 'PUT', url: '/api/vendors/applications/:id/status', access: { staff: 'submissions.read' }, body: { status: 'under-review', note: '' }, fixture: oneApplication },
  { method: 'GET', url: '/api/vendors/applications/:id/documents/:documentId', access: { staff: 'submissions.read' } },
]);
