import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  VendorDetailResponse,
  VendorListResponse,
  VendorStatus,
  VendorStatusUpdate,
} from '../../../common/schemas/vendors.ts';
import { apiFetch } from '../../lib/api.ts';

// Staff's side of vendor applications (the admin pages, which have the query client).

const vendorKeys = {
  all: ['vendor-applications'] as const,
  list: (status: VendorStatus | undefined, page: number) => ['vendor-applications', 'list', status ?? 'all', page] as const,
  detail: (id: string) => ['vendor-applications', 'detail', id] as const,
};

/** Staff's list of applications, newest first. */
export function useVendorApplications(status: VendorStatus | undefined, page: number) {
  return useQuery({
    queryKey: vendorKeys.list(status, page),
    queryFn: () => {
      const q = new URLSearchParams({ page: String(page) });
      if (status) q.set('status', status);
      return apiFetch<VendorListResponse>(`/vendors/applications?${q}`, { fallbackMessage: 'Failed to load vendor applications' });
    },
    placeholderData: keepPreviousData,
  });
}

export function useVendorApplication(id: string) {
  return useQuery({
    queryKey: vendorKeys.detail(id),
    queryFn: () => apiFetch<VendorDetailResponse>(`/vendors/applications/${encodeURIComponent(id)}`, { fallbackMessage: 'Failed to load the application' }),
  });
}

/** Moves an application along the pipeline; the list and the dashboard counts follow. */
export function useChangeVendorStatus(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: VendorStatusUpdate) =>
      apiFetch<VendorDetailResponse>(`/vendors/applications/${encodeURIComponent(id)}/status`, {
        method: 'PUT',
        json: change,
        fallbackMessage: 'Failed to update status',
      }),
    onSuccess: (data) => {
      queryClient.setQueryData(vendorKeys.detail(id), data);
      void queryClient.invalidateQueries({ queryKey: ['vendor-applications', 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['submissions'] });
    },
  });
}

export const vendorDocumentUrl = (applicationId: string, documentId: string) =>
  `/api/vendors/applications/${encodeURIComponent(applicationId)}/documents/${encodeURIComponent(documentId)}`;
