import { useParams } from 'react-router';
import { ResetCompleteScreen } from '@/features/auth/components/reset-complete-screen';

export function ResetCompleteRoute() {
  const { code = '' } = useParams();
  return <ResetCompleteScreen key={code} code={code} />;
}
