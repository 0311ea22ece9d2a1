/**
 * The vibracorder (/custom/vibracorder/{deviceid}; docs/decisions.md 'Custom pages'): the
 * device's accelerometer keys (the catalogue's accelerometer group: accel_x, accel_y, accel_z) as
 * a vibration view: the overall vibration (RMS about each axis's mean, combined), then per axis
 * its current value in large type, its RMS and peak over the window, and a live trend of the
 * window's readings. It refreshes on the Data page's schedule.
 */
import {
  CARD_MESSAGES,
  VIBRATION_WINDOW_POINTS,
  accelerometerKeys,
  axisVibration,
  combinedVibration,
  formatNumber,
  formatReading,
  resolveDisplay,
} from '@portal/core';
import { CustomFrame } from './custom-frame';
import type { LiveDevice } from './live-device';
import { TrendChart } from './trend-chart';
import { valueSizeStyle } from './value-size';

export function VibracorderView({ device }: { device: LiveDevice }) {
  const keys = accelerometerKeys(device.series.keys());
  const axes = keys.map((key) => {
    const points = device.series.get(key) ?? [];
    const display = resolveDisplay(key, device.displaySettings[key], points[0]?.v);
    return { key, display, vibration: axisVibration(points) };
  });
  const overall = combinedVibration(axes.map((a) => a.vibration));
  const window = Math.max(0, ...axes.map((a) => a.vibration.count));
  const units = axes[0]?.display.units ?? 'g';
  // One more decimal than the readings: vibration is the small part of the signal.
  const dp = (axes[0]?.display.dp ?? 3) + 1;

  return (
    <CustomFrame device={device} page="Vibracorder">
      {axes.length === 0 ? (
        <section className="cp-empty">
          <i className="pi pi-wave-pulse" aria-hidden="true" />
          <h2>{CARD_MESSAGES.noData}</h2>
          <p className="muted">This device sends no accelerometer readings (accel_x, accel_y, accel_z).</p>
        </section>
      ) : (
        <>
          <section className="cp-overall" aria-labelledby="cp-overall-title">
            <h2 id="cp-overall-title" className="cp-label">
              Vibration (RMS)
            </h2>
            <p className="cp-huge">
              <span className="cp-huge__value">{overall === null ? '---' : formatNumber(overall, dp)}</span>
              {overall !== null && <span className="cp-huge__units">{units}</span>}
            </p>
            <p className="cp-note">
              Over the last {window} {window === 1 ? 'reading' : 'readings'} of each axis (at most{' '}
              {VIBRATION_WINDOW_POINTS}), its mean taken out so gravity and mounting tilt do not count.
            </p>
          </section>
          <div className="cp-axes">
            {axes.map(({ key, display, vibration }) => {
              const current = vibration.latest ? formatReading(vibration.latest.v, display) : null;
              const titleId = `cp-axis-${key}`;
              return (
                <section key={key} className="cp-axis" aria-labelledby={titleId}>
                  <header className="cp-axis__head">
                    <h2 id={titleId} className="cp-label">
                      {display.name}
                    </h2>
                    <span className="cp-key">{key}</span>
                  </header>
                  <p className="cp-value" data-key={key} style={valueSizeStyle(current?.text ?? '---')}>
                    <span className="cp-value__text">{current ? current.text : '---'}</span>
                    {current?.units && <span className="cp-value__units">{current.units}</span>}
                  </p>
                  <dl className="cp-figures">
                    <div>
                      <dt>RMS</dt>
                      <dd>
                        {vibration.rms === null ? '---' : `${formatNumber(vibration.rms, dp)} ${display.units}`.trim()}
                      </dd>
                    </div>
                    <div>
                      <dt>Peak</dt>
                      <dd>
                        {vibration.peak === null
                          ? '---'
                          : `${formatNumber(vibration.peak, dp)} ${display.units}`.trim()}
                      </dd>
                    </div>
                  </dl>
                  <TrendChart points={vibration.points} name={display.name} units={display.units} dp={display.dp} />
                </section>
              );
            })}
          </div>
        </>
      )}
    </CustomFrame>
  );
}
