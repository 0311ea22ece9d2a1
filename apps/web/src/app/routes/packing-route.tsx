import { PackingPage } from '@/features/provisioning/components/packing-page';

/** /sqpacking (STAFF-05): staff admins make packing slips (RequireStaffPage guards it). */
export function PackingRoute() {
  return <PackingPage />;
}
