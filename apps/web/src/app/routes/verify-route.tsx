import { useParams } from 'react-router';
import { VerifyScreen } from '@/features/auth/components/verify-screen';
import { usePageTitle } from '@/lib/page-title';

export function VerifyRoute() {
  const { code = '' } = useParams();
  usePageTitle('Verify e-mail');
  return <VerifyScreen key={code} code={code} />;
}
