/**
 * A device's widget card page, /widget/{deviceid}/widget{n} (spec 2 sections 2, 3, 5 and 8; WGT-01
 * - WGT-16, WGT-22): the card drawn live from the device's latest values, and for users who may
 * edit display settings its editor: add a status indicator, a level indicator or a text, drag
 * them (or move them with the arrow keys) on the 5 px grid, set the selected item's settings and
 * the card's own, upload its image; Save, Delete (after asking) and Cancel go back to the Data
 * page. A widget{n} the device does not have yet is a new card. Others see the card read only;
 * a card that does not exist is 'Widget not found'. A plan without data to the portal says
 * 'Widgets are unavailable on the {tier} Plan'; a 100th card 'Maximum number of widgets reached
 * [99]'.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from 'primereact/button';
import {
  CUSTOM_WIDGET_LIMIT,
  WIDGET_ITEM_NAMES,
  WIDGET_NOT_FOUND,
  WidgetCardSchema,
  authoredCount,
  configPaths,
  keyDisplayName,
  newIndicator,
  newTextComponent,
  newWidgetCard,
  nextItemId,
  placeItem,
  planState,
  readWidgetCard,
  unavailableFeatureMessage,
  widgetLimitMessage,
  type DeviceAccess,
  type DeviceSettingsResponse,
  type IndicatorKind,
  type WidgetCard,
  type WidgetComponent,
  type WidgetContext,
  type WidgetElement,
} from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useMessageDialog } from '@/lib/message-dialog';
import { useSaveWidget } from '../api/save-widget';
import { deleteWidgetImage, uploadWidgetImage } from '../api/widget-image';
import { widgetImageSrc } from '../utils/widget-image-src';
import { CardPanel } from './card-panel';
import { IndicatorPanel, TextPanel, type KnownKey } from './item-panels';
import { WidgetCanvas } from './widget-canvas';
import { WidgetDrawing } from './widget-drawing';
import './device-widget.css';
import './widget-editor.css';

export interface WidgetPageProps {
  deviceid: string;
  /** widget{n}. */
  widgetKey: string;
  /** The settings record: the cards, the keys' display settings, DATA_latest and the plan. */
  settings: DeviceSettingsResponse;
  access: Pick<DeviceAccess, 'editDisplaySettings'>;
  /** config.settings of the device's config (for {cfg.PATH}); undefined until it is read. */
  config: Record<string, unknown> | undefined;
  /** The device is not online: its values are last known ones. */
  stale: boolean;
  nowMs: number;
}

/** The card's name as the page shows it. */
export function widgetTitle(stored: unknown, widgetKey: string): string {
  return readWidgetCard(stored)?.name?.trim() || (stored == null ? 'New widget' : widgetKey);
}

export function WidgetPage(props: WidgetPageProps) {
  const { deviceid, widgetKey, settings, access } = props;
  const display = settings.deviceSettings.PORTAL_displaySettings;
  const stored = Object.hasOwn(display, widgetKey) ? display[widgetKey] : undefined;
  const card = stored == null ? null : readWidgetCard(stored);
  const tier = settings.deviceSettings.tier;
  const dataPath = `/data/${encodeURIComponent(deviceid)}`;
  const ctx: WidgetContext = useMemo(
    () => ({
      values: settings.deviceSettings.DATA_latest,
      displaySettings: display,
      config: props.config,
      stale: props.stale,
    }),
    [settings, display, props.config, props.stale],
  );
  const back = (
    <Link className="p-button p-button-outlined" to={dataPath}>
      Back to the Data page
    </Link>
  );

  if (!tier.dataToPortal) {
    const plan = planState({ tier }, props.nowMs).plan ?? tier.name;
    return (
      <section className="card wc-editor" role="alert">
        <p className="wc-cards__empty">{unavailableFeatureMessage('Widgets', plan)}</p>
        <div>{back}</div>
      </section>
    );
  }
  if (!access.editDisplaySettings) {
    if (!card)
      return (
        <section className="card wc-editor">
          <h2 className="wc-cards__title">{WIDGET_NOT_FOUND}</h2>
          <p className="wc-cards__empty">This device has no widget {widgetKey}. It may have been deleted.</p>
          <div>{back}</div>
        </section>
      );
    const title = card.name?.trim() || widgetKey;
    return (
      <section className="card wc-editor" aria-label={title}>
        <WidgetDrawing card={card} ctx={ctx} imageSrc={widgetImageSrc(card.image?.path)} label={title} />
        <p className="wc-notice">You can view this widget; changing it needs ADMIN or USER permission on the device.</p>
      </section>
    );
  }
  if (!card && authoredCount(display, 'widget') >= CUSTOM_WIDGET_LIMIT) {
    return (
      <section className="card wc-editor">
        <p className="wc-error" role="alert">
          {widgetLimitMessage('widget', CUSTOM_WIDGET_LIMIT)}
        </p>
        <div>{back}</div>
      </section>
    );
  }
  return (
    <WidgetEditor
      // A card saved elsewhere meanwhile starts the form again only when the page is opened again.
      key={widgetKey}
      {...props}
      initial={card}
      ctx={ctx}
      dataPath={dataPath}
    />
  );
}

