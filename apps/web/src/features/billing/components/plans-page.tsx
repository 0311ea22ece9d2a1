/**
 * /plans (spec 1 section 2, PLAN-27): Basic, Trial and Hosted side by side with the plan table's
 * quotas and the Hosted prices in the configured currency, then the user's devices with their
 * plan, trial days left and what each plan changes for them. Hidden where the brand hides plans.
 */
import { Link } from 'react-router';
import { LoadError, LoadingLines } from '@/components/ui/load-states';
import {
  BASIC_RECORD_INTERVAL_S,
  PLANS,
  TRIAL_DAYS,
  loadErrorDetail,
  type BillingCustomerResponse,
  type BillingDevice,
  type PlanName,
} from '@portal/core';
import { useBillingCustomer } from '../api/billing';
import { PlanTag, dayText, money, subscriptionSummary } from './billing-text';
import './billing.css';
import { usePageTitle } from '@/lib/page-title';

const PLAN_ORDER: readonly PlanName[] = ['Basic', 'Trial', 'Hosted'];

const PLAN_BLURB: Record<PlanName, string> = {
  Basic: 'For a device you only check now and then.',
  Trial: `Everything Hosted has, free for ${TRIAL_DAYS} days from when the device is first added.`,
  Hosted: 'Full data, alerts and the API for as long as you subscribe.',
};

function quotaRows(plan: PlanName): { label: string; value: string; off?: boolean }[] {
  const q = PLANS[plan];
  return [
    {
      label: 'Records kept',
      value: q.dataToPortal ? 'Every record' : `One per ${BASIC_RECORD_INTERVAL_S / 60} minutes`,
    },
    { label: 'Data stored', value: q.dataStorageDays === 1 ? '1 day' : `${q.dataStorageDays} days` },
    { label: 'E-mail alerts', value: q.emails > 0 ? `${q.emails} a month` : 'None', off: q.emails === 0 },
    { label: 'SMS alerts', value: q.sms > 0 ? `${q.sms} a month` : 'None', off: q.sms === 0 },
    { label: 'Widgets and charts', value: q.dataToPortal ? 'Yes' : 'No', off: !q.dataToPortal },
    { label: 'API access', value: q.api ? 'Yes' : 'No', off: !q.api },
    { label: 'Server log', value: q.serverLog ? 'Yes' : 'No', off: !q.serverLog },
  ];
}

function PlanPrice({ plan, customer }: { plan: PlanName; customer: BillingCustomerResponse | undefined }) {
  if (plan === 'Basic') return <p className="plan-card__price">Free</p>;
  if (plan === 'Trial')
    return (
      <p className="plan-card__price">
        Free <span className="plan-card__per">for {TRIAL_DAYS} days</span>
      </p>
    );
  if (!customer) return <p className="plan-card__price plan-card__price--pending">&nbsp;</p>;
  const { prices, currency } = customer;
  return (
    <>
      <p className="plan-card__price">
        {money(prices.monthly, currency)} <span className="plan-card__per">/ month</span>
      </p>
      <p className="plan-card__alt">
        or {money(prices.yearly, currency)} a year, or {money(prices.lifetime, currency)} once for the device&apos;s
        lifetime
      </p>
    </>
  );
}

function PlanCard({ plan, customer }: { plan: PlanName; customer: BillingCustomerResponse | undefined }) {
  const headingId = `plan-${plan.toLowerCase()}`;
  return (
    <section className={`plan-card plan-card--${plan.toLowerCase()}`} aria-labelledby={headingId}>
      <h2 id={headingId} className="plan-card__name">
        {plan}
      </h2>
      <PlanPrice plan={plan} customer={customer} />
      <p className="plan-card__blurb">{PLAN_BLURB[plan]}</p>
      <dl className="plan-card__quotas">
        {quotaRows(plan).map((row) => (
          <div key={row.label} className={row.off ? 'plan-card__quota plan-card__quota--off' : 'plan-card__quota'}>
            <dt>{row.label}</dt>
            <dd>
              <i className={row.off ? 'pi pi-times' : 'pi pi-check'} aria-hidden="true" /> {row.value}
            </dd>
          </div>
        ))}
      </dl>
      {plan === 'Hosted' && (
        <Link to="/subscriptions" className="p-button plan-card__action">
          Subscribe a device
        </Link>
      )}
    </section>
  );
}

