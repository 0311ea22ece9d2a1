/**
 * A widget's export menu (issue 13): a button in the widget card's header opening 'Export CSV'
 * and 'Export Excel' (PrimeReact's popup Menu: arrow keys, Enter, Escape back to the button).
 * The file holds what the widget shows when asked (its source's getter) and is named
 * '{group name} - {widget title} - {from} to {to}', the view's range in the viewer's time zone.
 * The workbook's library loads only when a workbook is asked for.
 */
import { useId, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { ERROR_TITLE, exportFileName, resolveTimeRange, type TimeRange } from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import type { ExportSource } from '../hooks/use-export-sources';
import { csvBlob, downloadBlob } from '@/lib/download';
import { workbookBlob } from '../utils/workbook';
import './widget-export.css';

export interface WidgetExportMenuProps {
  /** The widget's title: the button's name and part of the file name. */
  title: string;
  /** The group's name, the file name's first part. */
  groupName: string;
  /** The range the view shows. */
  range: TimeRange;
  /** The widget's getter of what it shows. */
  source: ExportSource;
}

export const NOTHING_TO_EXPORT = 'Nothing to export yet: the widget is still loading its data.';
export const WORKBOOK_FAILED = 'The Excel workbook could not be made. Try again, or export CSV.';

type Kind = 'csv' | 'xlsx';

export function WidgetExportMenu({ title, groupName, range, source }: WidgetExportMenuProps) {
  const menu = useRef<Menu>(null);
  const menuId = useId();
  const messages = useMessageDialog();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const exportAs = async (kind: Kind) => {
    const table = source.current?.() ?? null;
    if (!table) {
      messages.show('Export', NOTHING_TO_EXPORT, 'info');
      return;
    }
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const resolved = resolveTimeRange(range, Date.now(), timeZone);
    const fileName = exportFileName({ groupName, title, range: resolved, timeZone }, kind);
    if (kind === 'csv') {
      downloadBlob(csvBlob(table), fileName);
      return;
    }
    setBusy(true);
    try {
      downloadBlob(await workbookBlob(table, title), fileName);
    } catch {
      messages.show(ERROR_TITLE, WORKBOOK_FAILED, 'error');
    } finally {
      setBusy(false);
    }
  };

  const items: MenuItem[] = [
    { label: 'Export CSV', icon: 'pi pi-file', command: () => void exportAs('csv') },
    { label: 'Export Excel', icon: 'pi pi-file-excel', command: () => void exportAs('xlsx') },
  ];

  return (
    <>
      <Button
        type="button"
        icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-download'}
        text
        rounded
        size="small"
        className="widget-export__button"
        aria-label={`Export ${title}`}
        title="Export"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={(event) => menu.current?.toggle(event)}
      />
      <Menu
        ref={menu}
        id={menuId}
        model={items}
        popup
        popupAlignment="right"
        aria-label={`Export ${title}`}
        onShow={() => setOpen(true)}
        onHide={() => setOpen(false)}
      />
    </>
  );
}
