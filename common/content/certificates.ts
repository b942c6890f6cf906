import type { Certificate, Point } from './schemas.ts';

/** 'Certifications & Licenses': three certificates, all dated 2024. The certifying body is a placeholder. */
export const certificates: Certificate[] = [
  {
    title: 'Occupational Health & Safety Management',
    issuer: 'Example Certification Body (ISO 45001)',
    date: '2024',
    image: 'certificates/health-safety',
    description: 'Our safety management system meets ISO 45001 for occupational health and safety.',
  },
  {
    title: 'Environmental Management',
    issuer: 'Example Certification Body (ISO 14001)',
    date: '2024',
    image: 'certificates/environmental',
    description: 'Our environmental management system meets ISO 14001 for the control of environmental impact.',
  },
  {
    title: 'Quality Management',
    issuer: 'Example Certification Body (ISO 9001)',
    date: '2024',
    image: 'certificates/quality',
    description: 'Our quality management system meets ISO 9001 for consistent, documented delivery.',
  },
];

/** 'Regulatory Compliance': the three points. */
export const regulatoryCompliance: Point[] = [
  { title: 'Quality Assured', description: 'ISO certified quality management systems' },
  { title: 'Fully Licensed', description: 'All required permits and regulatory approvals' },
  { title: 'Current & Valid', description: 'Regularly renewed certifications' },
];