/** What the plans change for one device, in a sentence or two. */
function deviceOutlook(device: BillingDevice): string {
  const s = device.subscription;
  const days = device.trialDaysRemaining;
  if (device.plan === 'Hosted') {
    if (s.kind === 'none') return 'Hosted by Support: nothing to pay.';
    if (s.kind === 'lifetime') return 'Hosted for the device’s lifetime.';
    if (s.cancelAtPeriodEnd && s.periodEnd !== null)
      return `Hosted until ${dayText(s.periodEnd)}, then ${s.planAfterPeriod === 'none' ? 'Basic' : s.planAfterPeriod}.`;
    return `Hosted while the ${s.kind} subscription runs.`;
  }
  if (device.plan === 'Trial') {
    const left = days ?? 0;
    return `Trial ends in ${left} ${left === 1 ? 'day' : 'days'}; then Basic: one record per 5 minutes, data kept 1 day, no widgets, alerts or API. Hosted keeps everything.`;
  }
  return 'Hosted brings back every record, 730 days of data, widgets and charts, alerts and the API.';
}

export function PlansPage() {
  const query = useBillingCustomer();
  usePageTitle('Plans');
  const customer = query.data;

  return (
    <div className="page billing-page">
      <header className="page-header">
        <h1 className="page-title">Plans</h1>
        <p className="page-subtitle">What each plan gives a device, and what your devices are on.</p>
      </header>

      <div className="plan-cards">
        {PLAN_ORDER.map((plan) => (
          <PlanCard key={plan} plan={plan} customer={customer} />
        ))}
      </div>

      <section className="card billing-section" aria-labelledby="plans-devices-heading">
        <div className="head-row">
          <h2 id="plans-devices-heading" className="billing-section__title">
            Your devices
          </h2>
          <Link to="/subscriptions" className="p-button p-button-outlined p-button-sm">
            Manage subscriptions
          </Link>
        </div>
        {query.isError && !customer ? (
          <LoadError message={loadErrorDetail(query.error)} onRetry={() => void query.refetch()} />
        ) : !customer ? (
          <LoadingLines label="Loading your devices" count={3} line="row" />
        ) : customer.devices.length === 0 ? (
          <p className="muted billing-empty">
            You have no devices yet. <Link to="/add">Add a device</Link> to start its {TRIAL_DAYS}-day trial.
          </p>
        ) : (
          <div className="data-table-wrap">
            <table className="data-table billing-table">
              <thead>
                <tr>
                  <th scope="col">Device</th>
                  <th scope="col">Plan</th>
                  <th scope="col">Trial days left</th>
                  <th scope="col">Subscription</th>
                  <th scope="col">What changes</th>
                </tr>
              </thead>
              <tbody>
                {customer.devices.map((d) => (
                  <tr key={d.deviceid}>
                    <td data-label="Device">
                      <DeviceCell device={d} />
                    </td>
                    <td data-label="Plan">
                      <PlanTag device={d} />
                    </td>
                    <td data-label="Trial days left">
                      {d.plan === 'Trial' && d.trialDaysRemaining !== null ? d.trialDaysRemaining : '—'}
                    </td>
                    <td data-label="Subscription">{subscriptionSummary(d.subscription)}</td>
                    <td data-label="What changes" className="billing-table__outlook">
                      {deviceOutlook(d)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

/** A device's name linking to its page, its id and model below. */
export function DeviceCell({ device }: { device: Pick<BillingDevice, 'deviceid' | 'name' | 'model'> }) {
  return (
    <div className="billing-device">
      <Link to={`/data/${encodeURIComponent(device.deviceid)}`} className="billing-device__name">
        {device.name}
      </Link>
      <span className="billing-device__id">
        <span className="dp-id">{device.deviceid}</span> {device.model}
      </span>
    </div>
  );
}
