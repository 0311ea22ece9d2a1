import { useParams } from 'react-router';
import { VerifyScreen } from '@/features/auth/components/verify-screen';

export function VerifyRoute() {
  const { code = '' } = useParams();
  return <VerifyScreen key={code} code={code} />;
}
