import { useParams } from 'react-router';
import { UnsubscribeScreen } from '@/features/device-alerts/components/unsubscribe-screen';
import { usePageTitle } from '@/lib/page-title';

/** /unsubscribe/{token}: the link in every alert e-mail (signed in or not). */
export function UnsubscribeRoute() {
  const { token = '' } = useParams();
  usePageTitle('Alert e-mails');
  return <UnsubscribeScreen key={token} token={token} />;
}
