/**
 * /subscriptions and /subscriptions/{groupid} (spec 1 section 2, PLAN-28, PLAN-29): the devices
 * of all the user's groups (and their own devices) or of one group, each with its plan and
 * subscription (none, monthly, yearly, lifetime), changed one by one or for a selection through
 * billing-update-subscription after a confirmation that shows the price; 'Manage billing' opens
 * the payment provider's portal (billing-create-stripe-portal). Only a device's ADMIN may change
 * it: the others are shown, not selectable.
 */
import { useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from 'primereact/button';
import { LoadError, LoadingLines } from '@/components/ui/load-states';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import {
  BILLING_GRACE_DAYS,
  loadErrorDetail,
  subscriptionKindLabel,
  subscriptionPrice,
  subscriptionPriceLabel,
  type BillingCustomerResponse,
  type BillingDevice,
  type GroupSummary,
  type SubscriptionKind,
} from '@portal/core';
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { RefreshButton } from '@/components/ui/refresh-button';
import { useMessageDialog } from '@/lib/message-dialog';
import { useBillingCustomer, useBillingPortal, useUpdateSubscription } from '../api/billing';
import { PlanTag, dayText, money, subscriptionStatusText, subscriptionSummary } from './billing-text';
import { DeviceCell } from './plans-page';
import '@/components/ui/dialog.css';
import './billing.css';
import { usePageTitle } from '@/lib/page-title';

const KINDS: readonly SubscriptionKind[] = ['none', 'monthly', 'yearly', 'lifetime'];
const ALL_GROUPS = '__all__';

interface PendingChange {
  devices: BillingDevice[];
  kind: SubscriptionKind;
}

/** The choices of one device's subscription: lifetime is final. */
function kindOptions(device: BillingDevice | null, currency: string) {
  return KINDS.map((kind) => ({
    value: kind,
    label: kind === 'none' ? 'None' : `${subscriptionKindLabel(kind)} (${subscriptionPriceLabel(kind, currency)})`,
    disabled: device?.subscription.kind === 'lifetime' && kind !== 'lifetime',
  }));
}

/** Whether asking for `kind` changes anything for the device. */
function changes(device: BillingDevice, kind: SubscriptionKind): boolean {
  const s = device.subscription;
  if (s.kind === 'lifetime') return false;
  if (kind === 'none') return s.kind !== 'none' && !s.cancelAtPeriodEnd;
  return s.kind !== kind || s.cancelAtPeriodEnd;
}

interface SubscriptionsPageProps {
  groupid: string | undefined;
  /** The user's groups for the picker (the groups feature's, given by the route); undefined while loading. */
  groups: readonly GroupSummary[] | undefined;
}

export function SubscriptionsPage({ groupid, groups }: SubscriptionsPageProps) {
  const navigate = useNavigate();
  const query = useBillingCustomer();
  const portal = useBillingPortal();
  const dialog = useMessageDialog();
  const [selection, setSelection] = useState<BillingDevice[]>([]);
  const [bulkKind, setBulkKind] = useState<SubscriptionKind>('monthly');
  const [pending, setPending] = useState<PendingChange | null>(null);

  usePageTitle('Subscriptions');

  const customer = query.data;
  const group = groupid === undefined ? null : (groups?.find((g) => g.groupid === groupid) ?? null);
  const devices = useMemo(
    () => (customer?.devices ?? []).filter((d) => groupid === undefined || d.groupids.includes(groupid)),
    [customer, groupid],
  );
  // A selection keeps only devices still shown and still changeable.
  const selected = selection.filter((s) => devices.some((d) => d.deviceid === s.deviceid && d.canChange));

  const openPortal = () =>
    portal.mutate(undefined, {
      onSuccess: ({ url }) => {
        const target = new URL(url, location.origin);
        if (target.origin === location.origin) navigate(`${target.pathname}${target.search}`);
        else location.assign(target.href);
      },
      onError: (error) => dialog.showError(error),
    });

  const groupOptions = [
    { value: ALL_GROUPS, label: 'All devices' },
    ...(groups ?? []).map((g) => ({ value: g.groupid, label: g.groupName })),
  ];

  const unknownGroup = groupid !== undefined && groups !== undefined && group === null;

  return (
    <div className="page billing-page">
      <header className="page-header billing-header">
        <div>
          <h1 className="page-title">Subscriptions</h1>
          <p className="page-subtitle">
            Subscribe a device to the Hosted plan, or change or cancel its subscription. See{' '}
            <Link to="/plans">what each plan gives</Link>.
          </p>
        </div>
        <Button
          type="button"
          label="Manage billing"
          icon="pi pi-external-link"
          outlined
          loading={portal.isPending}
          onClick={openPortal}
        />
      </header>

      <section className="card billing-section" aria-labelledby="subscriptions-heading">
        <div className="head-row">
          <h2 id="subscriptions-heading" className="billing-section__title">
            {group ? group.groupName : groupid === undefined ? 'All devices' : 'Devices'}
          </h2>
          <div className="billing-toolbar">
            <LabelledDropdown
              label="Group"
              value={groupid ?? ALL_GROUPS}
              options={groupOptions}
              onChange={(e) => {
                setSelection([]);
                const next = String(e.value);
                navigate(next === ALL_GROUPS ? '/subscriptions' : `/subscriptions/${encodeURIComponent(next)}`);
              }}
              className="billing-group-picker"
              disabled={groups === undefined}
            />
            <RefreshButton fetching={query.isFetching} onRefresh={() => void query.refetch()} />
          </div>
        </div>

        {unknownGroup ? (
          <p className="muted billing-empty" role="status">
            This group is not one of yours. <Link to="/subscriptions">Show all devices</Link>
          </p>
        ) : query.isError && !customer ? (
          <LoadError message={loadErrorDetail(query.error)} onRetry={() => void query.refetch()} />
        ) : !customer ? (
          <LoadingLines label="Loading subscriptions" count={4} line="row" />
        ) : devices.length === 0 ? (
          <p className="muted billing-empty">
            {groupid === undefined ? (
              <>
                You have no devices yet. <Link to="/add">Add a device</Link>.
              </>
            ) : (
              'This group has no devices.'
            )}
          </p>
        ) : (
          <>
            <div className="billing-bulk" aria-live="polite">
              <span className="billing-bulk__count">
                {selected.length === 0
                  ? 'Select devices to change several at once.'
                  : `${selected.length} ${selected.length === 1 ? 'device' : 'devices'} selected`}
              </span>
              {selected.length > 0 && (
                <>
                  <LabelledDropdown
                    label="New subscription for the selected devices"
                    value={bulkKind}
                    options={kindOptions(null, customer.currency)}
                    onChange={(e) => setBulkKind(e.value as SubscriptionKind)}
                    className="billing-kind"
                  />
                  <Button
                    type="button"
                    label="Change selected"
                    size="small"
                    onClick={() => setPending({ devices: selected, kind: bulkKind })}
                  />
                  <Button type="button" label="Clear" size="small" text onClick={() => setSelection([])} />
                </>
              )}
            </div>
            <SubscriptionsTable
              customer={customer}
              devices={devices}
              selection={selected}
              onSelection={setSelection}
              onChange={(device, kind) => setPending({ devices: [device], kind })}
            />
          </>
        )}
      </section>

      {pending && customer && (
        <ConfirmChange
          change={pending}
          currency={customer.currency}
          onDone={(changed) => {
            setPending(null);
            if (changed) setSelection([]);
          }}
        />
      )}
    </div>
  );
}

type SelectableDevice = BillingDevice & { selected: boolean };

interface TableProps {
  customer: BillingCustomerResponse;
  devices: BillingDevice[];
  selection: BillingDevice[];
  /** setState of the selection: rows keep the handler of their last render, so changes go through the current state. */
  onSelection: Dispatch<SetStateAction<BillingDevice[]>>;
  onChange: (device: BillingDevice, kind: SubscriptionKind) => void;
}

/**
 * The devices on PrimeReact's DataTable. The selection is native check boxes (PrimeReact's own
 * selection column nests one control in another, which screen readers cannot use): only devices
 * the user may change can be selected.
 */
function SubscriptionsTable({ customer, devices, selection, onSelection, onChange }: TableProps) {
  const changeable = devices.filter((d) => d.canChange);
  const isSelected = (d: BillingDevice) => selection.some((s) => s.deviceid === d.deviceid);
  const allSelected = changeable.length > 0 && changeable.every(isSelected);
  // New row objects whenever the selection changes: the table renders a row again only when its data changes.
  const rows: SelectableDevice[] = devices.map((d) => ({ ...d, selected: isSelected(d) }));
  const toggle = (d: BillingDevice, on: boolean) =>
    onSelection((current) => [...current.filter((x) => x.deviceid !== d.deviceid), ...(on ? [d] : [])]);
  return (
    <DataTable
      className="billing-datatable"
      value={rows}
      dataKey="deviceid"
      size="small"
      // The name on the table itself: the DataTable's root is a div, which may not carry one.
      pt={{ table: { 'aria-label': 'Devices and their subscriptions' } }}
      tableStyle={{ minWidth: '100%' }}
    >
      <Column
        header={
          <input
            type="checkbox"
            className="billing-check"
            aria-label="Select every device you may change"
            checked={allSelected}
            disabled={changeable.length === 0}
            onChange={(e) => onSelection(e.target.checked ? changeable : [])}
          />
        }
        headerStyle={{ width: '3rem' }}
        body={(d: SelectableDevice) => (
          <input
            type="checkbox"
            className="billing-check"
            aria-label={`Select ${d.name} (${d.deviceid})`}
            checked={d.selected}
            disabled={!d.canChange}
            onChange={(e) => toggle(devices.find((x) => x.deviceid === d.deviceid) ?? d, e.target.checked)}
          />
        )}
      />
      <Column header="Device" body={(d: BillingDevice) => <DeviceCell device={d} />} />
      <Column header="Plan" body={(d: BillingDevice) => <PlanTag device={d} />} />
      <Column
        header="Subscription"
        body={(d: BillingDevice) => (
          <div className="billing-sub">
            <span>{subscriptionSummary(d.subscription)}</span>
            {d.subscription.kind !== 'none' && (
              <span
                className={
                  d.subscription.status === 'awaiting_payment'
                    ? 'billing-sub__status billing-sub__status--due'
                    : 'billing-sub__status'
                }
              >
                {subscriptionStatusText(d.subscription)}
              </span>
            )}
          </div>
        )}
      />
      <Column
        header="Change"
        body={(d: BillingDevice) =>
          d.canChange ? (
            <LabelledDropdown
              label={`Subscription of ${d.name}`}
              value={d.subscription.cancelAtPeriodEnd ? 'none' : d.subscription.kind}
              options={kindOptions(d, customer.currency)}
              valueTemplate={(option: { value: SubscriptionKind } | null) =>
                subscriptionKindLabel(option?.value ?? 'none')
              }
              disabled={d.subscription.kind === 'lifetime'}
              onChange={(e) => {
                const kind = e.value as SubscriptionKind;
                if (changes(d, kind)) onChange(d, kind);
              }}
              className="billing-kind"
            />
          ) : (
            <span className="muted billing-no-change">Only a device ADMIN may change this</span>
          )
        }
      />
    </DataTable>
  );
}

function ConfirmChange({
  change,
  currency,
  onDone,
}: {
  change: PendingChange;
  currency: string;
  onDone: (changed: boolean) => void;
}) {
  const update = useUpdateSubscription();
  const dialog = useMessageDialog();
  const { kind } = change;
  const devices = change.devices.filter((d) => changes(d, kind));
  const skipped = change.devices.length - devices.length;
  const count = devices.length;
  const noun = count === 1 ? 'device' : 'devices';
  const price = subscriptionPriceLabel(kind, currency);

  const confirm = () => {
    if (count === 0) return onDone(false);
    update.mutate(
      { deviceList: devices.map((d) => d.deviceid), subscription: kind },
      {
        onSuccess: () => {
          onDone(true);
          dialog.show(
            'Subscriptions updated',
            kind === 'none'
              ? `The subscription of ${count} ${noun} ends at the end of the period.`
              : `${count} ${noun} ${count === 1 ? 'is' : 'are'} on the Hosted plan. Your invoice is under Account, Invoices.`,
            'success',
          );
        },
        onError: (error) => {
          onDone(false);
          dialog.showError(error);
        },
      },
    );
  };

  const header = kind === 'none' ? 'Cancel subscription' : `${subscriptionKindLabel(kind)} subscription`;
  return (
    <Dialog
      visible
      onHide={() => {
        if (!update.isPending) onDone(false);
      }}
      header={header}
      className="view-dialog billing-confirm"
      style={{ width: '32rem' }}
      breakpoints={{ '575px': '100vw' }}
      draggable={false}
      resizable={false}
      footer={
        <div className="view-dialog__footer">
          <Button type="button" label="Back" text autoFocus disabled={update.isPending} onClick={() => onDone(false)} />
          <Button
            type="button"
            label={kind === 'none' ? 'Cancel subscription' : 'Subscribe'}
            severity={kind === 'none' ? 'danger' : undefined}
            loading={update.isPending}
            disabled={count === 0}
            onClick={confirm}
          />
        </div>
      }
    >
      {count === 0 ? (
        <p className="view-dialog__text">Nothing to change: the selected devices already have this subscription.</p>
      ) : kind === 'none' ? (
        <p className="view-dialog__text">
          Cancel the subscription of {count} {noun}? {count === 1 ? 'It stays' : 'They stay'} on the Hosted plan until
          the end of the paid period, then {count === 1 ? 'returns' : 'return'} to the trial while trial days remain,
          else to Basic.
        </p>
      ) : (
        <>
          <p className="view-dialog__text">
            {subscriptionKindLabel(kind)} Hosted subscription for {count} {noun}: <strong>{price}</strong>
            {count > 1 ? ' each' : ''}.
          </p>
          {count > 1 && (
            <p className="view-dialog__text billing-confirm__total">
              Total: <strong>{money(count * subscriptionPrice(kind), currency)}</strong>
              {kind === 'monthly' ? ' a month' : kind === 'yearly' ? ' a year' : ''}
            </p>
          )}
          <p className="view-dialog__text muted">
            {count === 1 ? 'The device becomes' : 'The devices become'} Hosted at once. An invoice is issued now and is
            due within {BILLING_GRACE_DAYS} days (by {dayText(Date.now() / 1000 + BILLING_GRACE_DAYS * 86_400)});
            unpaid, {count === 1 ? 'the device returns' : 'the devices return'} to {count === 1 ? 'its' : 'their'}{' '}
            previous plan.
            {kind === 'lifetime' ? ' A lifetime subscription never ends and cannot be cancelled.' : ''}
          </p>
        </>
      )}
      {skipped > 0 && (
        <p className="view-dialog__text muted">
          {skipped} selected {skipped === 1 ? 'device already has' : 'devices already have'} this subscription.
        </p>
      )}
    </Dialog>
  );
}
