/**
 * The text fields a vendor application cannot do without, with short valid values: tests spread them
 * and override the field they are about. (The optional ones stay out: absent and empty are both valid.)
 */
export const VENDOR_REQUIRED_FIELDS = {
  companyName: 'Acme',
  companyPhone: '0800',
  companyAddress: 'Lagos',
  companyEmail: 'info@acme.test',
  contactPersonName: 'Ada',
  businessType: 'Supplier',
  taxId: 'T1',
  registrationNumber: 'RC1',
  compliant: 'Yes',
  bankDetails: 'Bank',
};