/** A message in place of the editor (the limit, say), with the way back to the Data page. */
export function WidgetNotice({ deviceid, message }: { deviceid: string; message: string }) {
  return (
    <section className="card wc-editor">
      <p className="wc-error" role="alert">
        {message}
      </p>
      <div>
        <Link className="p-button p-button-outlined" to={`/data/${encodeURIComponent(deviceid)}`}>
          Back to the Data page
        </Link>
      </div>
    </section>
  );
}

type Tab = 'item' | 'card';

function WidgetEditor({
  deviceid,
  widgetKey,
  settings,
  initial,
  ctx,
  dataPath,
}: WidgetPageProps & { initial: WidgetCard | null; ctx: WidgetContext; dataPath: string }) {
  const navigate = useNavigate();
  const messages = useMessageDialog();
  const saver = useSaveWidget(deviceid, widgetKey);
  const isNew = initial === null;
  const [start] = useState<WidgetCard>(() => initial ?? newWidgetCard());
  const [draft, setDraft] = useState<WidgetCard>(start);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('card');
  const [uploading, setUploading] = useState(false);
  const [confirm, setConfirm] = useState<'delete' | 'discard' | null>(null);
  const [busy, setBusy] = useState(false);
  const dirty = JSON.stringify(draft) !== JSON.stringify(start);

  // The browser asks before a tab with unsaved changes closes or reloads.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const keys: KnownKey[] = useMemo(() => {
    const display = settings.deviceSettings.PORTAL_displaySettings;
    return Object.keys(settings.deviceSettings.DATA_latest)
      .sort()
      .map((key) => ({ key, name: keyDisplayName(key, display[key]) }));
  }, [settings]);
  const paths = useMemo(() => configPaths(ctx.config), [ctx.config]);
  const imageSrc = widgetImageSrc(draft.image?.path);

  const selectedElement = draft.elements.find((e) => e.id === selectedId) ?? null;
  const selectedText = draft.components.find((c) => c.id === selectedId) ?? null;

  const select = useCallback((id: string | null) => {
    setSelectedId(id);
    setTab(id === null ? 'card' : 'item');
  }, []);
  const onFocused = useCallback(() => setFocusId(null), []);

  const move = (id: string, at: { x: number; y: number }) =>
    setDraft((d) => ({
      ...d,
      elements: d.elements.map((e) => (e.id === id ? { ...e, ...at } : e)),
      components: d.components.map((c) => (c.id === id ? { ...c, ...at } : c)),
    }));

  /** A new item goes near the top left, a step further for each item already there, on the card. */
  const add = (kind: IndicatorKind | 'text') => {
    const count = draft.elements.length + draft.components.length;
    const offset = 10 + (count % 10) * 20;
    if (kind === 'text') {
      const id = nextItemId('t', draft);
      const at = placeItem({ x: offset, y: offset }, { width: 40, height: 20 }, draft, draft.snapToGrid);
      setDraft((d) => ({ ...d, components: [...d.components, newTextComponent(id, at.x, at.y)] }));
      select(id);
      setFocusId(id);
      return;
    }
    const id = nextItemId('e', draft);
    const e = newIndicator(kind, id);
    const at = placeItem(
      { x: offset, y: offset },
      { width: e.settings.width!, height: e.settings.height! },
      draft,
      draft.snapToGrid,
    );
    setDraft((d) => ({ ...d, elements: [...d.elements, { ...e, ...at }] }));
    select(id);
    setFocusId(id);
  };

  const changeElement = (next: WidgetElement) =>
    setDraft((d) => ({ ...d, elements: d.elements.map((e) => (e.id === next.id ? next : e)) }));
  const changeText = (next: WidgetComponent) =>
    setDraft((d) => ({ ...d, components: d.components.map((c) => (c.id === next.id ? next : c)) }));
  const remove = (id: string) => {
    setDraft((d) => ({
      ...d,
      elements: d.elements.filter((e) => e.id !== id),
      components: d.components.filter((c) => c.id !== id),
    }));
    select(null);
  };

  const upload = async (file: File) => {
    setUploading(true);
    try {
      const answer = await uploadWidgetImage(deviceid, widgetKey, file);
      setDraft((d) => ({ ...d, image: { path: answer.path, imageIsActive: true } }));
    } catch (err) {
      messages.showError(err);
    } finally {
      setUploading(false);
    }
  };

  const removeImage = async () => {
    setUploading(true);
    try {
      await deleteWidgetImage(deviceid, widgetKey);
      setDraft((d) => ({ ...d, image: { path: null, imageIsActive: false } }));
    } catch (err) {
      messages.showError(err);
    } finally {
      setUploading(false);
    }
  };

  const save = () => {
    const checked = WidgetCardSchema.safeParse(draft);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      messages.show('Error', `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`, 'error');
      return;
    }
    saver.mutate(checked.data, {
      onSuccess: () => void navigate(dataPath),
      onError: (err) => messages.showError(err),
    });
  };

  const deleteCard = async () => {
    setBusy(true);
    try {
      if (initial?.image?.path || draft.image?.path) await deleteWidgetImage(deviceid, widgetKey);
      await saver.mutateAsync(null);
      void navigate(dataPath);
    } catch (err) {
      setConfirm(null);
      messages.showError(err);
    } finally {
      setBusy(false);
    }
  };

  const leave = () => {
    if (dirty) setConfirm('discard');
    else void navigate(dataPath);
  };

  const selected = selectedElement ?? selectedText;
  const position = selected ? `${selected.x}, ${selected.y}` : null;

  return (
    <div className="wc-editor">
      <div className="wc-editor__layout">
        <section className="card wc-editor__main" aria-label="Widget card">
          <div className="wc-toolbar" role="toolbar" aria-label="Add to the card">
            <Button
              type="button"
              size="small"
              outlined
              icon="pi pi-circle-fill"
              label="Status indicator"
              onClick={() => add('statusIndicator')}
            />
            <Button
              type="button"
              size="small"
              outlined
              icon="pi pi-chart-bar"
              label="Level indicator"
              onClick={() => add('levelIndicator')}
            />
            <Button
              type="button"
              size="small"
              outlined
              icon="pi pi-align-left"
              label="Text"
              onClick={() => add('text')}
            />
          </div>
          <p className="wc-toolbar__hint">
            Drag an item to place it, or select it and use the arrow keys
            {draft.snapToGrid ? ' (it snaps to a 5 px grid)' : ''}.
          </p>
          <WidgetCanvas
            card={draft}
            ctx={ctx}
            imageSrc={imageSrc}
            selectedId={selectedId}
            focusId={focusId}
            onFocused={onFocused}
            onSelect={select}
            onMove={move}
          />
          <p className="wc-position" aria-live="polite">
            {selected && position
              ? `${selected === selectedText ? WIDGET_ITEM_NAMES.text : WIDGET_ITEM_NAMES[selectedElement!.active]} at ${position}`
              : `${draft.width} x ${draft.height} px`}
          </p>
          <div className="wc-actions">
            {!isNew && (
              <Button
                type="button"
                label="Delete"
                icon="pi pi-trash"
                severity="danger"
                outlined
                onClick={() => setConfirm('delete')}
                disabled={saver.isPending}
              />
            )}
            <span className="wc-actions__spacer" />
            <Button type="button" label="Cancel" text onClick={leave} disabled={saver.isPending} />
            <Button type="button" label="Save" icon="pi pi-check" loading={saver.isPending} onClick={save} />
          </div>
        </section>
        <section className="card wc-panel" aria-label="Settings">
          <div className="wc-tabs" role="tablist" aria-label="Settings of">
            <PanelTab id="item" tab={tab} onTab={setTab} label="Selected item" />
            <PanelTab id="card" tab={tab} onTab={setTab} label="Widget" />
          </div>
          <div role="tabpanel" id="wc-panel-card" aria-labelledby="wc-tab-card" hidden={tab !== 'card'}>
            <CardPanel
              card={draft}
              imageSrc={imageSrc}
              uploading={uploading}
              onChange={setDraft}
              onUpload={(file) => void upload(file)}
              onRemoveImage={() => void removeImage()}
            />
          </div>
          <div role="tabpanel" id="wc-panel-item" aria-labelledby="wc-tab-item" hidden={tab !== 'item'}>
            {selectedElement ? (
              <IndicatorPanel
                key={selectedElement.id}
                element={selectedElement}
                keys={keys}
                onChange={changeElement}
                onRemove={() => remove(selectedElement.id)}
              />
            ) : selectedText ? (
              <TextPanel
                key={selectedText.id}
                component={selectedText}
                keys={keys}
                configPaths={paths}
                onChange={changeText}
                onRemove={() => remove(selectedText.id)}
              />
            ) : (
              <p className="wc-panel__empty">Select an item on the card, or add one, to change its settings.</p>
            )}
          </div>
        </section>
      </div>
      <ConfirmDialog
        visible={confirm === 'delete'}
        header="Delete widget?"
        confirmLabel="Delete widget"
        confirmIcon="pi pi-trash"
        busy={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={() => void deleteCard()}
      >
        The widget {draft.name?.trim() || widgetKey} and its image are removed from this device for everyone.
      </ConfirmDialog>
      <ConfirmDialog
        visible={confirm === 'discard'}
        header="Discard changes?"
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          void navigate(dataPath);
        }}
      >
        This widget has changes that are not saved. Leave without saving them?
      </ConfirmDialog>
    </div>
  );
}

function PanelTab({ id, tab, onTab, label }: { id: Tab; tab: Tab; onTab: (tab: Tab) => void; label: string }) {
  const other: Tab = id === 'item' ? 'card' : 'item';
  return (
    <button
      type="button"
      role="tab"
      id={`wc-tab-${id}`}
      className="wc-tab"
      aria-selected={tab === id}
      aria-controls={`wc-panel-${id}`}
      tabIndex={tab === id ? 0 : -1}
      onClick={() => onTab(id)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
          e.preventDefault();
          onTab(other);
          document.getElementById(`wc-tab-${other}`)?.focus();
        }
      }}
    >
      {label}
    </button>
  );
}
