/**
 * /sqstats (STAFF-04, API-61): GET /billing-admin-stats as tiles, tables and bar charts: devices
 * by plan, model and distributor; devices active in the last day; new subscriptions and revenue
 * by month (the last 12, UTC); the ingest rate over the last hour. Everything exports as one CSV
 * (core staffStatsCsv).
 */
import { useId, useMemo, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { PLAN_NAMES, formatMoney, loadErrorDetail, staffStatsCsv, type BillingAdminStatsResponse } from '@portal/core';
import { CHART_PALETTE } from '@/components/chart/chart-options';
import { RefreshButton } from '@/components/ui/refresh-button';
import { LocalTime } from '@/components/ui/local-time';
import { CSV_TYPE, downloadBlob } from '@/lib/download';
import { useAdminStats } from '../api/admin-stats';
import { BarChart } from './bar-chart';
import { PlanTag, StaffHeader, StaffLoadError, StaffSkeleton } from './staff-bits';
import './staff.css';
import { usePageTitle } from '@/lib/page-title';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'Nov 26' for '2026-11'. */
function monthLabel(month: string): string {
  const [year, m] = month.split('-');
  return `${MONTHS[Number(m) - 1] ?? m} ${year?.slice(2) ?? ''}`;
}

const share = (count: number, total: number) => (total > 0 ? `${Math.round((count / total) * 100)}%` : '–');

export function StaffStatsPage() {
  usePageTitle('Statistics');
  const stats = useAdminStats();

  const exportCsv = (data: BillingAdminStatsResponse) => {
    const csv = staffStatsCsv(data);
    const day = new Date(data.generatedAt * 1000).toISOString().slice(0, 10);
    downloadBlob(new Blob([csv], { type: CSV_TYPE }), `portal-statistics-${day}.csv`);
  };

  return (
    <div className="page staff">
      <StaffHeader
        title="Statistics"
        subtitle={
          stats.data ? (
            <>
              Figures at <LocalTime ts={stats.data.generatedAt} />; months in UTC.
            </>
          ) : (
            'Devices, subscriptions, revenue and ingest.'
          )
        }
        actions={
          <>
            <RefreshButton fetching={stats.isFetching} onRefresh={() => void stats.refetch()} />
            <Button
              type="button"
              label="Export CSV"
              icon="pi pi-download"
              size="small"
              outlined
              disabled={!stats.data}
              onClick={() => stats.data && exportCsv(stats.data)}
            />
          </>
        }
      />
      {stats.isPending ? (
        <StaffSkeleton cards={3} />
      ) : stats.isError ? (
        <StaffLoadError message={loadErrorDetail(stats.error)} onRetry={() => void stats.refetch()} />
      ) : (
        <StatsBody data={stats.data} />
      )}
    </div>
  );
}

function StatsBody({ data }: { data: BillingAdminStatsResponse }) {
  const money = (v: number) => formatMoney(v, data.currency);
  const monthLabels = useMemo(() => data.months.map((m) => monthLabel(m.month)), [data.months]);
  const subscriptions = useMemo(() => data.months.map((m) => m.subscriptions), [data.months]);
  const revenue = useMemo(() => data.months.map((m) => m.revenue), [data.months]);
  const minuteLabels = useMemo(
    () => data.ingest.minutes.map((_, i, all) => (i === all.length - 1 ? 'now' : `-${all.length - 1 - i} min`)),
    [data.ingest.minutes],
  );
  const formatMoneyAxis = useMemo(
    () => (v: number) => formatMoney(v, data.currency).replace(/\.00$/, ''),
    [data.currency],
  );
  const thisMonth = data.months[data.months.length - 1];
  const planRows = PLAN_NAMES.map((plan) => ({ plan, count: data.devicesByPlan[plan] }));

  return (
    <>
      <ul className="staff-tiles" aria-label="Key figures">
        <li className="card staff-tile">
          <span className="staff-tile__label">Devices</span>
          <span className="staff-tile__value">{data.totalDevices.toLocaleString()}</span>
        </li>
        <li className="card staff-tile">
          <span className="staff-tile__label">Active in the last day</span>
          <span className="staff-tile__value">{data.activeLastDay.toLocaleString()}</span>
          <span className="staff-tile__note">{share(data.activeLastDay, data.totalDevices)} of devices</span>
        </li>
        <li className="card staff-tile">
          <span className="staff-tile__label">Ingest, last hour</span>
          <span className="staff-tile__value">
            {data.ingest.perMinute.toLocaleString()} <small>records/min</small>
          </span>
          <span className="staff-tile__note">{data.ingest.recordsLastHour.toLocaleString()} records</span>
        </li>
        <li className="card staff-tile">
          <span className="staff-tile__label">Revenue this month</span>
          <span className="staff-tile__value">{money(thisMonth?.revenue ?? 0)}</span>
          <span className="staff-tile__note">
            {thisMonth?.subscriptions ?? 0} new subscription{thisMonth?.subscriptions === 1 ? '' : 's'}
          </span>
        </li>
      </ul>

      <div className="staff-grid staff-grid--3">
        <DeviceCountCard
          title="Devices by plan"
          rows={planRows}
          dataKey="plan"
          header="Plan"
          label={(r) => <PlanTag plan={r.plan} />}
          total={data.totalDevices}
        />
        <DeviceCountCard
          title="Devices by model"
          rows={data.devicesByModel}
          dataKey="model"
          header="Model"
          label={(r) => r.model}
          total={data.totalDevices}
        />
        <DeviceCountCard
          title="Devices by distributor"
          rows={data.devicesByDistributor}
          dataKey="distributorId"
          header="Distributor"
          label={(r) => r.name ?? <span className="staff-muted">No distributor</span>}
          total={data.totalDevices}
        />
      </div>

      <div className="staff-grid">
        <section className="card staff-card" aria-labelledby="stats-subs">
          <h2 id="stats-subs" className="card__title">
            New subscriptions by month
          </h2>
          <BarChart
            title="New subscriptions by month"
            labels={monthLabels}
            values={subscriptions}
            labelEvery={2}
            integer
          />
        </section>
        <section className="card staff-card" aria-labelledby="stats-revenue">
          <h2 id="stats-revenue" className="card__title">
            Revenue by month <span className="staff-muted staff-small">paid invoices, {data.currency}</span>
          </h2>
          <BarChart
            title="Revenue by month"
            labels={monthLabels}
            values={revenue}
            format={formatMoneyAxis}
            colour={CHART_PALETTE[2]}
            labelEvery={2}
          />
        </section>
      </div>

      <section className="card staff-card" aria-labelledby="stats-months">
        <h2 id="stats-months" className="card__title">
          Months
        </h2>
        <DataTable
          value={[...data.months].reverse()}
          dataKey="month"
          size="small"
          scrollable
          pt={{ table: { 'aria-label': 'Subscriptions and revenue by month' } }}
        >
          <Column header="Month" body={(r: { month: string }) => monthLabel(r.month)} frozen className="staff-nowrap" />
          <Column header="New subscriptions" field="subscriptions" className="staff-num" alignHeader="right" />
          <Column
            header="Revenue"
            body={(r: { revenue: number }) => money(r.revenue)}
            className="staff-num"
            alignHeader="right"
          />
        </DataTable>
      </section>

      <section className="card staff-card" aria-labelledby="stats-ingest">
        <h2 id="stats-ingest" className="card__title">
          Records per minute, last hour
        </h2>
        <BarChart
          title="Records per minute, last hour"
          labels={minuteLabels}
          values={data.ingest.minutes}
          colour={CHART_PALETTE[1]}
          labelEvery={10}
          height={180}
          integer
          description={`Records per minute over the last hour: ${data.ingest.recordsLastHour} records, ${data.ingest.perMinute} a minute on average, at most ${Math.max(0, ...data.ingest.minutes)} in one minute.`}
        />
      </section>
    </>
  );
}

/** A card of the devices counted by one thing (plan, model, distributor), each count with its share of all. */
function DeviceCountCard<Row extends { count: number }>({
  title,
  rows,
  dataKey,
  header,
  label,
  total,
}: {
  title: string;
  rows: readonly Row[];
  dataKey: keyof Row & string;
  header: string;
  label: (row: Row) => ReactNode;
  total: number;
}) {
  const id = useId();
  return (
    <section className="card staff-card" aria-labelledby={id}>
      <h2 id={id} className="card__title">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="staff-muted">No devices yet.</p>
      ) : (
        <DataTable value={[...rows]} dataKey={dataKey} size="small" pt={{ table: { 'aria-label': title } }}>
          <Column header={header} body={label} />
          <Column header="Devices" field="count" className="staff-num" alignHeader="right" />
          <Column header="Share" body={(r: Row) => share(r.count, total)} className="staff-num" alignHeader="right" />
        </DataTable>
      )}
    </section>
  );
}
