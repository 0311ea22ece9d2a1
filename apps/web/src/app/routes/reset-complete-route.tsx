import { useParams } from 'react-router';
import { ResetCompleteScreen } from '@/features/auth/components/reset-complete-screen';
import { usePageTitle } from '@/lib/page-title';

export function ResetCompleteRoute() {
  const { code = '' } = useParams();
  usePageTitle('Reset password');
  return <ResetCompleteScreen key={code} code={code} />;
}
