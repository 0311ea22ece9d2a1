import { lazy } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ACCOUNT_TABS, AccountPage, type AccountTab } from '@/features/account/components/account-page';

// The Invoices tab (the built-in billing provider's portal) loads when opened.
const InvoicesTab = lazy(() =>
  import('@/features/billing/components/invoices-tab').then((m) => ({ default: m.InvoicesTab })),
);

function isAccountTab(value: string): value is AccountTab {
  return (ACCOUNT_TABS as readonly string[]).includes(value);
}

/** /account and /account/{tab}; an unknown tab (or mfa where the brand has none) falls back to /account. */
export function AccountRoute() {
  const { tab } = useParams();
  const navigate = useNavigate();
  if (tab !== undefined && !isAccountTab(tab)) return <Navigate replace to="/account" />;
  return (
    <AccountPage
      tab={tab ?? 'profile'}
      onSelectTab={(next) => navigate(`/account/${next}`)}
      invoicesTab={<InvoicesTab />}
    />
  );
}
