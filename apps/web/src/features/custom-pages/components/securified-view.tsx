/**
 * The kiosk (/custom/securified/{deviceid}; docs/decisions.md 'Custom pages'): the device's
 * readings for a wall screen, every key the Data page shows in its display order, each as a tile
 * with its value in large type, the state its limits give it (colour and word), and its age when
 * it is not from the newest record; refreshed on the Data page's schedule.
 */
import { formatDistanceStrict } from 'date-fns';
import {
  CARD_MESSAGES,
  MISSING_VALUE,
  formatReading,
  notAfterNow,
  orderedKeys,
  readingLevel,
  resolveDisplay,
  showsLastKnownValues,
} from '@portal/core';
import { CustomFrame } from './custom-frame';
import type { LiveDevice } from './live-device';
import { valueSizeStyle } from './value-size';

const LEVEL_WORDS = { alarm: 'Alarm', warning: 'Warning', normal: 'Normal' } as const;

export function SecurifiedView({ device }: { device: LiveDevice }) {
  const keys = orderedKeys([...device.series.keys()], device.displaySettings);
  const lastKnown = device.status !== null && showsLastKnownValues(device.status);

  return (
    <CustomFrame device={device} page="Kiosk">
      {keys.length === 0 ? (
        <section className="cp-empty">
          <i className="pi pi-desktop" aria-hidden="true" />
          <h2>{CARD_MESSAGES.noData}</h2>
          <p className="muted">The readings show here as soon as the device sends its first record.</p>
        </section>
      ) : (
        <div className="cp-grid">
          {keys.map((key) => {
            const point = device.series.get(key)?.[0];
            const setting = device.displaySettings[key];
            const display = resolveDisplay(key, setting, point?.v);
            const formatted = point ? formatReading(point.v, display) : { text: MISSING_VALUE.text, units: '' };
            const level = point ? readingLevel(key, setting, point.v) : null;
            // Older than the newest record (the key was not in it), or the device is not online.
            const old = point !== undefined && (point.ts !== device.lastTs || lastKnown);
            const titleId = `cp-tile-${key}`;
            return (
              <section
                key={key}
                className={`cp-tile${level ? ` cp-tile--${level}` : ''}${old ? ' cp-tile--old' : ''}`}
                aria-labelledby={titleId}
              >
                <h2 id={titleId} className="cp-label" title={key}>
                  {display.name}
                </h2>
                <p
                  className={`cp-value${formatted.error ? ' cp-value--error' : ''}`}
                  data-key={key}
                  style={valueSizeStyle(formatted.text)}
                >
                  <span className="cp-value__text">{formatted.text}</span>
                  {formatted.units && <span className="cp-value__units">{formatted.units}</span>}
                </p>
                <p className="cp-tile__foot">
                  {level && level !== 'normal' && (
                    <span className={`cp-level cp-level--${level}`}>{LEVEL_WORDS[level]}</span>
                  )}
                  {point && old && (
                    <span className="cp-tile__age">
                      {formatDistanceStrict(notAfterNow(point.ts * 1000, device.nowMs), device.nowMs, {
                        addSuffix: true,
                      })}
                    </span>
                  )}
                </p>
              </section>
            );
          })}
        </div>
      )}
    </CustomFrame>
  );
}
