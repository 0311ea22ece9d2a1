import { useParams } from 'react-router';
import { useGroups } from '@/features/groups/api/get-groups';
import { SubscriptionsPage } from '@/features/billing/components/subscriptions-page';

/** /subscriptions and /subscriptions/{groupid}: every device's subscription, or one group's; not routed where the brand hides plans. */
export function SubscriptionsRoute() {
  const { groupid } = useParams();
  const groups = useGroups();
  return <SubscriptionsPage key={groupid ?? ''} groupid={groupid} groups={groups.data} />;
}
