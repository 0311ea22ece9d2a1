import { useMutation } from '@tanstack/react-query';
import { packingSlipFileName, type PackingSlipBody } from '@portal/core';
import { apiBlob } from '@/lib/api';

/** POST /api/billing-packing-slip {deviceList, reference?, address?} (API-64): the slip as a PDF blob. */
export async function getPackingSlip(body: PackingSlipBody): Promise<{ blob: Blob; fileName: string }> {
  const blob = await apiBlob('POST', '/billing-packing-slip', { area: 'billing', body });
  return { blob, fileName: packingSlipFileName(new Date().toISOString().slice(0, 10)) };
}

export function usePackingSlip() {
  return useMutation({ mutationFn: getPackingSlip });
}
