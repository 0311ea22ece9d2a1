import { ProvPage } from '@/features/provisioning/components/prov-page';

/** /sqprov (STAFF-02): provisioning staff create devices and find one by id (RequireStaffPage guards it). */
export function ProvRoute() {
  return <ProvPage />;
}
