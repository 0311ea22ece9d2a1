/**
 * A device's widget cards on its Data page (spec 2 sections 2, 5 and 8; WGT-01, WGT-13 - WGT-16):
 * each widget{n} of PORTAL_displaySettings drawn from the page's values, scaled to its card; for
 * users who may edit display settings, an edit link to its page and 'New widget', which opens
 * the next free widget{n}'s page, or says 'Maximum number of widgets reached [99]'. On a plan
 * without data to the portal: 'Widgets are unavailable on the {tier} Plan' instead.
 */
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  nextWidgetKey,
  planState,
  readWidgetCard,
  unavailableFeatureMessage,
  widgetKeys,
  type DeviceAccess,
  type DeviceSettingsResponse,
  type WidgetCard,
  type WidgetContext,
} from '@portal/core';
import { widgetImageSrc } from '../utils/widget-image-src';
import { WidgetDrawing } from './widget-drawing';
import './device-widget.css';
import { EyeLink } from '@/components/ui/eye-link';

export interface DeviceWidgetCardsProps {
  deviceid: string;
  /** PORTAL_displaySettings: the cards (widget{n}) and the keys' names, units, decimals and limits. */
  displaySettings: Record<string, unknown>;
  /** Every key's value shown (DATA_latest's shape): the newest, or a past record's on the timeline. */
  latest: Record<string, { v: unknown; ts: number }>;
  /** The settings record's tier: its plan name and dataToPortal (null: not known, the cards show). */
  tier: DeviceSettingsResponse['deviceSettings']['tier'] | null;
  /** The user's access: editDisplaySettings offers the edit links and 'New widget'. */
  access: Pick<DeviceAccess, 'editDisplaySettings'>;
  /** The device is not online: its values are last known ones (the cards' staleColor). */
  stale: boolean;
  /** config.settings of the device's config, for {cfg.PATH} texts. */
  config?: Record<string, unknown> | undefined;
  /** The page clock (epoch ms), for the plan's name. */
  nowMs?: number;
}

/** The editor's address of a card. */
export const widgetPath = (deviceid: string, key: string) => `/widget/${encodeURIComponent(deviceid)}/${key}`;

export function DeviceWidgetCards(props: DeviceWidgetCardsProps) {
  const { deviceid, displaySettings, latest, tier, access, stale, config } = props;
  const navigate = useNavigate();
  const [limit, setLimit] = useState<string | null>(null);
  const cards = useMemo(
    () =>
      widgetKeys(displaySettings).flatMap((key) => {
        const card = readWidgetCard(displaySettings[key]);
        return card ? [{ key, card }] : [];
      }),
    [displaySettings],
  );
  const ctx: WidgetContext = useMemo(
    () => ({ values: latest, displaySettings, config, stale }),
    [latest, displaySettings, config, stale],
  );

  if (tier && !tier.dataToPortal) {
    if (cards.length === 0 && !access.editDisplaySettings) return null;
    const plan = planState({ tier }, props.nowMs ?? Date.now()).plan ?? tier.name;
    return (
      <section
        id="dp-widgets"
        className="card wc-cards wc-cards--unavailable"
        aria-labelledby="wc-cards-title"
        data-dp-index="Widgets"
      >
        <h2 id="wc-cards-title" className="wc-cards__title">
          Widgets
        </h2>
        <p className="wc-cards__empty">{unavailableFeatureMessage('Widgets', plan)}</p>
      </section>
    );
  }
  if (cards.length === 0 && !access.editDisplaySettings) return null;

  const onNew = () => {
    const next = nextWidgetKey(displaySettings);
    if (next.ok) void navigate(widgetPath(deviceid, next.value));
    else setLimit(next.error);
  };

  return (
    <section id="dp-widgets" className="wc-cards" aria-labelledby="wc-cards-title" data-dp-index="Widgets">
      <div className="head-row">
        <h2 id="wc-cards-title" className="wc-cards__title">
          Widgets
        </h2>
        {access.editDisplaySettings && (
          <button type="button" className="p-button p-button-outlined p-button-sm" onClick={onNew}>
            <i className="pi pi-plus" aria-hidden="true" /> New widget
          </button>
        )}
      </div>
      {limit && (
        <p className="wc-error" role="alert">
          {limit}
        </p>
      )}
      {cards.length === 0 && (
        <p className="wc-cards__empty">
          No widget cards yet: New widget places indicators and text over an image of the machine.
        </p>
      )}
      {cards.length > 0 && (
        <div className="wc-cards__grid">
          {cards.map(({ key, card }) => (
            <WidgetCardView
              key={key}
              deviceid={deviceid}
              widgetKey={key}
              card={card}
              ctx={ctx}
              canEdit={access.editDisplaySettings}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function WidgetCardView({
  deviceid,
  widgetKey,
  card,
  ctx,
  canEdit,
}: {
  deviceid: string;
  widgetKey: string;
  card: WidgetCard;
  ctx: WidgetContext;
  canEdit: boolean;
}) {
  const title = card.name?.trim() || widgetKey;
  const titleId = `wc-card-${widgetKey}`;
  return (
    <section
      className="card wc-card"
      aria-labelledby={titleId}
      data-widget={widgetKey}
      style={{ maxWidth: `calc(${card.width}px + 2 * var(--space-2) + 2px)` }}
    >
      <header className="wc-card__head">
        <h3 id={titleId} className="wc-card__title">
          {title}
        </h3>
        {/* The eye to the widget's page, as a reading card's (CARD-05): for users who may edit display settings. */}
        {canEdit && (
          <EyeLink
            to={widgetPath(deviceid, widgetKey)}
            label={`Open widget ${title}`}
            title="Open this widget's page"
          />
        )}
      </header>
      <WidgetDrawing card={card} ctx={ctx} imageSrc={widgetImageSrc(card.image?.path)} label={title} />
    </section>
  );
}
