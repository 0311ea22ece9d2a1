import { StaffToolsPage } from '@/features/staff-admin/components/staff-tools-page';

/** /sqtools (STAFF-03; staff admins, RequireStaffPage): distributors, assignments, distributor actions. */
export function StaffToolsRoute() {
  return <StaffToolsPage />;
}
