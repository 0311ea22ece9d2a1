import { PlansPage } from '@/features/billing/components/plans-page';

/** /plans (RTE: spec 1 section 2): the plans and the user's devices on them; not routed where the brand hides plans. */
export function PlansRoute() {
  return <PlansPage />;
}
