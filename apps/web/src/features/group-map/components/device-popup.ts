/**
 * The map widget's device popup: the device's name, its last contact and a Device Page link that
 * stays in the app, built as nodes (names are never read as HTML).
 */
import type { NavigateFunction } from 'react-router';
import { formatDistanceStrict } from 'date-fns';
import { formatDateTimeWithOffset, notAfterNow, type GroupDataDevice } from '@portal/core';

/** The popup of a device: its name, last contact and a Device Page link, built as nodes (names are never read as HTML). */
export function popupContent(device: GroupDataDevice, label: string, navigate: NavigateFunction): HTMLElement {
  const box = document.createElement('div');
  box.className = 'gm-popup';
  const name = box.appendChild(document.createElement('strong'));
  name.className = 'gm-popup__name';
  name.textContent = label;
  const contact = box.appendChild(document.createElement('div'));
  contact.className = 'gm-popup__contact';
  contact.append('Last contact: ');
  if (device.ts === null || !Number.isFinite(device.ts)) {
    contact.append('never');
  } else {
    const date = new Date(device.ts * 1000);
    const now = Date.now();
    const time = contact.appendChild(document.createElement('time'));
    time.dateTime = date.toISOString();
    time.title = formatDateTimeWithOffset(date);
    time.textContent = formatDistanceStrict(notAfterNow(date.getTime(), now), now, {
      addSuffix: true,
      roundingMethod: 'floor',
    });
  }
  const path = `/data/${encodeURIComponent(device.deviceid)}`;
  const link = box.appendChild(document.createElement('a'));
  link.className = 'gm-popup__link';
  link.href = path;
  link.textContent = 'Device Page';
  link.addEventListener('click', (event) => {
    // A plain click stays in the app; a modified one (new tab, new window) is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(path);
  });
  return box;
}
