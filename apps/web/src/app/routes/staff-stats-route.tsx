import { StaffStatsPage } from '@/features/staff-admin/components/staff-stats-page';

/** /sqstats (STAFF-04; staff admins, RequireStaffPage): GET /billing-admin-stats as tables and charts. */
export function StaffStatsRoute() {
  return <StaffStatsPage />;
}
