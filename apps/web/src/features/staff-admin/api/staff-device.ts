import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingAdminDeviceResponse, StaffDeviceResponse, StaffUserResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { BillingAdminDeviceResponse, StaffDeviceResponse, StaffUserResponse };

/** GET /api/staff/device/{id}: users and roles, groups, plan, distributor, last contact, server log. */
export function getStaffDevice(deviceid: string): Promise<StaffDeviceResponse> {
  return api.get<StaffDeviceResponse>(`/staff/device/${encodeURIComponent(deviceid)}`, { area: 'device' });
}

export const staffDeviceQueryOptions = (deviceid: string) =>
  queryOptions({ queryKey: queryKeys.staff.device(deviceid), queryFn: () => getStaffDevice(deviceid) });

export function useStaffDevice(deviceid: string) {
  return useQuery(staffDeviceQueryOptions(deviceid));
}

/** GET /api/billing-admin-device/{id}: the device's subscription, invoices and billing events. */
export function getBillingAdminDevice(deviceid: string): Promise<BillingAdminDeviceResponse> {
  return api.get<BillingAdminDeviceResponse>(`/billing-admin-device/${encodeURIComponent(deviceid)}`, {
    area: 'billing',
  });
}

export function useBillingAdminDevice(deviceid: string) {
  return useQuery({
    queryKey: queryKeys.staff.billingDevice(deviceid),
    queryFn: () => getBillingAdminDevice(deviceid),
  });
}

/** GET /api/staff/user/{userid}: the user's devices and groups. */
export function getStaffUser(userid: string): Promise<StaffUserResponse> {
  return api.get<StaffUserResponse>(`/staff/user/${encodeURIComponent(userid)}`, { area: 'user' });
}

export function useStaffUser(userid: string | null) {
  return useQuery({
    queryKey: queryKeys.staff.user(userid ?? ''),
    queryFn: () => getStaffUser(userid!),
    enabled: userid !== null,
  });
}
