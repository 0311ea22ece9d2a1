/**
 * A custom page's device, read and polled as the Data page reads it: GET settings, config and
 * data, polled on the device's rhythm (core nextPollState through usePollingSchedule), the
 * readings merged with the settings' latest values (core mergeSeries), and one contact status
 * (core contactStatus). Failures are shown by the page (a wall screen gets no toasts).
 */
import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  STALE_TIMES_MS,
  contactStatus,
  dataPointsFor,
  deviceAccess,
  appliedIntervalSeconds,
  mergeSeries,
  recordTimes,
} from '@portal/core';
import * as queryKeys from '@/lib/query-keys';
import { deviceIdentity, getDeviceConfig } from '@/features/device-data/api/device-config';
import { getDeviceData } from '@/features/device-data/api/device-data';
import { isDeviceNotFound } from '@/features/device-data/api/device-not-found';
import { deviceSettingsQueryOptions } from '@/features/device-data/api/device-settings';
import { usePollingSchedule } from '@/features/device-data/hooks/use-polling-schedule';
import { useNow } from '@/lib/use-now';
import type { LiveDeviceState } from '@/features/custom-pages/components/live-device';

/** The page clock's tick: relative ages and the status move on between answers. */
const CLOCK_TICK_MS = 5000;

export function useLiveDevice(deviceid: string, userGroups: readonly string[]): LiveDeviceState {
  const settingsQuery = useQuery({ ...deviceSettingsQueryOptions(deviceid), meta: { silent: true } });
  const settings = settingsQuery.data;
  const notFound = isDeviceNotFound(settingsQuery.error);
  const configQuery = useQuery({
    queryKey: queryKeys.device.config(deviceid),
    queryFn: ({ signal }) => getDeviceConfig(deviceid, signal),
    staleTime: STALE_TIMES_MS.config,
    enabled: !notFound,
    meta: { silent: true },
  });
  const access = deviceAccess({
    settings: settingsQuery.isError ? null : (settings ?? { myPermission: 'VIEW' }),
    userGroups,
  });
  const intervalS = configQuery.data ? appliedIntervalSeconds(configQuery.data.config) : null;
  const schedule = usePollingSchedule(intervalS);
  const dataPoints = dataPointsFor(access);
  const dataQuery = useQuery({
    queryKey: queryKeys.device.data(deviceid, dataPoints),
    queryFn: ({ signal }) => getDeviceData(deviceid, dataPoints, signal),
    staleTime: STALE_TIMES_MS.data,
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      isDeviceNotFound(query.state.error) ? false : schedule(query.state.data, query.state.dataUpdatedAt),
    enabled: !notFound,
    meta: { silent: true },
  });
  const nowMs = useNow(CLOCK_TICK_MS, dataQuery.dataUpdatedAt);
  const latest = access.dataRestricted ? null : settings?.deviceSettings.DATA_latest;
  const series = useMemo(() => mergeSeries(dataQuery.data?.data, latest), [dataQuery.data, latest]);

  if (notFound || isDeviceNotFound(configQuery.error) || isDeviceNotFound(dataQuery.error))
    return { state: 'notFound' };
  const failed = settingsQuery.isError || (dataQuery.isError && dataQuery.data === undefined);
  if (failed) {
    return {
      state: 'error',
      retry: () => {
        void settingsQuery.refetch();
        void configQuery.refetch();
        void dataQuery.refetch();
      },
    };
  }
  if (settingsQuery.isPending || dataQuery.isPending || (configQuery.isPending && !configQuery.isError)) {
    return { state: 'loading' };
  }
  const lastTs = recordTimes(series)[0] ?? null;
  return {
    state: 'ready',
    device: {
      deviceid,
      name: settings?.deviceSettings.PORTAL_deviceName || deviceid,
      model: deviceIdentity(configQuery.data).model,
      series,
      displaySettings: settings?.deviceSettings.PORTAL_displaySettings ?? {},
      status: contactStatus({ lastRecordS: lastTs, intervalS }, nowMs),
      lastTs,
      nowMs,
      refreshFailed: dataQuery.isRefetchError,
    },
  };
}
